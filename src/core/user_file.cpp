#include "core/user_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace gpuscout::core {

Result<std::string> read_user_file(const std::string& path, std::uintmax_t max_bytes) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) return fail(fmt::format("{}: no such file", path));
  if (std::filesystem::is_directory(status)) return fail(fmt::format("{}: is a folder, not a file", path));
  if (!std::filesystem::is_regular_file(status)) return fail(fmt::format("{}: not a regular file", path));
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > max_bytes)
    return fail(fmt::format("{}: larger than {} MiB, too big for what gpuscout reads here", path, max_bytes >> 20));
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(fmt::format("{}: cannot be read: {}", path, std::strerror(errno ? errno : EACCES)));
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) return fail(fmt::format("{}: read error", path));
  return buf.str();
}

}  // namespace gpuscout::core
