// The POSIX side of the file and environment seam (os/system.hpp).
#include <fcntl.h>
#include <pwd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "core/i18n.hpp"
#include "os/native.hpp"

extern char** environ;

namespace gpuscout::os::native {
namespace {

struct FdCloser {
  int fd;
  ~FdCloser() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

Result<std::string> read_file(const std::string& real_path, const std::string& path, size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it before any read.
  const int fd = ::open(real_path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return fail(fmt::format("{}: {}", path, std::strerror(errno)));
  const FdCloser closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) return fail(fmt::format("{}: {}", path, std::strerror(errno)));
  if (S_ISDIR(st.st_mode)) return fail(trf("{}: is a folder, not a file", path));
  if (!S_ISREG(st.st_mode)) return fail(trf("{}: not a regular file (a device, FIFO or socket)", path));
  // sysfs and procfs files say 0 or 4096 bytes whatever they hold: read to EOF, bounded by max_bytes.
  std::string data;
  char buffer[8192];
  while (true) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return fail(trf("{}: read error: {}", path, std::strerror(errno)));
    if (got == 0) break;
    data.append(buffer, static_cast<size_t>(got));
    if (data.size() > max_bytes) return fail(trf("{}: larger than {} bytes", path, max_bytes));
  }
  return data;
}

std::optional<std::string> getenv(const std::string& name) {
  const char* v = std::getenv(name.c_str());
  if (!v) return std::nullopt;
  return std::string(v);
}

std::vector<std::string> environment_names() {
  std::vector<std::string> names;
  for (char** e = environ; e && *e; ++e) {
    const std::string_view entry(*e);
    const auto eq = entry.find('=');
    if (eq != std::string_view::npos && eq > 0) names.emplace_back(entry.substr(0, eq));
  }
  return names;
}

Result<FsSpace> filesystem_space(const std::string& mount) {
  struct statvfs st {};
  if (::statvfs(mount.c_str(), &st) != 0) return fail(fmt::format("{}: statvfs: {}", mount, std::strerror(errno)));
  const uint64_t unit = st.f_frsize ? st.f_frsize : st.f_bsize;
  return FsSpace{uint64_t(st.f_blocks) * unit, uint64_t(st.f_bfree) * unit, uint64_t(st.f_bavail) * unit};
}

std::string machine_arch() {
  struct utsname u {};
  if (::uname(&u) != 0) return "unknown";
  return u.machine;
}

std::optional<std::string> hostname() {
  char host[256] = {0};
  if (::gethostname(host, sizeof host - 1) != 0) return std::nullopt;
  return std::string(host);
}

std::vector<std::string> program_arguments(int argc, char** argv) { return {argv, argv + argc}; }
void prepare_console() {}

UserIdentity current_user() {
  UserIdentity who;
  for (const char* var : {"USER", "LOGNAME", "SUDO_USER"})
    if (const char* value = std::getenv(var)) who.names.emplace_back(value);
  if (const char* home = std::getenv("HOME")) who.homes.emplace_back(home);
  passwd entry{};
  passwd* found = nullptr;
  std::vector<char> buffer(16 * 1024);
  if (::getpwuid_r(::getuid(), &entry, buffer.data(), buffer.size(), &found) == 0 && found != nullptr) {
    if (entry.pw_name != nullptr) who.names.emplace_back(entry.pw_name);
    if (entry.pw_dir != nullptr) who.homes.emplace_back(entry.pw_dir);
  }
  return who;
}

bool stdout_is_terminal() { return ::isatty(STDOUT_FILENO); }
bool stderr_is_terminal() { return ::isatty(STDERR_FILENO); }

std::optional<int> terminal_columns() {
  struct winsize ws{};
  if (!::isatty(STDOUT_FILENO) || ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0) return std::nullopt;
  return ws.ws_col;
}

}  // namespace gpuscout::os::native
