#include "vendor/library_path.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

namespace gpuscout::vendor {

Result<os::SharedLibrary> open_library(const char* env_var, const std::string& soname) {
  const char* chosen = std::getenv(env_var);
  if (!chosen || !*chosen) return os::SharedLibrary::open(soname);
  // A name without '/' is a soname for the loader to find; a path must be a plain file before dlopen reads it.
  if (std::strchr(chosen, '/')) {
    struct stat st{};
    if (::stat(chosen, &st) != 0)
      return fail(fmt::format("{}={}: {}", env_var, chosen, std::strerror(errno)));
    if (!S_ISREG(st.st_mode)) return fail(fmt::format("{}={}: not a regular file", env_var, chosen));
  }
  return os::SharedLibrary::open(chosen);
}

}  // namespace gpuscout::vendor
