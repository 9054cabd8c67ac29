#include "vendor/library_path.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

namespace gpuscout::vendor {

Result<os::SharedLibrary> open_library(const char* env_var, const std::string& soname) {
  const char* chosen = std::getenv(env_var);
  if (!chosen || !*chosen) return os::SharedLibrary::open(soname);
  // Name the variable when its file is missing: the user set it, and may have mistyped it.
  if (std::strchr(chosen, '/') && ::access(chosen, F_OK) != 0)
    return fail(fmt::format("{}={}: {}", env_var, chosen, std::strerror(errno)));
  // SharedLibrary::open refuses a path that is not a regular file, so a FIFO here never blocks dlopen.
  return os::SharedLibrary::open(chosen);
}

}  // namespace gpuscout::vendor
