#include "core/path.hpp"

#include <system_error>

namespace gpuscout::core {

std::filesystem::path to_path(std::string_view utf8) { return std::filesystem::path(std::string(utf8)); }
std::string from_path(const std::filesystem::path& path) { return path.string(); }

std::string self_executable() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.string();
}

}  // namespace gpuscout::core
