#include "report/doctor_text.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/i18n.hpp"
#include "core/text.hpp"
#include "core/units.hpp"
#include "diagnose/context.hpp"
#include "report/plan_words.hpp"

namespace gpuscout::report {
namespace {

struct Painter {
  bool on;
  std::string bold(std::string_view s) const { return on ? fmt::format("\033[1m{}\033[0m", s) : std::string(s); }
  std::string color(std::string_view s, int code) const {
    return on ? fmt::format("\033[{}m{}\033[0m", code, s) : std::string(s);
  }
};

std::string opt(const std::optional<std::string>& v, std::string_view fallback = "") {
  return v ? *v : fallback.empty() ? std::string(tr("unknown")) : std::string(fallback);
}
template <typename T>
std::string optn(const std::optional<T>& v, std::string_view suffix = "") {
  return v ? fmt::format("{}{}", *v, suffix) : std::string("?");
}
std::string bytes(const std::optional<uint64_t>& v) { return v ? units::format_bytes(*v) : std::string("?"); }

}  // namespace

namespace {

/// "2 nodes: 0 (CPUs 0-15, 63.8 GiB), 1 (CPUs 16-31, 64.0 GiB); this process: CPUs 0-15"
std::string numa_line(const CpuInfo& cpu) {
  std::string nodes;
  for (const auto& n : cpu.numa_nodes) {
    if (!nodes.empty()) nodes += ", ";
    nodes += trf("{} (CPUs {}, {})", n.node, n.cpus.empty() ? "-" : n.cpus, bytes(n.memory_total_bytes));
  }
  std::string out = trf("{} nodes: {}", cpu.numa_nodes.size(), nodes);
  if (cpu.allowed_cpus) out += trf("; this process: CPUs {}", *cpu.allowed_cpus);
  return out;
}

void section_cpu(const Inventory& inv, bool detail, std::string& out) {
  auto line = [&](std::string_view label, std::string_view value) { out += fmt::format("  {:<13}{}\n", label, value); };
  std::string cores = trf("{} physical cores, {} logical CPUs", optn(inv.cpu.physical_cores), optn(inv.cpu.logical_cpus));
  if (inv.cpu.sockets && *inv.cpu.sockets > 1) cores += trf(", {} sockets", *inv.cpu.sockets);
  if (inv.cpu.online_cpus && inv.cpu.logical_cpus && *inv.cpu.online_cpus != *inv.cpu.logical_cpus)
    cores += trf(" (of {} online)", *inv.cpu.online_cpus);
  if (inv.cpu.cpu_quota) cores += trf(", container quota {:.1f} CPUs", *inv.cpu.cpu_quota);
  line(tr("model"), fmt::format("{} ({})", opt(inv.cpu.model), inv.cpu.arch));
  line(tr("cores"), cores);
  if (!detail) return;  // NUMA, clocks, caches and SIMD flags: `info`
  if (inv.cpu.numa_nodes.size() > 1) line("NUMA", numa_line(inv.cpu));
  if (inv.cpu.family && inv.cpu.model_number)
    line(tr("family"), trf("{}, model {}, stepping {}, microcode {}", *inv.cpu.family, *inv.cpu.model_number,
                           inv.cpu.stepping ? std::to_string(*inv.cpu.stepping) : "?", opt(inv.cpu.microcode, "?")));
  if (inv.cpu.base_mhz || inv.cpu.max_mhz)
    line(tr("clock"), fmt::format("{}{}", inv.cpu.base_mhz ? trf("base {:.0f} MHz", *inv.cpu.base_mhz) : "",
                              inv.cpu.max_mhz ? trf("{}max {:.0f} MHz", inv.cpu.base_mhz ? ", " : "", *inv.cpu.max_mhz) : ""));
  if (!inv.cpu.caches.empty()) {
    std::string caches;
    for (const auto& c : inv.cpu.caches) {
      if (!caches.empty()) caches += ", ";
      caches += fmt::format("L{}{} {}", c.level, c.type == "Data" ? "d" : c.type == "Instruction" ? "i" : "",
                            units::format_bytes(c.size_bytes));
    }
    line(tr("caches"), caches);
  }
  line("SIMD", inv.cpu.features.empty() ? std::string(tr("none of AVX2/AVX-512/AMX/NEON")) : fmt::format("{}", fmt::join(inv.cpu.features, " ")));
}

void section_memory(const Inventory& inv, bool, std::string& out) {
  auto line = [&](std::string_view label, std::string_view value) { out += fmt::format("  {:<13}{}\n", label, value); };
  line(tr("RAM"), trf("{} total, {} available", bytes(inv.memory.total_bytes), bytes(inv.memory.available_bytes)));
  if (inv.memory.swap_total_bytes) line(tr("swap"), trf("{} total, {} free", bytes(inv.memory.swap_total_bytes), bytes(inv.memory.swap_free_bytes)));
  if (inv.memory.cgroup_limit_bytes) line(tr("limit"), trf("{} (container)", units::format_bytes(*inv.memory.cgroup_limit_bytes)));
  if (inv.memory.shm_total_bytes)
    line("/dev/shm", trf("{} total, {} free", units::format_bytes(*inv.memory.shm_total_bytes), bytes(inv.memory.shm_available_bytes)));
}

void section_disks(const Inventory& inv, bool, std::string& out) {
  auto line = [&](std::string_view label, std::string_view value) { out += fmt::format("  {:<13}{}\n", label, value); };
  if (inv.disks.empty()) line("", tr("none found"));
  for (const auto& d : inv.disks)
    out += trf("  {:<24} {:>10} total {:>10} used {:>10} free  {}\n", d.mount, units::format_bytes(d.total_bytes),
               d.used_bytes ? units::format_bytes(*d.used_bytes) : std::string("?"), units::format_bytes(d.free_bytes),
               d.fstype);
}

void section_system(const Inventory& inv, bool, std::string& out) {
  auto line = [&](std::string_view label, std::string_view value) { out += fmt::format("  {:<13}{}\n", label, value); };
  line(tr("OS"), trf("{}, kernel {}", opt(inv.os.pretty_name, opt(inv.os.id)), opt(inv.os.kernel)));
  std::string where = platform_word(inv.platform.kind);
  if (inv.platform.cloud) where += " (" + *inv.platform.cloud + ")";
  if (inv.os.container) where += trf(", in a {} container", *inv.os.container);
  if (inv.os.virtualization) where += trf(", virtualised: {}", *inv.os.virtualization);
  if (inv.platform.product_name) where += ", " + *inv.platform.product_name;
  line(tr("platform"), where);
}

void section_gpus(const Inventory& inv, bool detail, std::string& out) {
  auto line = [&](std::string_view label, std::string_view value) { out += fmt::format("  {:<13}{}\n", label, value); };
  if (inv.gpus.empty()) line("", tr("none found"));
  for (const auto& g : inv.gpus) {
    std::string head = fmt::format("  [{}] {} ({})", g.index, g.name, g.vendor);
    if (g.pci_bus_id) head += "  " + *g.pci_bus_id;
    if (g.cuda_index) head += fmt::format("  cuda:{}", *g.cuda_index);
    out += head + "\n";
    std::string mem;
    if (g.memory_total_bytes) {
      mem = units::format_bytes(*g.memory_total_bytes);
      if (g.memory_used_bytes) mem += trf(" ({} used, {} free)", units::format_bytes(*g.memory_used_bytes), bytes(g.memory_free_bytes));
    }
    std::string details;
    if (g.compute_capability) details += trf("compute capability {}", *g.compute_capability);
    if (g.architecture) details += fmt::format("{}{}", details.empty() ? "" : ", ", *g.architecture);
    if (g.sm_count) details += trf(", {} SMs", *g.sm_count);
    if (!mem.empty()) out += trf("      memory {}\n", mem);
    if (!details.empty()) out += fmt::format("      {}\n", details);
    std::string live;
    if (g.temperature_c) live += fmt::format("{} C", *g.temperature_c);
    if (g.power_draw_mw) live += fmt::format("{}{:.0f} W", live.empty() ? "" : ", ", *g.power_draw_mw / 1000.0);
    if (g.power_limit_mw) live += trf(" of {:.0f} W", *g.power_limit_mw / 1000.0);
    if (g.utilization_gpu_pct) live += trf("{}{}% busy", live.empty() ? "" : ", ", *g.utilization_gpu_pct);
    if (g.pcie_gen && g.pcie_width)
      live += fmt::format("{}PCIe gen{} x{}", live.empty() ? "" : ", ", *g.pcie_gen, *g.pcie_width);
    if (g.pcie_gen && g.pcie_width && g.pcie_gen_max && g.pcie_width_max)
      live += trf(" (max gen{} x{})", *g.pcie_gen_max, *g.pcie_width_max);
    if (!live.empty()) out += "      " + live + "\n";
    if (g.kernel_driver) out += trf("      kernel driver {}\n", *g.kernel_driver);
    if (g.numa_node && inv.cpu.numa_nodes.size() > 1) out += trf("      NUMA node {}\n", *g.numa_node);
    if (!detail) continue;
    for (const auto& pr : g.processes)
      out += trf("      process {} {} {}\n", pr.pid, pr.name.value_or(""), pr.used_bytes ? units::format_bytes(*pr.used_bytes) : "");
  }
}

void section_nvidia(const Inventory& inv, bool detail, std::string& out) {
  auto line = [&](std::string_view label, std::string_view value) { out += fmt::format("  {:<13}{}\n", label, value); };
  if (inv.nvidia.driver_version)
    line(tr("driver"), trf("{} (supports CUDA {})", *inv.nvidia.driver_version, opt(inv.nvidia.cuda_driver_version, "?")));
  else if (inv.nvidia.kernel_module_version)
    line(tr("driver"), trf("kernel module {}", *inv.nvidia.kernel_module_version));
  else
    line(tr("driver"), inv.nvidia.library_found ? tr("library found, not working") : tr("not installed"));
  // The libraries' own words (dlopen messages, NVML error strings) are for `info` and --json, not the first screen.
  if (detail && inv.nvidia.error) line("NVML", fmt::format("{}: {}", inv.nvidia.error->what, inv.nvidia.error->message));
  std::string cuda = inv.cuda.available ? trf("available, {} device(s)", inv.cuda.device_count) : std::string(tr("not available"));
  if (detail && inv.cuda.error) cuda += fmt::format(" ({}: {})", inv.cuda.error->what, inv.cuda.error->message);
  line("CUDA", cuda);
  for (const auto& d : inv.cuda.devices)
    out += trf("      cuda:{} {} cc {} {} SMs {} {}-bit\n", d.index, d.name, opt(d.compute_capability, "?"),
                       optn(d.sm_count), bytes(d.total_memory_bytes), optn(d.memory_bus_width_bits));
  line(tr("toolkit"), inv.toolkit.nvcc_version ? "nvcc " + *inv.toolkit.nvcc_version
                                             : std::string(tr("nvcc not found (not needed for PyTorch wheels)")));
  if (inv.toolkit.cudnn_version) line("cuDNN", *inv.toolkit.cudnn_version);
}

void section_python(const Inventory& inv, bool detail, std::string& out) {
  auto line = [&](std::string_view label, std::string_view value) { out += fmt::format("  {:<13}{}\n", label, value); };
  if (!inv.python.probed) line("", tr("not checked (--no-python)"));
  else {
    line("Python", inv.python.version ? fmt::format("{} ({})", *inv.python.version, opt(inv.python.executable)) : std::string(tr("not found")));
    if (inv.torch) {
      const auto& t = *inv.torch;
      line("torch", trf("{}, built with {}", t.version, t.cuda ? "CUDA " + *t.cuda : t.hip ? "ROCm " + *t.hip : std::string(tr("no CUDA (CPU build)"))));
      line("torch.cuda", fmt::format("is_available() = {}, device_count() = {}", t.cuda_available ? "True" : "False", t.device_count));
      if (detail && !t.arch_list.empty()) line(tr("arch list"), fmt::format("{}", fmt::join(t.arch_list, " ")));
      if (t.cudnn_version) line(t.hip ? "MIOpen" : "cuDNN", *t.cudnn_version);
    } else if (inv.python.error) {
      line("torch", detail ? inv.python.error->message : std::string(tr("cannot be imported (details: `gpuscout info`)")));
    } else if (inv.python.version) {
      line("torch", tr("not installed"));
    }
    if (const auto why = diagnose::python_choice_phrase(inv.python); !why.empty()) line(tr("chosen"), why);
    for (const auto& o : inv.python.others)
      line(tr("also"), trf("{} (Python {}) has torch {}", o.executable, opt(o.version), o.torch_version));
  }
}

/// The recorded variables that are set, as a shell would write them (an empty value as ""); long values (a
/// LD_LIBRARY_PATH) cut for the screen, whole in --json.
void section_environment(const Inventory& inv, bool, std::string& out) {
  constexpr size_t kShownBytes = 160;
  for (const auto& [name, value] : *inv.environment) {
    const std::string_view shown = text::cut_utf8(value, kShownBytes);
    out += fmt::format("  {}={}{}\n", name, value.empty() ? "\"\"" : std::string(shown),
                       shown.size() < value.size() ? "..." : "");
  }
}

}  // namespace

std::string render_inventory_text(const Inventory& inv, const TextStyle& style) {
  const Painter p{style.color};
  std::string out;
  using Section = void (*)(const Inventory&, bool, std::string&);
  const std::pair<const char*, Section> sections[] = {
      {N_("CPU"), &section_cpu},       {N_("Memory"), &section_memory}, {N_("Disks"), &section_disks},
      {N_("System"), &section_system}, {N_("GPUs"), &section_gpus},     {N_("NVIDIA"), &section_nvidia},
      {N_("Python"), &section_python},
  };
  for (const auto& [title, write] : sections) {
    out += p.bold(tr(title)) + "\n";
    write(inv, style.detail, out);
  }
  // Only in `info`, and only when something is set: most machines set none of these.
  if (style.detail && inv.environment && !inv.environment->empty()) {
    out += p.bold(tr("Environment")) + "\n";
    section_environment(inv, style.detail, out);
  }
  return out;
}

std::string render_finding_text(const Finding& f, const TextStyle& style) {
  const Painter p{style.color};
  const size_t width = style.width < 40 ? 40 : style.width;
  const int c = f.severity == "error" ? 31 : f.severity == "warning" ? 33 : 36;
  // Wrapped as plain text, then the first words are painted: colour codes take no columns.
  const std::string severity = severity_word(f.severity);
  const std::string head = fmt::format("  {} [{}] ", severity, f.code);
  std::string out = fmt::format("  {} [{}] ", p.color(severity, c), f.code) +
                    text::wrap(f.message, width, std::string(4, ' '), text::display_width(head));
  // An info finding's fix is a suggestion, not a repair (zh: 建议, not 解决).
  const std::string fix_head = fmt::format("      {} ", f.severity == "info" ? tr("suggestion:") : tr("fix:"));
  return out + fix_head + text::wrap(f.fix, width, std::string(text::display_width(fix_head), ' '),
                                     text::display_width(fix_head));
}

std::string render_first_screen(const diagnose::Verdict& v, const TextStyle& style) {
  const Painter p{style.color};
  const size_t width = style.width < 40 ? 40 : style.width;
  const FirstScreen screen = first_screen(v);
  std::string out = p.bold(text::wrap(screen.headline, width, "", 0));
  if (!out.empty() && out.back() == '\n') out.pop_back();
  out += "\n";
  // The command stays on one line, whatever the width: a beginner copies it whole.
  if (!screen.command.empty()) out += "  " + screen.command + "\n";
  if (!screen.todo.empty()) out += "  " + text::wrap(screen.todo, width, "  ", 2);
  if (!screen.then.empty()) out += screen.then + "\n";
  return out;
}

std::string render_steps_text(const diagnose::Plan& plan, const TextStyle& style) {
  const size_t width = style.width < 40 ? 40 : style.width;
  if (steps_to_take(plan) == 0) return {};
  std::string out = std::string(tr("Steps:")) + "\n";
  size_t n = 0;
  for (const auto& s : plan.steps) {
    const std::string head = fmt::format("  {}. ", ++n);
    std::string words = s.action;
    if (const auto needs = step_needs(s); !needs.empty()) words += " " + needs;
    out += head + text::wrap(words, width, std::string(head.size(), ' '), head.size());
    if (!s.command.empty()) out += std::string(head.size() + 2, ' ') + s.command + "\n";
  }
  return out;
}

std::string render_verdict_text(const diagnose::Verdict& v, const TextStyle& style) {
  const Painter p{style.color};
  const size_t width = style.width < 40 ? 40 : style.width;
  std::string out = render_first_screen(v, style) + "\n";
  const int color = v.status == "ready" ? 32 : v.status == "cpu-only" ? 33 : 31;
  const char* meaning = v.status == "ready" ? tr("a GPU is ready for PyTorch")
                        : v.status == "cpu-only" ? tr("no GPU that PyTorch can use: PyTorch runs on the CPU")
                                                 : tr("something to fix or install first");
  // Each block is wrapped as plain text, then its first words are painted: colour codes take no columns.
  const auto block = [&](const std::string& plain_head, const std::string& painted_head, std::string_view body,
                         size_t indent) {
    return painted_head + text::wrap(body, width, std::string(indent, ' '), text::display_width(plain_head));
  };
  const std::string verdict_label = tr("Verdict:");
  const std::string status = status_word(v.status);
  // The device only where it is the answer: "use cpu" on a machine one step from its GPU reads as "give up".
  const std::string body = v.status == "ready" ? trf("({}; use device \"{}\")", meaning, v.device)
                                               : fmt::format("({})", meaning);
  out += block(fmt::format("{} {}  ", verdict_label, status),
               fmt::format("{} {}  ", p.bold(verdict_label), p.color(status, color)), body, 2);
  for (const auto& f : v.findings) out += render_finding_text(f, style);
  out += render_steps_text(v.plan, style);
  const bool torch_step = std::any_of(v.plan.steps.begin(), v.plan.steps.end(),
                                      [](const diagnose::Step& s) { return s.kind == "torch"; });
  if (v.torch_fits && !torch_step) out += tr("  PyTorch for this machine: the installed one fits, nothing to install\n");
  return out;
}

}  // namespace gpuscout::report
