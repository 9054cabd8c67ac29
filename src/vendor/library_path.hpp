#pragma once
/// Where a vendor library comes from: its versioned soname, or a file an environment variable names.
#include <string>

#include "core/error.hpp"
#include "os/library.hpp"

namespace gpuscout::vendor {

/// Opens `env_var`'s library when it is set (a soname, or a path that must be a regular file, so a FIFO or a device
/// there is an error instead of a dlopen that blocks for ever), else `soname` through the loader's search path.
Result<os::SharedLibrary> open_library(const char* env_var, const std::string& soname);

}  // namespace gpuscout::vendor
