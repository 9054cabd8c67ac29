#include "os/system.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/random.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "core/i18n.hpp"
#include "core/text.hpp"
#include "os/write_target.hpp"

namespace gpuscout::os {
namespace {

std::string& sysroot_storage() {
  static std::string root = [] {
    const char* env = std::getenv("GPUSCOUT_SYSROOT");
    std::string r = env ? env : "";
    while (r.size() > 1 && r.back() == '/') r.pop_back();
    return r;
  }();
  return root;
}

std::string under_root(const std::string& path) { return sysroot_storage() + path; }

struct FdCloser {
  int fd;
  ~FdCloser() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

const std::string& sysroot() { return sysroot_storage(); }
void set_sysroot(std::string prefix) {
  while (prefix.size() > 1 && prefix.back() == '/') prefix.pop_back();
  sysroot_storage() = std::move(prefix);
}

Result<std::string> read_file(const std::string& path, size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it before any read.
  const int fd = ::open(under_root(path).c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
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

Result<std::string> read_line(const std::string& path) {
  auto content = read_file(path, 1 << 16);
  if (!content) return content;
  std::string_view v = *content;
  const auto nl = v.find('\n');
  if (nl != std::string_view::npos) v = v.substr(0, nl);
  return std::string(text::trim(v));
}

bool exists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::exists(std::filesystem::symlink_status(under_root(path), ec));
}

bool is_directory(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_directory(under_root(path), ec);
}

std::vector<std::string> list_dir(const std::string& path) {
  std::vector<std::string> names;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(under_root(path), ec), end; !ec && it != end; it.increment(ec))
    names.push_back(it->path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

Result<std::string> read_link(const std::string& path) {
  std::error_code ec;
  auto target = std::filesystem::read_symlink(under_root(path), ec);
  if (ec) return fail(fmt::format("{}: {}", path, ec.message()));
  return target.string();
}

std::optional<std::string> getenv(const std::string& name) {
  if (sysroot().empty()) {
    const char* v = std::getenv(name.c_str());
    if (!v) return std::nullopt;
    return std::string(v);
  }
  auto environ_file = read_file("/proc/self/environ", 1 << 20);
  if (!environ_file) return std::nullopt;
  // Recorded environ files are NUL-separated like the real one; accept newlines from hand-written fixtures.
  std::string_view all = *environ_file;
  size_t start = 0;
  while (start < all.size()) {
    size_t end = all.find_first_of(std::string_view("\0\n", 2), start);
    if (end == std::string_view::npos) end = all.size();
    const auto entry = all.substr(start, end - start);
    if (entry.size() > name.size() && entry.substr(0, name.size()) == name && entry[name.size()] == '=')
      return std::string(entry.substr(name.size() + 1));
    start = end + 1;
  }
  return std::nullopt;
}

Result<FsSpace> filesystem_space(const std::string& mount) {
  if (!sysroot().empty()) {
    auto table = read_file("/statvfs.txt");
    if (!table) return fail(fmt::format("{}: no size recorded (statvfs.txt missing)", mount));
    for (auto line : text::split(*table, '\n')) {
      const auto f = text::split_ws(line);
      if (f.size() < 4 || f[0] != mount) continue;
      const auto total = text::parse_uint(f[1]), free = text::parse_uint(f[2]), avail = text::parse_uint(f[3]);
      if (!total || !free || !avail) return fail(fmt::format("{}: malformed statvfs.txt line", mount));
      return FsSpace{*total, *free, *avail};
    }
    return fail(fmt::format("{}: no size recorded in statvfs.txt", mount));
  }
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

}  // namespace gpuscout::os

namespace gpuscout::os {
namespace {

// Where the bytes go (the target, or the regular file a link points to) and the permissions to keep.
struct WriteTarget {
  std::string path;
  std::optional<mode_t> mode;
};

// check_write_target refuses folders, devices, FIFOs and a missing folder; this adds what the rename needs.
Result<WriteTarget> resolve_write_target(const std::string& path) {
  if (auto ok = check_write_target(path); !ok) return std::unexpected(ok.error());
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return WriteTarget{path, std::nullopt};  // a new file
  if (!S_ISLNK(st.st_mode)) return WriteTarget{path, st.st_mode & 07777};
  char* real = ::realpath(path.c_str(), nullptr);
  if (!real || ::stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
    std::free(real);
    return fail(trf("{}: a link that leads to no file; gpuscout does not create files through links", path));
  }
  std::string target = real;
  std::free(real);
  return WriteTarget{target, st.st_mode & 07777};
}

uint64_t random_u64() {
  uint64_t value = 0;
  if (::getrandom(&value, sizeof value, GRND_NONBLOCK) == static_cast<ssize_t>(sizeof value)) return value;
  // No entropy yet (early boot): still unpredictable enough with O_EXCL refusing any existing name.
  return static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
         (static_cast<uint64_t>(::getpid()) << 40);
}

struct Temporary {
  int fd = -1;
  std::string path;
};

// Created beside the target, exclusively: O_EXCL with a random name never opens an existing file or follows
// a planted link (O_CREAT|O_EXCL fails on a symlink, whatever it points to).
Result<Temporary> create_temporary(const std::string& target) {
  for (int attempt = 0; attempt < 16; ++attempt) {
    std::string tmp = fmt::format("{}.tmp-gpuscout-{:016x}", target, random_u64());
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) return Temporary{fd, std::move(tmp)};
    if (errno != EEXIST) return fail(std::strerror(errno));
  }
  return fail("no free temporary name");
}

Result<void> write_all(int fd, std::string_view content) {
  size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return fail(std::strerror(n < 0 ? errno : EIO));
    written += static_cast<size_t>(n);
  }
  // On disk before the rename, so a crash leaves the old file or the new one, never an empty one.
  if (::fsync(fd) != 0 && errno != EINVAL) return fail(std::strerror(errno));
  return {};
}

}  // namespace

Result<void> write_file_atomic(const std::string& path, std::string_view content) {
  auto target = resolve_write_target(path);
  if (!target) return std::unexpected(target.error());
  auto tmp = create_temporary(target->path);
  if (!tmp) return fail(trf("{}: cannot write: {}", path, tmp.error().message));
  if (target->mode) (void)::fchmod(tmp->fd, *target->mode);  // keep the old file's permissions
  auto wrote = write_all(tmp->fd, content);
  if (::close(tmp->fd) != 0 && wrote) wrote = fail(std::strerror(errno));
  if (wrote && std::rename(tmp->path.c_str(), target->path.c_str()) != 0) wrote = fail(std::strerror(errno));
  if (!wrote) {
    ::unlink(tmp->path.c_str());
    return fail(trf("{}: cannot write: {}", path, wrote.error().message));
  }
  return {};
}
std::string utc_now_iso8601() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace gpuscout::os
