#include "report/markdown.hpp"
#include "report/plan_words.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/i18n.hpp"
#include <fmt/ranges.h>

#include "core/units.hpp"
#include "core/text.hpp"

// Plain GitHub-flavoured Markdown, no <details> wrapper: headings, tables and lists render on GitHub, GitLab,
// Discourse (discuss.pytorch.org), Stack Overflow and Reddit alike and stay readable where nothing renders,
// while raw HTML shows as literal tags wherever a site does not allow it. The block is short enough not to need
// folding, and the verdict should be seen without a click.
namespace gpuscout::report {
namespace {

using Row = std::pair<std::string, std::string>;  // label, value (unescaped)

constexpr const char* kNotProbed = N_("not probed (--no-python)");

std::string gib(uint64_t bytes) { return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / units::GiB); }

std::string reason(std::string_view absent, const std::optional<ProbeError>& error) {
  if (!error) return std::string(absent);
  return fmt::format("{} ({}: {})", absent, error->what, error->message);
}
std::string reason(std::string_view absent, const std::vector<ProbeError>& errors) {
  return errors.empty() ? std::string(absent) : reason(absent, std::optional<ProbeError>(errors.front()));
}

std::string table_row(const std::vector<std::string>& cells) {
  std::string out = "|";
  for (const auto& c : cells) out += " " + escape_markdown(c) + " |";
  return out + "\n";
}

std::string table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
  std::string out = table_row(header) + "|";
  for (size_t i = 0; i < header.size(); ++i) out += "---|";
  out += "\n";
  for (const auto& r : rows) out += table_row(r);
  return out + "\n";
}

/// A fenced block longer than any run of backticks inside, so the text cannot close it.
std::string code_block(std::string_view code) {
  size_t run = 0;
  size_t longest = 0;
  for (const char c : code) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(std::max<size_t>(3, longest + 1), '`');
  return fmt::format("{}sh\n{}\n{}\n\n", fence, code, fence);
}

// ---- the versions table ----

std::string os_value(const OsInfo& os) {
  if (os.pretty_name) return *os.pretty_name;
  if (os.id) return fmt::format("{} {}", *os.id, os.version_id.value_or(""));
  return reason(tr("not found"), os.errors);
}

std::string isolation_value(const OsInfo& os) {
  std::vector<std::string> parts;
  if (os.wsl) parts.emplace_back("WSL2");
  if (os.container) parts.push_back(trf("container: {}", *os.container));
  if (os.virtualization && *os.virtualization != "wsl") parts.push_back("VM: " + *os.virtualization);
  return parts.empty() ? tr("none detected (bare metal)") : fmt::format("{}", fmt::join(parts, ", "));
}

std::string platform_value(const PlatformInfo& p) {
  std::string out = platform_word(p.kind);
  if (p.notebook) out += trf(", {} notebook", *p.notebook);
  if (p.cloud) out += trf(", cloud {}", *p.cloud);
  if (p.system_vendor || p.product_name)
    out += fmt::format(" ({}{}{})", p.system_vendor.value_or(""), p.system_vendor && p.product_name ? " " : "",
                       p.product_name.value_or(""));
  return out;
}

std::string count(const std::optional<int>& n) { return n ? std::to_string(*n) : "?"; }

std::string cpu_value(const CpuInfo& cpu) {
  std::string out = trf("{}, {} cores / {} threads ({})", cpu.model.value_or(tr("unknown model")),
                                count(cpu.physical_cores), count(cpu.logical_cpus), cpu.arch);
  if (cpu.cpu_quota) out += trf(", container quota {:.1f} CPUs", *cpu.cpu_quota);
  return out;
}

std::string ram_value(const MemoryInfo& mem) {
  if (!mem.total_bytes) return reason(tr("not found"), mem.errors);
  std::string out = gib(*mem.total_bytes);
  if (mem.cgroup_limit_bytes) out += trf(" (container limit {})", gib(*mem.cgroup_limit_bytes));
  return out;
}

