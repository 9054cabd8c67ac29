#pragma once
/// What the CPU benchmarks need to know about the CPU, decided at run time (never at build time):
/// SIMD support from cpuid plus the OS's XGETBV state, cores from /sys topology, clock and caches.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscout::bench {

/// The SIMD kernels cpu_peak can run, narrowest first.
enum class Isa { scalar, sse2, avx2_fma, avx512f };
std::string_view isa_name(Isa isa);
/// Vector width in bits (64 for scalar: one double lane).
int isa_bits(Isa isa);

struct CpuidBits {
  bool sse2 = false, avx = false, fma = false, avx2 = false, avx512f = false, avx512_bf16 = false;
  bool osxsave = false;
  uint64_t xcr0 = 0;  ///< XGETBV(0): which register states the OS saves
};

/// Reads cpuid and XGETBV on x86-64; all false elsewhere.
CpuidBits read_cpuid();
/// The ISAs usable by this process: the CPU has them AND the OS enabled their register state. Pure.
std::vector<Isa> usable_isas(const CpuidBits& bits);

struct CpuFacts {
  std::string model;                 ///< "AMD EPYC 9R45"
  int logical_cpus = 1;              ///< CPUs in this process's affinity mask
  int physical_cores = 1;            ///< of those, distinct (package, core) pairs
  std::optional<double> max_mhz;     ///< cpufreq max, else the highest "cpu MHz" of /proc/cpuinfo
  std::string clock_source;          ///< where max_mhz came from
  std::optional<uint64_t> llc_bytes; ///< last-level cache size of cpu0
  std::vector<Isa> isas;
  bool avx512_bf16 = false;
};

/// Pure parsers, fed real files in tests.
std::optional<std::string> parse_model_name(std::string_view cpuinfo);
std::optional<double> parse_max_cpuinfo_mhz(std::string_view cpuinfo);
/// "32768K", "1024 K", "2M" -> bytes.
std::optional<uint64_t> parse_cache_size(std::string_view text);
/// Distinct (package id, core id) pairs.
int count_physical_cores(const std::vector<std::pair<std::string, std::string>>& package_core_ids);

/// Reads the machine (through os:: so a sysroot applies to the files).
CpuFacts read_cpu_facts();

}  // namespace gpuscout::bench
