#include "bench/cpu_facts.hpp"

#include <algorithm>

#include "core/i18n.hpp"

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

std::vector<Isa> usable_isas(std::string_view arch, const std::vector<std::string>& features) {
  const auto has = [&](std::string_view f) { return std::find(features.begin(), features.end(), f) != features.end(); };
  std::vector<Isa> out{Isa::scalar};
  // The kernels are x86-64 code: another architecture runs the scalar loop only.
  if (arch != "x86_64") return out;
  out.push_back(Isa::sse2);
  if (has("avx") && has("avx2") && has("fma")) out.push_back(Isa::avx2_fma);
  if (has("avx512f") && has("fma")) out.push_back(Isa::avx512f);
  return out;
}

CpuFacts cpu_facts(const CpuInfo& cpu) {
  CpuFacts f;
  f.model = cpu.model.value_or("");
  f.logical_cpus = std::max(1, cpu.logical_cpus.value_or(1));
  f.physical_cores = std::max(1, cpu.physical_cores.value_or(f.logical_cpus));
  if (cpu.max_mhz) {
    f.max_mhz = cpu.max_mhz;
    f.clock_source = tr("cpufreq cpuinfo_max_freq, the highest of the usable CPUs");
  } else if (cpu.cpuinfo_mhz_max) {
    f.max_mhz = cpu.cpuinfo_mhz_max;
    f.clock_source = tr("/proc/cpuinfo cpu MHz (what the OS reports; in a VM it can be far from the real clock)");
  } else if (cpu.base_mhz) {
    f.max_mhz = cpu.base_mhz;
    f.clock_source = tr("the base clock (boost can be higher)");
  }
  for (const auto& c : cpu.caches) f.llc_bytes = std::max(f.llc_bytes.value_or(0), c.size_bytes);
  if (f.llc_bytes == 0u) f.llc_bytes.reset();
  f.isas = usable_isas(cpu.arch, cpu.features);
  f.avx512_bf16 = std::find(cpu.features.begin(), cpu.features.end(), "avx512_bf16") != cpu.features.end();
  return f;
}

}  // namespace gpuscout::bench
