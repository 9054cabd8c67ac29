#include "os/system.hpp"

#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "core/text.hpp"

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

}  // namespace

const std::string& sysroot() { return sysroot_storage(); }
void set_sysroot(std::string prefix) {
  while (prefix.size() > 1 && prefix.back() == '/') prefix.pop_back();
  sysroot_storage() = std::move(prefix);
}

Result<std::string> read_file(const std::string& path, size_t max_bytes) {
  std::ifstream in(under_root(path), std::ios::binary);
  if (!in) return fail(fmt::format("{}: {}", path, std::strerror(errno ? errno : ENOENT)));
  std::string data;
  char buffer[8192];
  while (in) {
    in.read(buffer, sizeof buffer);
    data.append(buffer, static_cast<size_t>(in.gcount()));
    if (data.size() > max_bytes) return fail(fmt::format("{}: larger than {} bytes", path, max_bytes));
  }
  if (in.bad()) return fail(fmt::format("{}: read error", path));
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
Result<void> write_file_atomic(const std::string& path, std::string_view content) {
  const std::string tmp = path + ".tmp-gpuscout-" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return fail(fmt::format("{}: cannot write: {}", path, std::strerror(errno)));
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      return fail(fmt::format("{}: write failed: {}", path, std::strerror(errno)));
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    std::remove(tmp.c_str());
    return fail(fmt::format("{}: cannot write: {}", path, std::strerror(e)));
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
