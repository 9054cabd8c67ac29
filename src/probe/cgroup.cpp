// The process's own cgroup (/proc/self/cgroup) and the limit files along its path: one path resolution for the
// CPU quota (cpu.cpp) and the memory limit (memory.cpp).
#include <algorithm>

#include "core/text.hpp"
#include "os/system.hpp"
#include "probe/sources.hpp"

namespace gpuscout::probe {
namespace {

constexpr size_t kMaxPathBytes = 4096;  // PATH_MAX: longer lines are damage, not a cgroup

/// A cgroup path as written after the second ':', cleaned: absolute, no "..", no empty segments.
std::optional<std::string> clean_cgroup_path(std::string_view raw) {
  const auto path = text::trim(raw);
  if (path.empty() || path.front() != '/' || path.size() > kMaxPathBytes) return std::nullopt;
  std::string out;
  for (auto segment : text::split(path, '/')) {
    if (segment.empty() || segment == ".") continue;
    if (segment == "..") return std::nullopt;
    out += '/';
    out += segment;
  }
  return out;  // "" for the root
}

}  // namespace

CgroupMembership parse_proc_cgroup(std::string_view text) {
  CgroupMembership out;
  for (auto line : text::split(text, '\n')) {
    // "ID:CONTROLLERS:PATH"; the path may itself hold ':'.
    const auto first = line.find(':');
    if (first == std::string_view::npos) continue;
    const auto second = line.find(':', first + 1);
    if (second == std::string_view::npos) continue;
    const auto id = line.substr(0, first), controllers = line.substr(first + 1, second - first - 1);
    const auto path = clean_cgroup_path(line.substr(second + 1));
    if (!path) continue;
    if (id == "0" && controllers.empty()) {
      out.unified = *path;
      continue;
    }
    for (auto controller : text::split(controllers, ','))
      if (controller == "memory" || controller == "cpu") out.v1[std::string(controller)] = *path;
  }
  return out;
}

std::vector<std::string> cgroup_dirs(std::string_view mount, std::string_view path) {
  // In a container the mount is often the container's own cgroup while /proc/self/cgroup names the host's path
  // ("/docker/ID"): those deeper directories do not exist and the mount itself answers.
  std::vector<std::string> out;
  std::string current(path);
  while (true) {
    out.push_back(std::string(mount) + current);
    if (current.empty()) break;
    current.erase(current.rfind('/'));
  }
  return out;
}

std::vector<std::string> own_cgroup_files(std::string_view v1_controller, std::string_view v2_file,
                                          std::string_view v1_file) {
  CgroupMembership own;
  if (auto text = os::read_file("/proc/self/cgroup", 1 << 16)) own = parse_proc_cgroup(*text);
  std::vector<std::string> files;
  for (const auto& dir : cgroup_dirs("/sys/fs/cgroup", own.unified.value_or("")))
    files.push_back(dir + "/" + std::string(v2_file));
  const auto v1 = own.v1.find(std::string(v1_controller));
  const std::string v1_mount = "/sys/fs/cgroup/" + std::string(v1_controller);
  for (const auto& dir : cgroup_dirs(v1_mount, v1 == own.v1.end() ? "" : v1->second))
    files.push_back(dir + "/" + std::string(v1_file));
  return files;
}

std::optional<uint64_t> parse_cgroup_memory_limit(std::string_view text) {
  const auto value = text::trim(text);
  if (value == "max") return std::nullopt;
  const auto n = text::parse_uint(value);
  // v1 writes "no limit" as PAGE_COUNTER_MAX pages (9223372036854771712 with 4 KiB pages): anything that large.
  if (!n || *n == 0 || *n >= (1ull << 62)) return std::nullopt;
  return *n;
}

std::optional<uint64_t> cgroup_memory_limit() {
  std::optional<uint64_t> smallest;
  for (const auto& file : own_cgroup_files("memory", "memory.max", "memory.limit_in_bytes"))
    if (auto line = os::read_line(file))
      if (auto limit = parse_cgroup_memory_limit(*line)) smallest = std::min(smallest.value_or(*limit), *limit);
  return smallest;
}

}  // namespace gpuscout::probe
