// libFuzzer target: any bytes as /proc/self/cgroup, then the directories the limit files are looked up in, and the
// same bytes as a limit file (memory.max, cpu.max). A path never climbs out of the cgroup mount.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "probe/sources.hpp"

namespace {

void check_path(const std::string& path) {
  if (!path.empty() && path.front() != '/') std::abort();
  if (path.find("/../") != std::string::npos || path.ends_with("/..") || path.find("//") != std::string::npos)
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpuscout::probe;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto own = parse_proc_cgroup(text);
  if (own.unified) {
    check_path(*own.unified);
    const auto dirs = cgroup_dirs("/sys/fs/cgroup", *own.unified);
    if (dirs.empty() || dirs.back() != "/sys/fs/cgroup") std::abort();  // innermost first, the mount last
  }
  for (const auto& [controller, path] : own.v1) {
    if (controller != "memory" && controller != "cpu") std::abort();
    check_path(path);
    (void)cgroup_dirs("/sys/fs/cgroup/" + controller, path);
  }
  if (const auto limit = parse_cgroup_memory_limit(text); limit && (*limit == 0 || *limit >= (1ULL << 62))) std::abort();
  if (const auto quota = parse_cgroup_cpu_max(text); quota && !(std::isfinite(*quota) && *quota > 0)) std::abort();
  return 0;
}