std::string driver_value(const NvidiaInfo& nv) {
  if (nv.driver_version) {
    if (nv.kernel_module_version && *nv.kernel_module_version != *nv.driver_version)
      return trf("{} (kernel module {})", *nv.driver_version, *nv.kernel_module_version);
    return *nv.driver_version;
  }
  if (nv.kernel_module_version)
    return reason(trf("kernel module {}, NVML not working", *nv.kernel_module_version), nv.error);
  return reason(tr("not found"), nv.error);
}

std::string driver_cuda_value(const Inventory& inv) {
  if (inv.nvidia.cuda_driver_version) return *inv.nvidia.cuda_driver_version;
  if (inv.cuda.driver_version) return *inv.cuda.driver_version;
  return tr("n/a (no NVIDIA driver)");
}

std::string cuda_api_value(const CudaInfo& cuda) {
  if (cuda.available) return trf("works, {} device(s)", cuda.device_count);
  return reason(cuda.library_found ? tr("not working") : tr("libcuda.so.1 not found"), cuda.error);
}

std::string nvcc_value(const ToolkitInfo& tk) {
  if (!tk.nvcc_version) return reason(tr("not found (PyTorch wheels do not need it)"), tk.errors);
  return tk.nvcc_path ? fmt::format("{} ({})", *tk.nvcc_version, *tk.nvcc_path) : *tk.nvcc_version;
}

std::string python_value(const PythonInfo& py) {
  if (!py.probed) return std::string(tr(kNotProbed));
  if (!py.version) return reason(tr("not found"), py.error);
  return py.executable ? fmt::format("{} ({})", *py.version, *py.executable) : *py.version;
}

}  // namespace

std::string other_python(const OtherPython& o) {
  return trf("{} (Python {}): torch {}, {}", o.executable, o.version.value_or("?"), o.torch_version,
             o.torch_cuda ? "CUDA " + *o.torch_cuda : std::string(tr("CPU build")));
}

