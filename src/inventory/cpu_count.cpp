#include "inventory/cpu_count.hpp"

#include <algorithm>
#include <cmath>

namespace gpuscout {

std::optional<int> usable_cpu_count(const CpuInfo& cpu) {
  if (!cpu.logical_cpus) return std::nullopt;
  int n = *cpu.logical_cpus;
  if (cpu.cpu_quota && *cpu.cpu_quota > 0) n = std::min(n, std::max(1, static_cast<int>(std::ceil(*cpu.cpu_quota))));
  return n;
}

std::optional<int> usable_core_count(const CpuInfo& cpu) {
  if (!cpu.physical_cores || *cpu.physical_cores < 1) return std::nullopt;
  int n = *cpu.physical_cores;
  if (cpu.cpu_quota && *cpu.cpu_quota > 0) n = std::min(n, std::max(1, static_cast<int>(std::ceil(*cpu.cpu_quota))));
  return n;
}

}  // namespace gpuscout
