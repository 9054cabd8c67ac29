#include "report/doctor_text.hpp"

#include <fmt/format.h>

#include "core/units.hpp"
#include "diagnose/context.hpp"

namespace gpuscout::report {
namespace {

struct Painter {
  bool on;
  std::string bold(std::string_view s) const { return on ? fmt::format("\033[1m{}\033[0m", s) : std::string(s); }
  std::string color(std::string_view s, int code) const {
    return on ? fmt::format("\033[{}m{}\033[0m", code, s) : std::string(s);
  }
};

std::string opt(const std::optional<std::string>& v, std::string_view fallback = "unknown") {
  return v ? *v : std::string(fallback);
}
template <typename T>
std::string optn(const std::optional<T>& v, std::string_view suffix = "") {
  return v ? fmt::format("{}{}", *v, suffix) : std::string("?");
}
std::string bytes(const std::optional<uint64_t>& v) { return v ? units::format_bytes(*v) : std::string("?"); }

}  // namespace

namespace {

void section_cpu(const Inventory& inv, std::string& out) {
  auto line = [&](std::string_view label, std::string_view value) { out += fmt::format("  {:<13}{}\n", label, value); };
  std::string cores = fmt::format("{} physical cores, {} logical CPUs", optn(inv.cpu.physical_cores), optn(inv.cpu.logical_cpus));
  if (inv.cpu.sockets && *inv.cpu.sockets > 1) cores += fmt::format(", {} sockets", *inv.cpu.sockets);
  if (inv.cpu.online_cpus && inv.cpu.logical_cpus && *inv.cpu.online_cpus != *inv.cpu.logical_cpus)
    cores += fmt::format(" (of {} online)", *inv.cpu.online_cpus);
  if (inv.cpu.cpu_quota) cores += fmt::format(", container quota {:.1f} CPUs", *inv.cpu.cpu_quota);
  line("model", fmt::format("{} ({})", opt(inv.cpu.model), inv.cpu.arch));
  line("cores", cores);
  if (inv.cpu.base_mhz || inv.cpu.max_mhz)
    line("clock", fmt::format("{}{}", inv.cpu.base_mhz ? fmt::format("base {:.0f} MHz", *inv.cpu.base_mhz) : "",
                              inv.cpu.max_mhz ? fmt::format("{}max {:.0f} MHz", inv.cpu.base_mhz ? ", " : "", *inv.cpu.max_mhz) : ""));
  if (!inv.cpu.caches.empty()) {
    std::string caches;
    for (const auto& c : inv.cpu.caches) {
      if (!caches.empty()) caches += ", ";
      caches += fmt::format("L{}{} {}", c.level, c.type == "Data" ? "d" : c.type == "Instruction" ? "i" : "",
                            units::format_bytes(c.size_bytes));
    }
    line("caches", caches);
  }
  line("SIMD", inv.cpu.features.empty() ? "none of AVX2/AVX-512/AMX/NEON" : fmt::format("{}", fmt::join(inv.cpu.features, " ")));
}

void section_memory(const Inventory& inv, std::string& out) {
  auto line = [&](std::string_view label, std::string_view value) { out += fmt::format("  {:<13}{}\n", label, value); };
  line("RAM", fmt::format("{} total, {} available", bytes(inv.memory.total_bytes), bytes(inv.memory.available_bytes)));
  if (inv.memory.swap_total_bytes) line("swap", fmt::format("{} total, {} free", bytes(inv.memory.swap_total_bytes), bytes(inv.memory.swap_free_bytes)));
  if (inv.memory.cgroup_limit_bytes) line("limit", fmt::format("{} (container)", units::format_bytes(*inv.memory.cgroup_limit_bytes)));
}

void section_disks(const Inventory& inv, std::string& out) {
  auto line = [&](std::string_view label, std::string_view value) { out += fmt::format("  {:<13}{}\n", label, value); };
  if (inv.disks.empty()) line("", "none found");
  for (const auto& d : inv.disks)
    out += fmt::format("  {:<24} {:>10} total {:>10} free  {}\n", d.mount, units::format_bytes(d.total_bytes),
                       units::format_bytes(d.free_bytes), d.fstype);
}

void section_system(const Inventory& inv, std::string& out) {
  auto line = [&](std::string_view label, std::string_view value) { out += fmt::format("  {:<13}{}\n", label, value); };
  line("OS", fmt::format("{}, kernel {}", opt(inv.os.pretty_name, opt(inv.os.id)), opt(inv.os.kernel)));
  std::string where = inv.platform.kind;
  if (inv.platform.cloud) where += " (" + *inv.platform.cloud + ")";
  if (inv.os.container) where += ", in a " + *inv.os.container + " container";
  if (inv.os.virtualization) where += ", virtualised: " + *inv.os.virtualization;
  if (inv.platform.product_name) where += ", " + *inv.platform.product_name;
  line("platform", where);
}

void section_gpus(const Inventory& inv, std::string& out) {
  auto line = [&](std::string_view label, std::string_view value) { out += fmt::format("  {:<13}{}\n", label, value); };
  if (inv.gpus.empty()) line("", "none found");
  for (const auto& g : inv.gpus) {
    std::string head = fmt::format("  [{}] {} ({})", g.index, g.name, g.vendor);
    if (g.pci_bus_id) head += "  " + *g.pci_bus_id;
    if (g.cuda_index) head += fmt::format("  cuda:{}", *g.cuda_index);
    out += head + "\n";
    std::string mem;
    if (g.memory_total_bytes) {
      mem = units::format_bytes(*g.memory_total_bytes);
      if (g.memory_used_bytes) mem += fmt::format(" ({} used, {} free)", units::format_bytes(*g.memory_used_bytes), bytes(g.memory_free_bytes));
    }
    std::string details;
    if (g.compute_capability) details += fmt::format("compute capability {}", *g.compute_capability);
    if (g.architecture) details += fmt::format("{}{}", details.empty() ? "" : ", ", *g.architecture);
    if (g.sm_count) details += fmt::format(", {} SMs", *g.sm_count);
    if (!mem.empty()) out += fmt::format("      memory {}\n", mem);
    if (!details.empty()) out += fmt::format("      {}\n", details);
    std::string live;
    if (g.temperature_c) live += fmt::format("{} C", *g.temperature_c);
    if (g.power_draw_mw) live += fmt::format("{}{:.0f} W", live.empty() ? "" : ", ", *g.power_draw_mw / 1000.0);
    if (g.power_limit_mw) live += fmt::format(" of {:.0f} W", *g.power_limit_mw / 1000.0);
    if (g.utilization_gpu_pct) live += fmt::format("{}{}% busy", live.empty() ? "" : ", ", *g.utilization_gpu_pct);
    if (g.pcie_gen && g.pcie_width)
      live += fmt::format("{}PCIe gen{} x{}", live.empty() ? "" : ", ", *g.pcie_gen, *g.pcie_width);
    if (g.pcie_gen && g.pcie_width && g.pcie_gen_max && g.pcie_width_max)
      live += fmt::format(" (max gen{} x{})", *g.pcie_gen_max, *g.pcie_width_max);
    if (!live.empty()) out += "      " + live + "\n";
    if (g.kernel_driver) out += fmt::format("      kernel driver {}\n", *g.kernel_driver);
    for (const auto& pr : g.processes)
      out += fmt::format("      process {} {} {}\n", pr.pid, pr.name.value_or(""), pr.used_bytes ? units::format_bytes(*pr.used_bytes) : "");
  }
}

void section_nvidia(const Inventory& inv, std::string& out) {
  auto line = [&](std::string_view label, std::string_view value) { out += fmt::format("  {:<13}{}\n", label, value); };
  if (inv.nvidia.driver_version)
    line("driver", fmt::format("{} (supports CUDA {})", *inv.nvidia.driver_version, opt(inv.nvidia.cuda_driver_version, "?")));
  else if (inv.nvidia.kernel_module_version)
    line("driver", "kernel module " + *inv.nvidia.kernel_module_version);
  else
    line("driver", inv.nvidia.library_found ? "library found, not working" : "not installed");
  if (inv.nvidia.error) line("NVML", fmt::format("{}: {}", inv.nvidia.error->what, inv.nvidia.error->message));
  std::string cuda = inv.cuda.available ? fmt::format("available, {} device(s)", inv.cuda.device_count) : "not available";
  if (inv.cuda.error) cuda += fmt::format(" ({}: {})", inv.cuda.error->what, inv.cuda.error->message);
  line("CUDA", cuda);
  for (const auto& d : inv.cuda.devices)
    out += fmt::format("      cuda:{} {} cc {} {} SMs {} {}-bit\n", d.index, d.name, opt(d.compute_capability, "?"),
                       optn(d.sm_count), bytes(d.total_memory_bytes), optn(d.memory_bus_width_bits));
  line("toolkit", inv.toolkit.nvcc_version ? "nvcc " + *inv.toolkit.nvcc_version : "nvcc not found (not needed for PyTorch wheels)");
  if (inv.toolkit.cudnn_version) line("cuDNN", *inv.toolkit.cudnn_version);
}

void section_python(const Inventory& inv, std::string& out) {
  auto line = [&](std::string_view label, std::string_view value) { out += fmt::format("  {:<13}{}\n", label, value); };
  if (!inv.python.probed) line("", "not checked (--no-python)");
  else {
    line("python", inv.python.version ? fmt::format("{} ({})", *inv.python.version, opt(inv.python.executable)) : "not found");
    if (inv.torch) {
      const auto& t = *inv.torch;
      line("torch", fmt::format("{}, built with {}", t.version, t.cuda ? "CUDA " + *t.cuda : t.hip ? "ROCm " + *t.hip : "no CUDA (CPU build)"));
      line("cuda", fmt::format("is_available() = {}, device_count() = {}", t.cuda_available ? "True" : "False", t.device_count));
      if (!t.arch_list.empty()) line("arch list", fmt::format("{}", fmt::join(t.arch_list, " ")));
      if (t.cudnn_version) line(t.hip ? "MIOpen" : "cuDNN", *t.cudnn_version);
    } else if (inv.python.error) {
      line("torch", inv.python.error->message);
    } else if (inv.python.version) {
      line("torch", "not installed");
    }
    if (const auto why = diagnose::python_choice_phrase(inv.python); !why.empty()) line("chosen", why);
    for (const auto& o : inv.python.others)
      line("also", fmt::format("{} (Python {}) has torch {}", o.executable, opt(o.version), o.torch_version));
  }
}

}  // namespace

std::string render_inventory_text(const Inventory& inv, const TextStyle& style) {
  const Painter p{style.color};
  std::string out;
  using Section = void (*)(const Inventory&, std::string&);
  const std::pair<const char*, Section> sections[] = {
      {"CPU", &section_cpu},
      {"Memory", &section_memory},
      {"Disks", &section_disks},
      {"System", &section_system},
      {"GPUs", &section_gpus},
      {"NVIDIA", &section_nvidia},
      {"Python", &section_python},
  };
  for (const auto& [title, write] : sections) {
    out += p.bold(title) + "\n";
    write(inv, out);
  }
  return out;
}

std::string render_verdict_text(const diagnose::Verdict& v, const TextStyle& style) {
  const Painter p{style.color};
  std::string out;
  const int color = v.status == "ready" ? 32 : v.status == "cpu-only" ? 33 : 31;
  const char* meaning = v.status == "ready" ? "a GPU is ready for PyTorch"
                        : v.status == "cpu-only" ? "no GPU that PyTorch can use: PyTorch runs on the CPU"
                                                 : "something to fix or install first";
  out += fmt::format("{} {}  ({}; use device \"{}\")\n", p.bold("Verdict:"), p.color(v.status, color), meaning, v.device);
  for (const auto& f : v.findings) {
    const int c = f.severity == "error" ? 31 : f.severity == "warning" ? 33 : 36;
    out += fmt::format("  {} [{}] {}\n", p.color(f.severity, c), f.code, f.message);
    out += fmt::format("      fix: {}\n", f.fix);
  }
  if (v.pip_install) out += fmt::format("  PyTorch for this machine: {}\n", *v.pip_install);
  else if (v.torch_fits) out += "  PyTorch for this machine: the installed one fits, nothing to install\n";
  return out;
}

}  // namespace gpuscout::report
