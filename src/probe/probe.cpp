// Orchestration: start the slow, fallible probes (Python, NVML, CUDA) as bounded children first, read the
// local files meanwhile, then collect. A child that hangs is killed at its deadline and reported.
#include "probe/probe.hpp"

#include <chrono>
#include <cmath>
#include <ctime>

#include <fmt/format.h>

#include "core/json.hpp"
#include "core/json_position.hpp"
#include "inventory/json.hpp"
#include "os/process.hpp"
#include "os/system.hpp"
#include "probe/child_error.hpp"
#include "probe/python_select.hpp"
#include "probe/sources.hpp"
#include "probe/windows_facts.hpp"

namespace gpuscout::probe {
namespace {

const ChildRole kNvmlRole{"nvml", "nvmlInit_v2", "the NVML probe", "the NVIDIA driver is hung (nvidia-smi would hang too)"};
const ChildRole kCudaRole{"cuda", "cuInit", "the CUDA probe", "the NVIDIA driver is hung"};

// The driver calls, run isolated by name (a fork on Linux; gpuscout.exe re-run on Windows), each with the time it took
// inside the child: the library's load, its init and every query.
double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}
std::string nvml_child(const std::string&) {
  const auto start = std::chrono::steady_clock::now();
  auto report = probe_nvml();
  return nlohmann::json{{"info", report.info}, {"gpus", report.gpus}, {"elapsed_ms", ms_since(start)}}.dump();
}
std::string cuda_child(const std::string&) {
  const auto start = std::chrono::steady_clock::now();
  auto cuda = nlohmann::json(probe_cuda_driver());
  return nlohmann::json{{"cuda", std::move(cuda)}, {"elapsed_ms", ms_since(start)}}.dump();
}
// A child's own time, when it gave a plausible one (a number from another process is checked like any input).
std::optional<double> elapsed_of(const nlohmann::json& doc) {
  const auto it = doc.find("elapsed_ms");
  if (it == doc.end() || !it->is_number()) return std::nullopt;
  const double v = it->get<double>();
  return std::isfinite(v) && v >= 0 && v < 3.6e6 ? std::optional(v) : std::nullopt;
}
const bool kDriverChildrenRegistered = os::register_isolated("nvml", nvml_child) && os::register_isolated("cuda", cuda_child);

std::chrono::milliseconds python_timeout(const Options& options) {
  return options.python_timeout ? *options.python_timeout : Options::kDefaultPythonTimeout;
}

/// The chosen interpreter's probe, started first; the search for others shares its deadline.
struct PythonProbe {
  PythonEnvironment env;
  PythonChoice choice;
  std::chrono::milliseconds timeout{};
  std::chrono::steady_clock::time_point started;
  std::optional<os::Child> child;
};

std::vector<std::string> probe_argv(const std::string& exe) { return {exe, "-c", std::string(python_probe_script())}; }

PythonProbe start_python(const Options& options, Inventory& inv) {
  PythonProbe p;
  p.env = python_environment(options.python_executable);
  p.choice = choose_python(p.env);
  p.timeout = python_timeout(options);
  p.started = std::chrono::steady_clock::now();
  inv.python.probed = true;
  inv.python.selected_by = p.choice.selected_by;
  inv.python.store_alias = p.choice.store_alias;
  if (p.choice.not_found) {  // nothing to start (Windows: `python` would open the Store)
    inv.python.error = ProbeError{"python", p.choice.executable, *p.choice.not_found, std::nullopt};
    return p;
  }
  auto child = os::spawn(probe_argv(p.choice.executable), p.timeout);
  if (child) p.child = std::move(*child);
  else inv.python.error = ProbeError{"python", p.choice.executable, child.error().message, std::nullopt};
  return p;
}

// A driver child's answer: its JSON on success, else its failure as the section's error. `read` fills the
// section from the JSON and returns the section's own error slot, which gets the child's stderr appended.
template <typename Read>
void collect_driver_child(Result<os::Child>& child, const ChildRole& role, std::chrono::milliseconds timeout,
                          std::optional<ProbeError>& error, bool& timed_out, bool& library_found, Read read) {
  if (!child) {
    error = ProbeError{role.source, "fork", child.error().message, std::nullopt};
    return;
  }
  const auto r = child->wait();
  if (auto failed = child_failure(role, r, timeout)) {
    timed_out = r.timed_out;
    library_found = true;  // it got far enough to hang or crash
    error = std::move(failed);
    return;
  }
  auto parsed = core::parse_json(r.out);
  if (!parsed) {
    error = ProbeError{role.source, "probe child", "unreadable result: " + child_output_excerpt(parsed.error().message),
                       std::nullopt};
    return;
  }
  try {
    read(*parsed);
  } catch (const nlohmann::json::exception& e) {  // a value of the wrong type
    error = ProbeError{role.source, "probe child", "unreadable result: " + child_output_excerpt(e.what()), std::nullopt};
  }
  if (error) add_child_output(*error, r);
}

void collect_chosen_python(PythonProbe& p, Inventory& inv) {
  const auto r = p.child->wait();
  const std::string& exe = p.choice.executable;
  const ChildRole role{"python", exe, exe, "import torch hung?"};
  if (!r.timed_out) parse_python_probe_output(r.out, inv.python, inv.torch);
  // A Python that printed its facts and then crashed on the way out still told us what it has.
  if (inv.python.version && !r.timed_out) return;
  if (auto failed = child_failure(role, r, p.timeout)) {
    inv.python.timed_out = r.timed_out;
    inv.python.error = std::move(failed);
  } else if (inv.python.error) {
    add_child_output(*inv.python.error, r);
  }
}

/// `py -0p` reads the registry and prints a list: quick, unless something is wrong.
constexpr std::chrono::milliseconds kPyListTimeout{5000};

/// The other interpreters that have torch, asked all at once within what is left of the deadline.
void find_other_pythons(const PythonProbe& p, Inventory& inv) {
  using namespace std::chrono;
  const auto left = [&] { return p.timeout - duration_cast<milliseconds>(steady_clock::now() - p.started); };
  if (left() < milliseconds(100)) return;
  std::vector<std::string> exclude = {p.choice.executable};
  if (inv.python.executable) exclude.push_back(*inv.python.executable);  // what a pyenv shim or py launcher ran
  PythonEnvironment env = p.env;
  if (env.platform == PythonPlatform::windows && !env.recorded_machine)
    if (auto py = find_py_launcher(env)) env.py_launcher_pythons = list_py_launcher(*py, std::min(left(), kPyListTimeout));
  if (left() < milliseconds(100)) return;
  std::vector<std::pair<std::string, os::Child>> children;
  for (const auto& exe : other_pythons(env, exclude))
    if (auto child = os::spawn(probe_argv(exe), left())) children.emplace_back(exe, std::move(*child));
  for (auto& [exe, child] : children) {
    const auto r = child.wait();
    if (r.timed_out) continue;
    PythonInfo python;
    std::optional<TorchInfo> torch;
    parse_python_probe_output(r.out, python, torch);
    if (torch) inv.python.others.push_back(OtherPython{exe, python.version, torch->version, torch->cuda});
  }
}

void collect_python(PythonProbe& p, Inventory& inv) {
  if (p.child) collect_chosen_python(p, inv);
  if (!inv.torch) find_other_pythons(p, inv);
}

}  // namespace

