// CPU: /proc/cpuinfo for names, sysfs topology for cores, cgroup and affinity for what we may use,
// cpuid+XGETBV (on the real machine) for the SIMD features the OS really enables.
#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#if defined(__x86_64__) || defined(__i386__)
#endif

#include "core/text.hpp"
#include "os/system.hpp"
#include "probe/sources.hpp"
#include "vendor/cpuid.hpp"

namespace gpuscout::probe {
namespace {

void add_error(CpuInfo& cpu, std::string what, std::string message) {
  cpu.errors.push_back(ProbeError{"cpu", std::move(what), std::move(message), std::nullopt});
}

// Arm cores have no "model name"; MIDR implementer/part numbers name them (Arm's TRMs).
std::optional<std::string> arm_core_name(std::string_view implementer, std::string_view part) {
  const auto impl = text::parse_uint(implementer, 16);
  const auto p = text::parse_uint(part, 16);
  if (!impl || !p) return std::nullopt;
  struct Known {
    unsigned impl, part;
    const char* name;
  };
  static constexpr Known known[] = {
      {0x41, 0xd03, "Cortex-A53"},   {0x41, 0xd08, "Cortex-A72"},   {0x41, 0xd0b, "Cortex-A76"},
      {0x41, 0xd0c, "Neoverse-N1"},  {0x41, 0xd40, "Neoverse-V1"},  {0x41, 0xd49, "Neoverse-N2"},
      {0x41, 0xd4f, "Neoverse-V2"},  {0x41, 0xd83, "Neoverse-V3AE"}, {0x41, 0xd84, "Neoverse-V3"},
      {0x41, 0xd8e, "Neoverse-N3"},  {0x41, 0xd42, "Cortex-A78AE"}, {0x41, 0xd4b, "Cortex-A78C"},
      {0x61, 0x022, "Apple M1"},         {0x61, 0x023, "Apple M1"},         {0x4e, 0x004, "NVIDIA Carmel"},
      {0xc0, 0xac3, "Ampere-1"},         {0x48, 0xd01, "HiSilicon Kunpeng-920"},
  };
  for (const auto& k : known)
    if (k.impl == *impl && k.part == *p) return std::string(k.name);
  return fmt::format("Arm CPU (implementer 0x{:02x}, part 0x{:03x})", *impl, *p);
}

}  // namespace

CpuinfoSummary parse_cpuinfo(std::string_view text) {
  CpuinfoSummary s;
  std::set<std::string> sockets;
  std::set<std::pair<std::string, std::string>> cores;
  std::string physical_id;
  bool first_flags_seen = false;
  auto close_block = [&] { physical_id.clear(); };
  for (auto raw : text::split(text, '\n')) {
    const auto line = text::trim(raw);
    if (line.empty()) {
      close_block();
      continue;
    }
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;  // truncated line: skip it, keep the rest
    const auto key = text::trim(line.substr(0, colon));
    const auto value = text::trim(line.substr(colon + 1));
    if (key == "processor") {
      if (text::parse_int(value)) ++s.processors;
    } else if ((key == "vendor_id" || key == "vendor") && !s.vendor && !value.empty()) {
      s.vendor = std::string(value);
    } else if ((key == "model name" || key == "Model Name" || key == "cpu model") && !s.model && !value.empty()) {
      s.model = std::string(value);
    } else if (key == "physical id") {
      physical_id = std::string(value);
      sockets.insert(physical_id);
    } else if (key == "core id") {
      if (!physical_id.empty()) cores.insert({physical_id, std::string(value)});
    } else if ((key == "flags" || key == "Features") && !first_flags_seen) {
      first_flags_seen = true;
      for (auto f : text::split_ws(value)) s.flags.emplace_back(f);
    } else if (key == "cpu family" || key == "model" || key == "stepping") {
      std::optional<int>& target = key == "cpu family" ? s.family : key == "model" ? s.model_number : s.stepping;
      if (const auto n = text::parse_int(value); !target && n && *n >= 0 && *n < 65536) target = static_cast<int>(*n);
    } else if (key == "microcode" && !s.microcode && !value.empty() && value.size() <= 32) {
      s.microcode = text::clean_utf8(value);
    } else if (key == "CPU implementer" && !s.arm_implementer) {
      s.arm_implementer = std::string(value);
    } else if (key == "CPU part" && !s.arm_part) {
      s.arm_part = std::string(value);
    }
  }
  if (!sockets.empty()) s.sockets = static_cast<int>(sockets.size());
  if (!cores.empty()) s.physical_cores = static_cast<int>(cores.size());
  s.hypervisor = std::find(s.flags.begin(), s.flags.end(), "hypervisor") != s.flags.end();
  if (s.model) {
    const auto at = s.model->find('@');
    if (at != std::string::npos) {
      std::string_view rest = text::trim(std::string_view(*s.model).substr(at + 1));
      if (rest.ends_with("GHz")) s.nominal_ghz = text::parse_double(rest.substr(0, rest.size() - 3));
    }
  }
  if (!s.model && s.arm_implementer && s.arm_part) s.model = arm_core_name(*s.arm_implementer, *s.arm_part);
  if (!s.vendor && s.arm_implementer) {
    const auto impl = text::parse_uint(*s.arm_implementer, 16);
    if (impl == 0x41u) s.vendor = "ARM";
    else if (impl == 0x61u) s.vendor = "Apple";
    else if (impl == 0x4eu) s.vendor = "NVIDIA";
    else if (impl == 0xc0u) s.vendor = "Ampere";
    else if (impl == 0x48u) s.vendor = "HiSilicon";
    else s.vendor = "ARM-compatible (implementer " + *s.arm_implementer + ")";
  }
  return s;
}

std::vector<std::string> dl_features_from_flags(const std::vector<std::string>& flags, std::string_view arch) {
  // The kernel's names are kept (avx512_bf16, amx_tile); Arm's asimd is better known as NEON.
  static constexpr std::pair<const char*, const char*> x86[] = {
      {"avx", "avx"},           {"avx2", "avx2"},
      {"fma", "fma"},           {"f16c", "f16c"},
      {"avx512f", "avx512f"},   {"avx512dq", "avx512dq"},
      {"avx512bw", "avx512bw"}, {"avx512vl", "avx512vl"},
      {"avx512_vnni", "avx512_vnni"}, {"avx512_bf16", "avx512_bf16"},
      {"avx512_fp16", "avx512_fp16"}, {"avx_vnni", "avx_vnni"},
      {"amx_tile", "amx_tile"}, {"amx_bf16", "amx_bf16"},
      {"amx_int8", "amx_int8"}, {"amx_fp16", "amx_fp16"},
  };
  static constexpr std::pair<const char*, const char*> arm[] = {
      {"asimd", "neon"}, {"asimdhp", "fp16"}, {"asimddp", "dotprod"}, {"sve", "sve"}, {"sve2", "sve2"},
      {"bf16", "bf16"},  {"i8mm", "i8mm"},    {"sme", "sme"},         {"sme2", "sme2"},
  };
  std::vector<std::string> out;
  const bool is_arm = arch == "aarch64" || arch == "arm64" ||
                      std::find(flags.begin(), flags.end(), "asimd") != flags.end();
  const auto has = [&](const char* f) { return std::find(flags.begin(), flags.end(), f) != flags.end(); };
  if (is_arm) {
    for (const auto& [flag, name] : arm)
      if (has(flag)) out.emplace_back(name);
  } else {
    for (const auto& [flag, name] : x86)
      if (has(flag)) out.emplace_back(name);
  }
  return out;
}

std::optional<double> parse_cgroup_cpu_max(std::string_view text) {
  const auto f = text::split_ws(text::trim(text));
  if (f.size() != 2 || f[0] == "max") return std::nullopt;
  const auto quota = text::parse_double(f[0]);
  const auto period = text::parse_double(f[1]);
  // from_chars reads "inf" and "nan" too: a damaged file must not become an endless quota.
  if (!quota || !period || !std::isfinite(*quota) || !std::isfinite(*period) || *quota <= 0 || *period <= 0)
    return std::nullopt;
  const double cpus = *quota / *period;
  if (!std::isfinite(cpus) || cpus <= 0) return std::nullopt;
  return cpus;
}

std::optional<uint64_t> parse_cache_size(std::string_view s) {
  s = text::trim(s);
  uint64_t scale = 1;
  if (s.ends_with("K")) scale = 1024;
  else if (s.ends_with("M")) scale = 1024 * 1024;
  else if (s.ends_with("G")) scale = 1024ULL * 1024 * 1024;
  if (scale != 1) s.remove_suffix(1);
  const auto v = text::parse_uint(s);
  if (!v) return std::nullopt;
  return *v * scale;
}

CoreCount count_cores(const std::set<std::pair<long long, long long>>& sysfs_ids, const CpuinfoSummary& summary,
                      std::optional<int> logical_cpus, std::optional<int> online_cpus) {
  CoreCount out;
  if (!sysfs_ids.empty()) {
    std::set<long long> packages;
    for (const auto& ids : sysfs_ids) packages.insert(ids.first);
    out.physical_cores = static_cast<int>(sysfs_ids.size());
    out.sockets = static_cast<int>(packages.size());
    return out;
  }
  out.sockets = summary.sockets;
  if (summary.physical_cores && logical_cpus && online_cpus && *online_cpus > 0 && *logical_cpus < *online_cpus) {
    // Affinity narrowed the CPUs: scale cores by the share we may use (SMT pairs assumed even).
    const double ratio = double(*summary.physical_cores) / double(*online_cpus);
    out.physical_cores = std::max(1, static_cast<int>(std::lround(*logical_cpus * ratio)));
  } else if (summary.physical_cores) {
    out.physical_cores = summary.physical_cores;
  } else if (logical_cpus) {
    out.physical_cores = logical_cpus;  // Arm and most VMs' cpuinfo lack core ids: no SMT assumed
  }
  if (!out.sockets && logical_cpus) out.sockets = 1;
  return out;
}

namespace {

/// Which CPUs exist and which we may use: online ∩ affinity (a container or taskset narrows it).
std::vector<int> usable_cpus(CpuInfo& cpu, const CpuinfoSummary& summary) {
  std::optional<std::vector<int>> online;
  if (auto t = os::read_line("/sys/devices/system/cpu/online")) {
    online = text::parse_cpu_list(*t);
    if (!online) add_error(cpu, "/sys/devices/system/cpu/online", "malformed CPU list '" + text::clean_utf8(t->substr(0, 80)) + (t->size() > 80 ? "...'" : "'"));
  }
  std::optional<std::vector<int>> allowed;
  if (auto status = os::read_file("/proc/self/status")) {
    for (auto line : text::split(*status, '\n')) {
      if (!line.starts_with("Cpus_allowed_list:")) continue;
      allowed = text::parse_cpu_list(line.substr(18));
      if (!allowed) add_error(cpu, "/proc/self/status", "malformed Cpus_allowed_list");
      else cpu.allowed_cpus = text::format_cpu_list(*allowed);
    }
  }
  std::vector<int> usable;
  if (online && allowed) {
    std::set_intersection(online->begin(), online->end(), allowed->begin(), allowed->end(), std::back_inserter(usable));
  } else if (online) {
    usable = *online;
  } else if (allowed) {
    usable = *allowed;
  }
  if (online && !online->empty()) cpu.online_cpus = static_cast<int>(online->size());
  else if (summary.processors > 0) cpu.online_cpus = summary.processors;
  if (!usable.empty()) cpu.logical_cpus = static_cast<int>(usable.size());
  else if (summary.processors > 0) cpu.logical_cpus = summary.processors;
  return usable;
}

/// Distinct (package, core) ids sysfs gives for the usable CPUs.
std::set<std::pair<long long, long long>> sysfs_core_ids(const std::vector<int>& usable) {
  std::set<std::pair<long long, long long>> cores;
  for (int c : usable) {
    const std::string base = fmt::format("/sys/devices/system/cpu/cpu{}/topology/", c);
    auto pkg = os::read_line(base + "physical_package_id");
    auto core = os::read_line(base + "core_id");
    if (!pkg || !core) continue;
    const auto p = text::parse_int(*pkg), k = text::parse_int(*core);
    if (p && k) cores.insert({*p, *k});
  }
  return cores;
}

/// cgroup CPU quota: the smallest along the process's own cgroup path (v2 cpu.max; v1's CFS quota and period).
std::optional<double> cgroup_cpu_quota() {
  std::optional<double> smallest;
  for (const auto& file : own_cgroup_files("cpu", "cpu.max", "cpu.cfs_quota_us")) {
    auto t = os::read_line(file);
    if (!t) continue;
    std::optional<double> quota;
    if (file.ends_with("/cpu.max")) quota = parse_cgroup_cpu_max(*t);
    else if (auto period = os::read_line(file.substr(0, file.size() - 8) + "period_us"))  // cpu.cfs_period_us
      quota = parse_cgroup_cpu_max(*t + " " + *period);
    if (quota) smallest = std::min(smallest.value_or(*quota), *quota);
  }
  return smallest;
}

/// Clocks: cpufreq (kHz) where the kernel exposes it; the "@ 2.20GHz" of the model name otherwise.
void read_clocks(CpuInfo& cpu, const std::vector<int>& usable, const CpuinfoSummary& summary) {
  // Hybrid and preferred-core CPUs boost some cores higher: the machine's maximum is the highest of any usable CPU.
  for (int c : usable.empty() ? std::vector<int>{0} : usable) {
    const std::string path = fmt::format("/sys/devices/system/cpu/cpu{}/cpufreq/cpuinfo_max_freq", c);
    auto t = os::read_line(path);
    if (!t) continue;
    if (auto v = text::parse_double(*t); v && *v > 0) cpu.max_mhz = std::max(cpu.max_mhz.value_or(0), *v / 1000.0);
    else add_error(cpu, path, "not a frequency: '" + *t + "'");
  }
  const int first_cpu = usable.empty() ? 0 : usable.front();
  if (auto t = os::read_line(fmt::format("/sys/devices/system/cpu/cpu{}/cpufreq/base_frequency", first_cpu))) {
    if (auto v = text::parse_double(*t); v && *v > 0) cpu.base_mhz = *v / 1000.0;
  }
  if (!cpu.base_mhz && summary.nominal_ghz) cpu.base_mhz = *summary.nominal_ghz * 1000.0;
}

/// Caches of the first usable CPU.
void read_caches(CpuInfo& cpu, int first_cpu) {
  const std::string cache_dir = fmt::format("/sys/devices/system/cpu/cpu{}/cache", first_cpu);
  for (const auto& index : os::list_dir(cache_dir)) {
    if (!index.starts_with("index")) continue;
    const std::string base = cache_dir + "/" + index + "/";
    auto level = os::read_line(base + "level");
    auto type = os::read_line(base + "type");
    auto size = os::read_line(base + "size");
    if (!level || !type || !size) continue;
    const auto l = text::parse_int(*level);
    const auto bytes = parse_cache_size(*size);
    if (!l || !bytes) {
      add_error(cpu, base, "malformed cache description");
      continue;
    }
    CpuCache cache{static_cast<int>(*l), *type, *bytes, std::nullopt};
    if (auto shared = os::read_line(base + "shared_cpu_list"))
      if (auto list = text::parse_cpu_list(*shared)) cache.shared_by_cpus = static_cast<int>(list->size());
    cpu.caches.push_back(std::move(cache));
  }
}

}  // namespace

CpuInfo probe_cpu() {
  CpuInfo cpu;
  cpu.arch = os::sysroot().empty() ? os::machine_arch() : "unknown";
  auto cpuinfo_text = os::read_file("/proc/cpuinfo");
  CpuinfoSummary summary;
  if (cpuinfo_text) {
    summary = parse_cpuinfo(*cpuinfo_text);
    if (!os::sysroot().empty() || cpu.arch == "unknown")
      cpu.arch = summary.arm_implementer ? "aarch64" : (summary.vendor ? "x86_64" : "unknown");
  } else {
    add_error(cpu, "/proc/cpuinfo", cpuinfo_text.error().message);
  }
  cpu.vendor = summary.vendor;
  cpu.model = summary.model;
  cpu.hypervisor = summary.hypervisor;
  cpu.family = summary.family;
  cpu.model_number = summary.model_number;
  cpu.stepping = summary.stepping;
  cpu.microcode = summary.microcode;

  const std::vector<int> usable = usable_cpus(cpu, summary);
  const CoreCount cores = count_cores(sysfs_core_ids(usable), summary, cpu.logical_cpus, cpu.online_cpus);
  cpu.physical_cores = cores.physical_cores;
  cpu.sockets = cores.sockets;
  cpu.cpu_quota = cgroup_cpu_quota();
  read_clocks(cpu, usable, summary);
  read_caches(cpu, usable.empty() ? 0 : usable.front());
  cpu.numa_nodes = probe_numa_nodes(cpu.errors);

  // Features: on the live x86 machine ask the CPU and the OS (cpuid + XGETBV); under a sysroot, or on
  // other architectures, the kernel's flags are the record.
  if (os::sysroot().empty() && (cpu.arch == "x86_64" || cpu.arch == "i686"))
    cpu.features = vendor::cpuid::dl_features(vendor::cpuid::native());
  else
    cpu.features = dl_features_from_flags(summary.flags, cpu.arch);
  if (cpuinfo_text) cpu.cpuinfo_mhz_max = parse_cpuinfo_mhz_max(*cpuinfo_text);
  return cpu;
}

std::optional<double> parse_cpuinfo_mhz_max(std::string_view text) {
  std::optional<double> best;
  for (auto line : text::split(text, '\n')) {
    const auto colon = line.find(':');
    if (colon == std::string_view::npos || text::trim(line.substr(0, colon)) != "cpu MHz") continue;
    // A clock is a positive, finite number below 100 GHz; anything else is a garbled line, skipped.
    const auto v = text::parse_double(line.substr(colon + 1));
    if (v && std::isfinite(*v) && *v > 0 && *v < 100000) best = std::max(best.value_or(0), *v);
  }
  return best;
}

}  // namespace gpuscout::probe
