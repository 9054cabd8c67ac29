#include "bench/cpu_info.hpp"

#include <sched.h>

#include <algorithm>
#include <set>
#include <thread>

#include "core/text.hpp"
#include "os/system.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace gpuscout::bench {

std::string_view isa_name(Isa isa) {
  switch (isa) {
    case Isa::scalar: return "scalar";
    case Isa::sse2: return "sse2";
    case Isa::avx2_fma: return "avx2+fma";
    case Isa::avx512f: return "avx512f";
  }
  return "?";
}

int isa_bits(Isa isa) {
  switch (isa) {
    case Isa::scalar: return 64;
    case Isa::sse2: return 128;
    case Isa::avx2_fma: return 256;
    case Isa::avx512f: return 512;
  }
  return 64;
}

CpuidBits read_cpuid() {
  CpuidBits b;
#if defined(__x86_64__) || defined(__i386__)
  unsigned a = 0, bx = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &bx, &c, &d)) return b;
  b.sse2 = (d >> 26) & 1;
  b.fma = (c >> 12) & 1;
  b.osxsave = (c >> 27) & 1;
  b.avx = (c >> 28) & 1;
  if (b.osxsave) {
    unsigned lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    b.xcr0 = (static_cast<uint64_t>(hi) << 32) | lo;
  }
  if (__get_cpuid_max(0, nullptr) >= 7) {
    __cpuid_count(7, 0, a, bx, c, d);
    b.avx2 = (bx >> 5) & 1;
    b.avx512f = (bx >> 16) & 1;
    __cpuid_count(7, 1, a, bx, c, d);
    b.avx512_bf16 = (a >> 5) & 1;
  }
#endif
  return b;
}

std::vector<Isa> usable_isas(const CpuidBits& bits) {
  std::vector<Isa> out{Isa::scalar};
  if (bits.sse2) out.push_back(Isa::sse2);
  // XCR0 bits 1-2: SSE and AVX state; 5-7: opmask, upper ZMM0-15, ZMM16-31.
  const bool os_avx = bits.osxsave && (bits.xcr0 & 0x6) == 0x6;
  const bool os_avx512 = os_avx && (bits.xcr0 & 0xE0) == 0xE0;
  if (os_avx && bits.avx && bits.avx2 && bits.fma) out.push_back(Isa::avx2_fma);
  if (os_avx512 && bits.avx512f && bits.fma) out.push_back(Isa::avx512f);
  return out;
}

std::optional<std::string> parse_model_name(std::string_view cpuinfo) {
  for (auto line : text::split(cpuinfo, '\n')) {
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const auto key = text::trim(line.substr(0, colon));
    if (key == "model name" || key == "Model name") return std::string(text::trim(line.substr(colon + 1)));
  }
  return std::nullopt;
}

std::optional<double> parse_max_cpuinfo_mhz(std::string_view cpuinfo) {
  std::optional<double> best;
  for (auto line : text::split(cpuinfo, '\n')) {
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    if (text::trim(line.substr(0, colon)) != "cpu MHz") continue;
    if (auto v = text::parse_double(text::trim(line.substr(colon + 1))); v && *v > 0)
      best = best ? std::max(*best, *v) : *v;
  }
  return best;
}

std::optional<uint64_t> parse_cache_size(std::string_view t) {
  t = text::trim(t);
  uint64_t mult = 1;
  if (!t.empty() && (t.back() == 'K' || t.back() == 'k')) mult = 1024;
  else if (!t.empty() && t.back() == 'M') mult = 1024 * 1024;
  if (mult != 1) t = text::trim(t.substr(0, t.size() - 1));
  auto v = text::parse_uint(t);
  if (!v || *v == 0) return std::nullopt;
  return *v * mult;
}

int count_physical_cores(const std::vector<std::pair<std::string, std::string>>& ids) {
  std::set<std::pair<std::string, std::string>> distinct(ids.begin(), ids.end());
  return std::max<int>(1, static_cast<int>(distinct.size()));
}

CpuFacts read_cpu_facts() {
  CpuFacts f;
  const auto bits = read_cpuid();
  f.isas = usable_isas(bits);
  f.avx512_bf16 = bits.avx512_bf16;
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    for (int i = 0; i < CPU_SETSIZE; ++i)
      if (CPU_ISSET(i, &set)) cpus.push_back(i);
  }
  if (cpus.empty()) {
    const unsigned n = std::max(1u, std::thread::hardware_concurrency());
    for (unsigned i = 0; i < n; ++i) cpus.push_back(static_cast<int>(i));
  }
  f.logical_cpus = static_cast<int>(cpus.size());
  std::vector<std::pair<std::string, std::string>> ids;
  bool topology_ok = true;
  for (int cpu : cpus) {
    const std::string base = "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/";
    auto pkg = os::read_line(base + "physical_package_id");
    auto core = os::read_line(base + "core_id");
    if (!pkg || !core) {
      topology_ok = false;
      break;
    }
    ids.emplace_back(*pkg, *core);
  }
  f.physical_cores = topology_ok ? count_physical_cores(ids) : f.logical_cpus;

  const auto cpuinfo = os::read_file("/proc/cpuinfo");
  if (cpuinfo) f.model = parse_model_name(*cpuinfo).value_or("");
  if (auto khz = os::read_line("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq")) {
    if (auto v = text::parse_double(*khz); v && *v > 0) {
      f.max_mhz = *v / 1000.0;
      f.clock_source = "cpufreq cpuinfo_max_freq";
    }
  }
  if (!f.max_mhz && cpuinfo) {
    f.max_mhz = parse_max_cpuinfo_mhz(*cpuinfo);
    if (f.max_mhz) f.clock_source = "/proc/cpuinfo cpu MHz (what the OS reports; in a VM it can be far from the real clock)";
  }
  std::optional<uint64_t> llc;
  for (int idx = 0; idx < 8; ++idx) {
    const std::string base = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(idx) + "/";
    auto size = os::read_line(base + "size");
    if (!size) continue;
    if (auto bytes = parse_cache_size(*size)) llc = std::max(llc.value_or(0), *bytes);
  }
  f.llc_bytes = llc;
  return f;
}

}  // namespace gpuscout::bench
