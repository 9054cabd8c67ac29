#pragma once
/// Where a vendor library comes from: the names the driver installs it under on this OS, or a file an environment
/// variable names.
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "os/library.hpp"

namespace gpuscout::vendor {

/// Which operating system's driver layout to name (a parameter, so tests check Windows' list on Linux).
enum class LibraryOs { posix, windows };
#ifdef _WIN32
inline constexpr LibraryOs kHostLibraryOs = LibraryOs::windows;
#else
inline constexpr LibraryOs kHostLibraryOs = LibraryOs::posix;
#endif

/// NVML, in the order tried. Linux: the versioned soname through the loader's search path. Windows: the bare
/// "nvml.dll", which os::SharedLibrary loads from System32 only (LOAD_LIBRARY_SEARCH_SYSTEM32: never a DLL planted
/// in the working folder), where current drivers install it; then "NVIDIA Corporation\NVSMI\nvml.dll" under
/// `program_files` (%ProgramW6432%), where older drivers put it (none: that place is not tried).
std::vector<std::string> nvml_library_names(LibraryOs os, const std::optional<std::string>& program_files);
/// This machine's list (program_files from %ProgramW6432%, else %ProgramFiles%).
std::vector<std::string> nvml_library_names();

/// The CUDA driver: libcuda.so.1 on Linux, "nvcuda.dll" from System32 only on Windows (the display driver
/// installs it there and nowhere else).
std::vector<std::string> cuda_library_names(LibraryOs os = kHostLibraryOs);

/// Opens `env_var`'s library when it is set (a soname, or a path that must be a regular file, so a FIFO or a device
/// there is an error instead of a load that blocks for ever), else the first of `names` that loads; when none
/// does, the error names each one tried.
Result<os::SharedLibrary> open_library(const char* env_var, const std::vector<std::string>& names);

}  // namespace gpuscout::vendor
