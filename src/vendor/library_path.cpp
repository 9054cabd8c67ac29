#include "vendor/library_path.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <filesystem>

#include <fmt/format.h>

#include "core/path.hpp"
#include "os/system.hpp"

namespace gpuscout::vendor {
namespace {

Result<os::SharedLibrary> open_chosen(const char* env_var, const char* chosen) {
  // Name the variable when its file is missing: the user set it, and may have mistyped it.
  std::error_code ec;
  const bool is_path = std::strpbrk(chosen, "/\\") != nullptr;
  if (is_path && !std::filesystem::exists(std::filesystem::symlink_status(core::to_path(chosen), ec)))
    return fail(fmt::format("{}={}: {}", env_var, chosen, std::strerror(ENOENT)));
  // SharedLibrary::open refuses a path that is not a regular file, so a FIFO here never blocks dlopen.
  return os::SharedLibrary::open(chosen);
}

}  // namespace

std::vector<std::string> nvml_library_names(LibraryOs os, const std::optional<std::string>& program_files) {
  if (os == LibraryOs::posix) return {"libnvidia-ml.so.1"};
  std::vector<std::string> names{"nvml.dll"};
  if (program_files && !program_files->empty()) {
    std::string folder = *program_files;
    if (folder.back() != '\\' && folder.back() != '/') folder += '\\';
    names.push_back(folder + "NVIDIA Corporation\\NVSMI\\nvml.dll");
  }
  return names;
}

std::vector<std::string> nvml_library_names() {
  std::optional<std::string> program_files;
  if constexpr (kHostLibraryOs == LibraryOs::windows) {
    program_files = os::getenv("ProgramW6432");  // the 64-bit folder, also from a 32-bit process
    if (!program_files) program_files = os::getenv("ProgramFiles");
  }
  return nvml_library_names(kHostLibraryOs, program_files);
}

std::vector<std::string> cuda_library_names(LibraryOs os) {
  if (os == LibraryOs::windows) return {"nvcuda.dll"};
  return {"libcuda.so.1"};
}

Result<os::SharedLibrary> open_library(const char* env_var, const std::vector<std::string>& names) {
  const char* chosen = std::getenv(env_var);
  if (chosen && *chosen) return open_chosen(env_var, chosen);
  std::string errors;
  for (const auto& name : names) {
    auto library = os::SharedLibrary::open(name);
    if (library) return library;
    errors += (errors.empty() ? "" : "; ") + library.error().message;
  }
  if (names.empty()) errors = "no library name to try";
  return fail(errors);
}

}  // namespace gpuscout::vendor
