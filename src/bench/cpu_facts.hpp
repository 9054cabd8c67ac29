#pragma once
/// What the CPU benchmarks need to know about the CPU, taken from the Inventory (probe::collect gathered it:
/// cpuid plus the OS's XGETBV state, sysfs topology, cpufreq and caches). Bench never probes the CPU itself.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "inventory/inventory.hpp"

namespace gpuscout::bench {

/// The SIMD kernels cpu_peak can run, narrowest first.
enum class Isa { scalar, sse2, avx2_fma, avx512f };
std::string_view isa_name(Isa isa);
/// Vector width in bits (64 for scalar: one double lane).
int isa_bits(Isa isa);

struct CpuFacts {
  std::string model;                 ///< "AMD EPYC 9R45"
  int logical_cpus = 1;              ///< CPUs this process may run on
  int physical_cores = 1;            ///< of those, distinct cores (hyper-threads counted once)
  std::optional<double> max_mhz;     ///< the clock the computed peak uses
  std::string clock_source;          ///< where max_mhz came from, in words
  std::optional<uint64_t> llc_bytes; ///< the largest cache of the first usable CPU
  std::vector<Isa> isas;
  bool avx512_bf16 = false;
};

/// The kernels this process may run, from the probe's features (which already require the OS to save the
/// register state): SSE2 is part of x86-64 itself; AVX2 kernels need avx, avx2 and fma; AVX-512 ones
/// avx512f and fma. Pure.
std::vector<Isa> usable_isas(std::string_view arch, const std::vector<std::string>& features);

/// The inventory's CPU section as the benchmarks see it. Pure.
CpuFacts cpu_facts(const CpuInfo& cpu);

}  // namespace gpuscout::bench
