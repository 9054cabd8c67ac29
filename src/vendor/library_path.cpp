#include "vendor/library_path.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <filesystem>

#include <fmt/format.h>

#include "core/path.hpp"

namespace gpuscout::vendor {

Result<os::SharedLibrary> open_library(const char* env_var, const std::string& soname) {
  const char* chosen = std::getenv(env_var);
  if (!chosen || !*chosen) return os::SharedLibrary::open(soname);
  // Name the variable when its file is missing: the user set it, and may have mistyped it.
  std::error_code ec;
  const bool is_path = std::strpbrk(chosen, "/\\") != nullptr;
  if (is_path && !std::filesystem::exists(std::filesystem::symlink_status(core::to_path(chosen), ec)))
    return fail(fmt::format("{}={}: {}", env_var, chosen, std::strerror(ENOENT)));
  // SharedLibrary::open refuses a path that is not a regular file, so a FIFO here never blocks dlopen.
  return os::SharedLibrary::open(chosen);
}

}  // namespace gpuscout::vendor
