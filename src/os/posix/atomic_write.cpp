// Atomic writes of the user's files on POSIX (os/system.hpp: write_file_atomic) and the ISO 8601 clock.
#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include <fmt/format.h>

#include "core/i18n.hpp"
#include "os/system.hpp"
#include "os/posix/children.hpp"
#include "os/write_target.hpp"

namespace gpuscout::os {

uint64_t posix::random_u64() {
  uint64_t value = 0;
  if (::getrandom(&value, sizeof value, GRND_NONBLOCK) == static_cast<ssize_t>(sizeof value)) return value;
  // No entropy yet (early boot): still unpredictable enough with O_EXCL refusing any existing name.
  return static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
         (static_cast<uint64_t>(::getpid()) << 40);
}

namespace {

// Where the bytes go (the target, or the regular file a link points to) and the permissions to keep.
struct WriteTarget {
  std::string path;
  std::optional<mode_t> mode;
};

// check_write_target refuses folders, devices, FIFOs and a missing folder; this adds what the rename needs.
Result<WriteTarget> resolve_write_target(const std::string& path, bool replace_read_only) {
  if (auto ok = check_write_target(path, replace_read_only); !ok) return std::unexpected(ok.error());
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

struct Temporary {
  int fd = -1;
  std::string path;
};

// Created beside the target, exclusively: O_EXCL with a random name never opens an existing file or follows
// a planted link (O_CREAT|O_EXCL fails on a symlink, whatever it points to).
Result<Temporary> create_temporary(const std::string& target) {
  std::string folder = target.substr(0, target.find_last_of('/') + 1);
  const long name_max = ::pathconf(folder.empty() ? "." : folder.c_str(), _PC_NAME_MAX);
  for (int attempt = 0; attempt < 16; ++attempt) {
    std::string tmp = temporary_name(target, posix::random_u64(), name_max > 0 ? static_cast<size_t>(name_max) : 255);
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

Result<void> write_file_atomic(const std::string& path, std::string_view content, bool replace_read_only) {
  auto target = resolve_write_target(path, replace_read_only);
  if (!target) return std::unexpected(target.error());
  auto tmp = create_temporary(target->path);
  if (!tmp) return fail(trf("{}: cannot write: {}", path, tmp.error().message));
  posix::set_temporary(tmp->path.c_str());  // removed if a signal ends gpuscout before the rename
  if (target->mode) (void)::fchmod(tmp->fd, *target->mode);  // keep the old file's permissions
  auto wrote = write_all(tmp->fd, content);
  if (::close(tmp->fd) != 0 && wrote) wrote = fail(std::strerror(errno));
  if (wrote && std::rename(tmp->path.c_str(), target->path.c_str()) != 0) wrote = fail(std::strerror(errno));
  if (!wrote) ::unlink(tmp->path.c_str());
  posix::set_temporary(nullptr);
  if (!wrote) return fail(trf("{}: cannot write: {}", path, wrote.error().message));
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