namespace {

/// Why there is no TorchInfo.
std::string torch_absent(const PythonInfo& py) {
  if (!py.probed) return std::string(tr(kNotProbed));
  if (!py.version) return tr("n/a (no Python)");
  if (py.error) return reason(tr("not importable"), py.error);
  return tr("not installed");
}

std::string torch_built_with(const TorchInfo& t) {
  if (t.cuda) return "CUDA " + *t.cuda;
  if (t.hip) return trf("ROCm (HIP {})", *t.hip);
  return tr("CPU build (no CUDA)");
}

std::string torch_available(const TorchInfo& t) {
  return t.cuda_available ? fmt::format("True ({} device(s))", t.device_count) : "False";
}

/// What decides PyTorch's speed on the CPU: threads, BLAS, SIMD kernels, a debug build. Only facts the probe got.
void add_torch_cpu_rows(const TorchInfo& t, std::vector<Row>& rows) {
  if (t.num_threads)
    rows.emplace_back(tr("PyTorch CPU threads"),
                      t.num_interop_threads ? trf("{} (inter-op {})", *t.num_threads, *t.num_interop_threads)
                                            : std::to_string(*t.num_threads));
  if (t.blas) rows.emplace_back(tr("PyTorch BLAS"), t.lapack ? trf("{} (LAPACK {})", *t.blas, *t.lapack) : *t.blas);
  if (t.cpu_capability) rows.emplace_back(tr("PyTorch CPU kernels"), *t.cpu_capability);
  if (t.debug) rows.emplace_back(tr("PyTorch debug build"), *t.debug ? tr("yes (slow)") : trc("yes/no", "no"));
}

/// The Python side beside torch: its build, its C library, the packages that travel with torch.
void add_python_rows(const PythonInfo& py, std::vector<Row>& rows) {
  if (py.build) rows.emplace_back(tr("Python build"), py.implementation ? *py.implementation + " " + *py.build : *py.build);
  if (py.libc) rows.emplace_back(tr("C library (Python)"), *py.libc);
  if (py.packages.empty()) return;
  std::vector<std::string> parts;
  for (const auto& p : py.packages) parts.push_back(p.name + " " + p.version);
  rows.emplace_back(tr("Python packages"), text::join(parts, ", "));
}

void add_torch_rows(const Inventory& inv, std::vector<Row>& rows) {
  rows.emplace_back("PyTorch", inv.torch ? inv.torch->version : torch_absent(inv.python));
  if (!inv.torch) {
    // The interpreter chosen has none: the ones that have it, so a helper can say which to use (--python PATH).
    for (const auto& other : inv.python.others) rows.emplace_back(tr("PyTorch in another Python"), other_python(other));
    for (const char* label :
         {tr("PyTorch built with"), tr("cuDNN PyTorch uses"), "torch.cuda.is_available()", tr("PyTorch arch list")})
      rows.emplace_back(label, "n/a");
    return;
  }
  const TorchInfo& t = *inv.torch;
  rows.emplace_back(tr("PyTorch built with"), torch_built_with(t));
  rows.emplace_back(t.hip ? tr("MIOpen PyTorch uses") : tr("cuDNN PyTorch uses"), t.cudnn_version.value_or("n/a"));
  rows.emplace_back("torch.cuda.is_available()", torch_available(t));
  rows.emplace_back(tr("PyTorch arch list"),
                    t.arch_list.empty() ? "n/a" : fmt::format("{}", fmt::join(t.arch_list, " ")));
  add_torch_cpu_rows(t, rows);
}

std::vector<Row> version_rows(const Inventory& inv) {
  std::vector<Row> rows = {
      {"gpuscout", inv.gpuscout_version.empty() ? tr("unknown") : inv.gpuscout_version},
      {"OS", os_value(inv.os)},
      {tr("kernel"), inv.os.kernel.value_or(tr("not found"))},
      {tr("container / VM / WSL"), isolation_value(inv.os)},
      {tr("platform"), platform_value(inv.platform)},
      {"CPU", cpu_value(inv.cpu)},
      {"RAM", ram_value(inv.memory)},
      {tr("NVIDIA driver"), driver_value(inv.nvidia)},
      {tr("CUDA the driver supports"), driver_cuda_value(inv)},
      {tr("CUDA driver API"), cuda_api_value(inv.cuda)},
      {tr("CUDA toolkit (nvcc)"), nvcc_value(inv.toolkit)},
      {tr("cuDNN (system)"), inv.toolkit.cudnn_version.value_or(tr("not found"))},
      {"Python", python_value(inv.python)},
  };
  add_python_rows(inv.python, rows);
  add_torch_rows(inv, rows);
  if (inv.hostname) rows.emplace_back(tr("hostname"), *inv.hostname);  // only there with include_private
  return rows;
}

std::string versions_section(const Inventory& inv) {
  std::vector<std::vector<std::string>> rows;
  for (auto& [label, value] : version_rows(inv)) rows.push_back({std::move(label), std::move(value)});
  return table({tr("component"), tr("version")}, rows);
}

std::string torch_warnings_section(const Inventory& inv) {
  if (!inv.torch || inv.torch->warnings.empty()) return "";
  std::string out = tr("PyTorch warned:\n\n");
  for (const auto& w : inv.torch->warnings) out += "- " + escape_markdown(w) + "\n";
  return out + "\n";
}

// ---- the GPU table ----

std::string capability_value(const Gpu& g) {
  if (!g.compute_capability) return "n/a";
  return g.architecture ? fmt::format("{} ({})", *g.compute_capability, *g.architecture) : *g.compute_capability;
}

std::vector<std::string> gpu_row(const Gpu& g, bool with_uuid) {
  std::vector<std::string> row = {std::to_string(g.index),
                                  g.name,
                                  g.vendor,
                                  capability_value(g),
                                  g.memory_total_bytes ? gib(*g.memory_total_bytes) : "n/a",
                                  g.cuda_index ? fmt::format("cuda:{}", *g.cuda_index) : "n/a",
                                  g.kernel_driver.value_or(tr("none")),
                                  g.pci_bus_id.value_or("n/a")};
  if (with_uuid) row.push_back(g.uuid.value_or("n/a"));
  return row;
}

std::string gpus_section(const Inventory& inv, bool with_uuid) {
  if (inv.gpus.empty())
    return trf("**No GPU found**: {}.\n\n",
                       escape_markdown(reason(tr("PyTorch can only use the CPU on this machine"), inv.pci_errors)));
  std::vector<std::string> header = {"#",    "GPU",           tr("vendor"),    tr("compute capability"),
                                     tr("memory"), tr("CUDA device"), tr("kernel driver"), tr("PCI bus id")};
  if (with_uuid) header.emplace_back("UUID");
  std::vector<std::vector<std::string>> rows;
  for (const auto& g : inv.gpus) rows.push_back(gpu_row(g, with_uuid));
  return table(header, rows);
}

// ---- the verdict ----

template <typename Say>
std::string verdict_section(const diagnose::Verdict& v, const Say& say) {
  std::string out = trf("**Verdict: {}**, device for training scripts: {}\n\n", escape_markdown(status_word(v.status)),
                                escape_markdown(v.device));
  if (v.findings.empty()) out += tr("- no findings\n");
  for (const auto& f : v.findings) {
    out += fmt::format("- **{}** {}: {}\n", escape_markdown(severity_word(f.severity)), escape_markdown(f.code),
                       escape_markdown(say(f.message)));
    if (!f.fix.empty()) out += trf("  - fix: {}\n", escape_markdown(say(f.fix)));
  }
  out += "\n";
  if (steps_to_take(v.plan) > 0) {
    out += std::string(tr("Steps:")) + "\n\n";
    size_t n = 0;
    for (const auto& s : v.plan.steps) {
      std::string words = escape_markdown(say(s.action));
      if (const auto needs = step_needs(s); !needs.empty()) words += " " + escape_markdown(needs);
      out += fmt::format("{}. {}\n", ++n, words);
      if (!s.command.empty()) out += "\n" + code_block(say(s.command));
    }
    out += "\n";
  } else if (v.torch_fits) out += tr("PyTorch for this machine: the installed one fits, nothing to install.\n");
  return out;
}

std::string heading(const Inventory& inv) {
  const std::string version = inv.gpuscout_version.empty() ? tr("(version unknown)") : inv.gpuscout_version;
  return trf("### gpuscout {} report, collected {}\n\n", escape_markdown(version),
                     escape_markdown(inv.collected_at.value_or(tr("at an unknown time"))));
}

}  // namespace

std::string escape_markdown(std::string_view text) {
  static constexpr std::string_view kSpecial = "\\`*_[]<>#|~&$";
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      out += ' ';
      continue;
    }
    if (kSpecial.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string render_markdown(const Inventory& inventory, const diagnose::Verdict& verdict,
                            const MarkdownOptions& options, const PrivacyContext& ctx) {
  const bool keep = options.include_private;
  const Inventory shown = keep ? inventory : redact_inventory(inventory, ctx);
  const auto say = [&](std::string_view s) { return keep ? std::string(s) : redact_text(s, ctx); };
  std::string out = heading(shown);
  out += versions_section(shown);
  out += torch_warnings_section(shown);
  out += gpus_section(shown, keep);
  out += verdict_section(verdict, say);
  out += keep ? tr("_Made with `gpuscout report --markdown --include-private`._\n")
              : tr("_Made with `gpuscout report --markdown`; user and host names, home paths and serial numbers are left "
                "out._\n");
  return out;
}

}  // namespace gpuscout::report
