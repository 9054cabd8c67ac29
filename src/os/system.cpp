#include "os/system.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "core/path.hpp"
#include "core/text.hpp"
#include "os/native.hpp"
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

std::filesystem::path under_root(const std::string& path) { return core::to_path(sysroot_storage() + path); }

}  // namespace

const std::string& sysroot() { return sysroot_storage(); }
void set_sysroot(std::string prefix) {
  while (prefix.size() > 1 && prefix.back() == '/') prefix.pop_back();
  sysroot_storage() = std::move(prefix);
}

Result<std::string> read_file(const std::string& path, size_t max_bytes) {
  return native::read_file(sysroot_storage() + path, path, max_bytes);
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
    names.push_back(core::from_path(it->path().filename()));
  std::sort(names.begin(), names.end());
  return names;
}

Result<std::string> read_link(const std::string& path) {
  std::error_code ec;
  auto target = std::filesystem::read_symlink(under_root(path), ec);
  if (ec) return fail(fmt::format("{}: {}", path, ec.message()));
  return core::from_path(target);
}

namespace {

/// Each "NAME=VALUE" entry of the recorded environ file, in order. Recorded files are NUL-separated like the real
/// one; newlines are accepted from hand-written fixtures.
template <typename Visit>
void for_each_recorded_entry(Visit&& visit) {
  auto environ_file = read_file("/proc/self/environ", 1 << 20);
  if (!environ_file) return;
  std::string_view all = *environ_file;
  size_t start = 0;
  while (start < all.size()) {
    size_t end = all.find_first_of(std::string_view("\0\n", 2), start);
    if (end == std::string_view::npos) end = all.size();
    const auto entry = all.substr(start, end - start);
    const auto eq = entry.find('=');
    if (eq != std::string_view::npos && eq > 0 && visit(entry.substr(0, eq), entry.substr(eq + 1))) return;
    start = end + 1;
  }
}

}  // namespace

std::optional<std::string> getenv(const std::string& name) {
  if (sysroot().empty()) return native::getenv(name);
  std::optional<std::string> found;
  for_each_recorded_entry([&](std::string_view key, std::string_view value) {
    if (key != name) return false;
    found = std::string(value);
    return true;
  });
  return found;
}

std::vector<std::string> environment_names() {
  if (sysroot().empty()) return native::environment_names();
  std::vector<std::string> names;
  for_each_recorded_entry([&](std::string_view key, std::string_view) {
    names.emplace_back(key);
    return false;
  });
  return names;
}

Result<FsSpace> filesystem_space(const std::string& mount) {
  if (sysroot().empty()) return native::filesystem_space(mount);
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

std::string machine_arch() { return native::machine_arch(); }
std::optional<std::string> hostname() { return native::hostname(); }
std::vector<std::string> program_arguments(int argc, char** argv) { return native::program_arguments(argc, argv); }
void prepare_console() { native::prepare_console(); }
UserIdentity current_user() { return native::current_user(); }
bool stdout_is_terminal() { return native::stdout_is_terminal(); }
bool stderr_is_terminal() { return native::stderr_is_terminal(); }
std::optional<int> terminal_columns() { return native::terminal_columns(); }

std::string temporary_name(const std::string& target, uint64_t random, size_t name_max) {
  const std::string beside = fmt::format("{}.tmp-gpuscout-{:016x}", target, random);
  const auto slash = beside.find_last_of("/\\");
  const size_t name_length = slash == std::string::npos ? beside.size() : beside.size() - slash - 1;
  if (name_length <= name_max) return beside;
  const auto target_slash = target.find_last_of("/\\");
  const std::string folder = target_slash == std::string::npos ? "" : target.substr(0, target_slash + 1);
  return fmt::format("{}.gpuscout-{:016x}.tmp", folder, random);
}

}  // namespace gpuscout::os
