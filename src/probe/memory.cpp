// Memory: /proc/meminfo, and a container's cgroup limit (what the process can really use).
#include <fmt/format.h>

#include "core/text.hpp"
#include "os/system.hpp"
#include "probe/sources.hpp"

namespace gpuscout::probe {

MemoryInfo parse_meminfo(std::string_view text) {
  MemoryInfo mem;
  for (auto line : text::split(text, '\n')) {
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const auto key = text::trim(line.substr(0, colon));
    std::optional<uint64_t>* target = nullptr;
    if (key == "MemTotal") target = &mem.total_bytes;
    else if (key == "MemAvailable") target = &mem.available_bytes;
    else if (key == "SwapTotal") target = &mem.swap_total_bytes;
    else if (key == "SwapFree") target = &mem.swap_free_bytes;
    if (!target) continue;
    auto value = text::trim(line.substr(colon + 1));
    uint64_t scale = 1;
    if (value.ends_with("kB")) {
      scale = 1024;
      value = text::trim(value.substr(0, value.size() - 2));
    }
    const auto n = text::parse_uint(value);
    if (!n) {
      const std::string shown = text::clean_utf8(text::trim(line.substr(colon + 1)));
      mem.errors.push_back(
          ProbeError{"memory", "/proc/meminfo", fmt::format("{}: not a number: '{}'", key, shown), std::nullopt});
      continue;
    }
    *target = *n * scale;
  }
  if (!mem.total_bytes)
    mem.errors.push_back(ProbeError{"memory", "/proc/meminfo", "no valid MemTotal line", std::nullopt});
  return mem;
}

MemoryInfo probe_memory() {
  auto text = os::read_file("/proc/meminfo");
  MemoryInfo mem;
  if (!text) {
    mem.errors.push_back(ProbeError{"memory", "/proc/meminfo", text.error().message, std::nullopt});
    return mem;
  }
  mem = parse_meminfo(*text);
  // A container's limit (the smallest memory.max / memory.limit_in_bytes on our cgroup path) is what we can use.
  if (auto limit = cgroup_memory_limit(); limit && (!mem.total_bytes || *limit < *mem.total_bytes))
    mem.cgroup_limit_bytes = *limit;
  // PyTorch's DataLoader workers pass batches through /dev/shm; Docker gives it 64 MiB unless told otherwise.
  if (auto shm = os::filesystem_space("/dev/shm")) {
    mem.shm_total_bytes = shm->total_bytes;
    mem.shm_available_bytes = shm->available_bytes;
  }
  return mem;
}

}  // namespace gpuscout::probe
