#include "core/user_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "core/i18n.hpp"

namespace gpuscout::core {

Result<std::string> read_user_file(const std::string& path, std::uintmax_t max_bytes) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) return fail(trf("{}: no such file", path));
  if (std::filesystem::is_directory(status)) return fail(trf("{}: is a folder, not a file", path));
  if (!std::filesystem::is_regular_file(status)) return fail(trf("{}: not a regular file", path));
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > max_bytes)
    return fail(trf("{}: larger than {} MiB, too big for what gpuscout reads here", path, max_bytes >> 20));
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(trf("{}: cannot be read: {}", path, std::strerror(errno ? errno : EACCES)));
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) return fail(trf("{}: read error", path));
  return buf.str();
}

Result<std::string> read_user_file_prefix(const std::string& path, std::uintmax_t max_bytes) {
  // O_NONBLOCK: a FIFO opens at once and fstat refuses it; nothing is read before the type is known.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    if (errno == ENOENT) return fail(trf("{}: no such file", path));
    return fail(trf("{}: cannot be read: {}", path, std::strerror(errno)));
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) return fail(trf("{}: cannot be read: {}", path, std::strerror(errno)));
  if (S_ISDIR(st.st_mode)) return fail(trf("{}: is a folder, not a file", path));
  if (!S_ISREG(st.st_mode)) return fail(trf("{}: not a regular file", path));
  std::string data;
  char buffer[65536];
  while (data.size() < max_bytes) {
    const size_t want = static_cast<size_t>(std::min<std::uintmax_t>(sizeof buffer, max_bytes - data.size()));
    const ssize_t got = ::read(fd, buffer, want);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return fail(trf("{}: read error: {}", path, std::strerror(errno)));
    if (got == 0) break;
    data.append(buffer, static_cast<size_t>(got));
  }
  return data;
}

}  // namespace gpuscout::core