Inventory collect(const Options& options) {
  const auto start = std::chrono::steady_clock::now();
  Inventory inv;
  inv.gpuscout_version = GPUSCOUT_VERSION;
  inv.collected_at = os::utc_now_iso8601();

  // 1. Children first, so they run while we read files.
  std::optional<PythonProbe> python;
  if (options.python) python = start_python(options, inv);
  (void)kDriverChildrenRegistered;
  auto nvml_child = os::call_isolated("nvml", "", options.driver_timeout);
  auto cuda_child = os::call_isolated("cuda", "", options.driver_timeout);

  // 2. Local facts: a Windows machine's (live, or recorded as windows.json) or Linux's files.
  std::vector<ProbeError> windows_errors;
  const auto windows_facts = windows::facts_for_this_run(windows_errors);
  if (windows_facts) {
    windows::fill_inventory(*windows_facts, inv);
    inv.os.errors.insert(inv.os.errors.end(), windows_errors.begin(), windows_errors.end());
  } else {
    inv.cpu = probe_cpu();
    inv.memory = probe_memory();
    inv.disks = probe_disks(inv.disk_errors);
    inv.os = probe_os(inv.cpu.hypervisor);
    inv.platform = probe_platform(inv.os);
    inv.gpus = probe_pci_gpus(inv.pci_errors);
    probe_amdgpu(inv.gpus, inv.rocm);
  }
  if (options.toolkit) inv.toolkit = probe_toolkit();
  inv.environment = probe_environment();
  if (os::sysroot().empty()) inv.hostname = os::hostname();

  // 3. Drivers.
  NvmlReport nvml;
  collect_driver_child(nvml_child, kNvmlRole, options.driver_timeout, nvml.info.error, nvml.info.timed_out,
                       nvml.info.library_found, [&](const nlohmann::json& doc) {
                         doc.at("info").get_to(nvml.info);
                         doc.at("gpus").get_to(nvml.gpus);
                         inv.probe_timings_ms.nvml_ms = elapsed_of(doc);
                       });
  collect_driver_child(cuda_child, kCudaRole, options.driver_timeout, inv.cuda.error, inv.cuda.timed_out,
                       inv.cuda.library_found, [&](const nlohmann::json& doc) {
                         doc.at("cuda").get_to(inv.cuda);
                         inv.probe_timings_ms.cuda_ms = elapsed_of(doc);
                       });
  inv.nvidia = nvml.info;
  if (windows_facts) windows::fill_nvidia(*windows_facts, inv.nvidia);  // Windows has no kernel module files
  else probe_nvidia_module(inv.nvidia);
  join_gpus(inv, nvml);

  // 4. Python.
  if (python) collect_python(*python, inv);
  inv.probe_ms = ms_since(start);
  return inv;
}

}  // namespace gpuscout::probe
