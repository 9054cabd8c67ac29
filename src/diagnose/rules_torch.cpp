// Rules about each NVIDIA GPU against PyTorch's builds, and about the PyTorch that is installed.
#include <algorithm>

#include <fmt/format.h>

#include "core/i18n.hpp"
#include "core/text.hpp"
#include "core/units.hpp"
#include "diagnose/driver_route.hpp"
#include "diagnose/rule_checks.hpp"
#include "diagnose/torch_choice.hpp"
#include "inventory/cpu_count.hpp"

namespace gpuscout::diagnose::checks {
namespace {

constexpr uint64_t kLowVram = 6 * units::GiB;

/// "sm_89" for "8.9"; a capability without a dot ("12", from a hand-edited file) stays as written.
std::string sm_name(const std::string& cc) {
  std::string digits = cc;
  std::erase(digits, '.');
  return "sm_" + digits;
}

/// The GPUs PyTorch's current builds run and the installed build has code for: the ones sizes matter on.
bool runs_installed_torch(const GpuFacts& f) { return f.cc && f.newest.current && !f.installed_torch_lacks_code; }

bool nvidia_and_torch(const Context& c) { return c.inv.torch && !c.nvidia.empty(); }

/// The step that installs the wheel that fits, or what to do when none runs here.
std::string install_step(const Context& c) {
  if (c.torch_choice.command.empty())
    return tr("No PyTorch build runs this GPU with a driver it can have: use a free cloud GPU (Colab, Kaggle; see "
              "`gpuscout platforms`).");
  const auto& newer = c.torch_choice.with_newer_driver;
  std::string command = text::code(c.torch_choice.command);
  if (installs_into_new_venv(c.inv))
    command += " " + std::string(tr("(then run your scripts with ~/venvs/torch/bin/python, or after `source "
                        "~/venvs/torch/bin/activate`)"));
  if (c.torch_choice.driver_needed)
    return newer ? trf("First update the NVIDIA driver to {0} or newer, then: {1} (newer: {2}; this command needs no "
                       "driver change)",
                       *c.torch_choice.driver_needed, command, *newer)
                 : trf("First update the NVIDIA driver to {} or newer, then: {}", *c.torch_choice.driver_needed, command);
  return newer ? trf("{} (newer: {}; this command needs no driver change)", command, *newer) : command;
}

/// On a hosted notebook, the switch to one of its GPUs that current PyTorch runs, as a sentence to append.
std::string or_switch_gpu(const Context& c) {
  return c.notebook_gpu_switch ? " " + trf("Or switch this notebook to another GPU: {}.", *c.notebook_gpu_switch)
                               : std::string();
}

/// An old GPU: the last release that runs it (where its driver can run that release), or another GPU.
std::string too_old_fix(const Context& c, const ReleaseForGpu& last) {
  if (!last.release || !last.cuda) return tr("Use a free cloud GPU (Colab, Kaggle) or a newer card.") + or_switch_gpu(c);
  return trf("Use an older PyTorch: {} (needs a driver that supports CUDA {}), or a free cloud GPU (Colab, Kaggle).",
             text::code(install_command(c.inv, *last.release, last.cuda)), *last.cuda) +
         or_switch_gpu(c);
}

/// Why the driver the installed build needs is out of reach.
std::string no_update_reason(const Context& c) {
  if (!c.driver_updatable) return tr("The driver cannot be changed here (a hosted notebook)");
  if (const auto* branch = ended_branch(c.inv); branch && c.windows)
    return trf("No driver that new exists for this GPU (its last is of the R{} branch)", branch->last_branch);
  if (c.driver_ceiling) return trf("No driver that new exists for this GPU (its last is {})", c.driver_ceiling->str());
  return tr("The driver cannot be updated");
}

/// Python found a torch package but `import torch` raised.
bool torch_import_failed(const PythonInfo& py) { return py.error && py.torch_installed; }

/// "/usr/bin/python3 (chosen from PATH)": the interpreter that was asked, and why that one.
std::string asked_python(const Context& c) {
  const PythonInfo& py = c.inv.python;
  std::string exe = py.executable            ? *py.executable
                    : py.error && !py.error->what.empty() ? py.error->what
                    : c.windows                           ? "python"
                                                          : "python3";
  const std::string why = python_choice_phrase(py);
  return why.empty() ? exe : fmt::format("{} ({})", exe, why);
}

/// "; /usr/bin/python3 has torch 2.5.1+cu121": the other interpreters that have PyTorch.
std::string others_clause(const PythonInfo& py) {
  std::vector<std::string> parts;
  for (const auto& o : py.others) parts.push_back(trf("{} has torch {}", o.executable, o.torch_version));
  return parts.empty() ? std::string() : fmt::format("; {}", fmt::join(parts, ", "));
}

/// A newer Python for current PyTorch; with this one, the newest release that still has wheels for it, if any.
std::string too_old_python_fix(const Context& c) {
  if (c.torch_choice.command.empty())
    return trf("Install Python {} or newer for current PyTorch, then run `gpuscout --python PATH` with it for the "
               "install command.",
               *c.python.floor);
  return trf("Install Python {0} or newer for current PyTorch. With this Python the newest that installs is PyTorch "
             "{1}: {2}",
             *c.python.floor, c.torch_choice.torch, install_step(c));
}

/// The fix: the first other interpreter with torch, when there is one, before installing.
std::string use_other_or(const PythonInfo& py, const std::string& install) {
  if (py.others.empty()) return install;
  const std::string& exe = py.others.front().executable;
  return trf("Run `gpuscout --python {}`, or use that interpreter. Or: {}", exe, install);
}

}  // namespace

std::vector<Note> gpu_too_old(const Context& c) {
  std::vector<Note> out;
  for (const auto& f : c.nvidia) {
    if (!f.cc || f.newest.current) continue;
    const Gpu& g = *f.gpu;
    const auto& last = f.newest;
    out.push_back(Note{
        last.release ? trf("GPU {0} ({1}, compute capability {2}) is too old for current PyTorch builds, whose last "
                           "release for it is {3}.",
                           g.index, g.name, *f.cc, *last.release)
                     : trf("GPU {} ({}, compute capability {}) is too old for current PyTorch builds.", g.index, g.name,
                           *f.cc),
        too_old_fix(c, last)});
  }
  return out;
}

std::vector<Note> gpu_unsupported_by_torch(const Context& c) {
  std::vector<Note> out;
  for (const auto& f : c.nvidia) {
    if (!f.cc || !f.newest.current || !f.installed_torch_lacks_code) continue;
    const auto& t = *c.inv.torch;
    out.push_back(Note{trf("The installed PyTorch {} was built for {} and has no code for GPU {} ({}, {}).", t.version,
                           fmt::format("{}", fmt::join(t.arch_list, " ")), f.gpu->index, f.gpu->name, sm_name(*f.cc)),
                       trf("Install a build that supports it: {}.", install_step(c)) + or_switch_gpu(c)});
  }
  if (!out.empty() || !nvidia_and_torch(c)) return out;
  // Without an arch list to compare (or a GPU the list seems to cover), torch's own warning is the evidence.
  const auto& warnings = c.inv.torch->warnings;
  const auto w = std::find_if(warnings.begin(), warnings.end(),
                              [](const std::string& s) { return s.find("not compatible") != std::string::npos; });
  if (w == warnings.end()) return out;
  return one(trf("PyTorch warns: {}", w->substr(0, 300)),
             trf("Install a build that supports this GPU: {}.", install_step(c)) + or_switch_gpu(c));
}

std::vector<Note> low_vram(const Context& c) {
  std::vector<Note> out;
  for (const auto& f : c.nvidia) {
    const Gpu& g = *f.gpu;
    if (!runs_installed_torch(f) || !g.memory_total_bytes || *g.memory_total_bytes >= kLowVram) continue;
    out.push_back(Note{trf("GPU {} ({}) has {} of memory: enough to learn on, too small for most current models.",
                           g.index, g.name, units::format_bytes(*g.memory_total_bytes)),
                       tr("Use small batches, fp16/bf16 (torch.autocast), 4-bit models for LLMs, or a free cloud GPU "
                          "with 16 GB (Colab T4, Kaggle). See `gpuscout fit`.")});
  }
  return out;
}

std::vector<Note> torch_broken(const Context& c) {
  const auto& py = c.inv.python;
  if (!py.probed || c.inv.torch || !torch_import_failed(py)) return {};
  return one(trf("PyTorch is installed but fails to import: {}", py.error->message),
             trf("Reinstall it: {}", install_step(c)));
}

std::vector<Note> python_too_old(const Context& c) {
  const auto& py = c.inv.python;
  if (!py.probed || c.inv.torch || !c.python.too_old || torch_import_failed(py)) return {};
  return one(trf("Python {} is too old for PyTorch, whose release {} needs Python {} or newer: {}{}.", *py.version,
                 *c.python.floor_release, *c.python.floor, asked_python(c), others_clause(py)),
             use_other_or(py, too_old_python_fix(c)));
}

std::vector<Note> torch_missing(const Context& c) {
  const auto& py = c.inv.python;
  if (!py.probed || c.inv.torch || !py.version || c.python.too_old || torch_import_failed(py)) return {};
  return one(trf("PyTorch is not installed in {}{}.", asked_python(c), others_clause(py)),
             use_other_or(py, trf("Install the build that fits this machine: {}", install_step(c))));
}

std::vector<Note> python_missing(const Context& c) {
  const auto& py = c.inv.python;
  if (!py.probed || c.inv.torch || py.version || torch_import_failed(py)) return {};
  // The Store's stub on PATH is the cause there: python-store-alias says what to do.
  if (c.windows && py.store_alias) return {};
  return one(trf("No Python interpreter found ({}), so PyTorch could not be checked{}.", asked_python(c),
                 others_clause(py)),
             use_other_or(py, c.windows ? trf("Install Python from https://www.python.org/downloads/ (tick \"Add "
                                              "python.exe to PATH\") or with `winget install Python.Python.3.12`; in "
                                              "your project folder make a venv with `py -m venv .venv` and activate it "
                                              "with `.venv\\Scripts\\activate`. Then: {}",
                                              install_step(c))
                                        : trf("Install Python 3 (e.g. `sudo apt install python3 python3-venv`), then: {}",
                                              install_step(c))));
}

std::vector<Note> python_store_alias(const Context& c) {
  const auto& alias = c.inv.python.store_alias;
  if (!c.windows || !alias) return {};
  return one(trf("`python` on PATH is the Microsoft Store's stub ({}): it opens the Store instead of running Python.",
                 *alias),
             tr("Install Python from https://www.python.org/downloads/ (tick \"Add python.exe to PATH\") or with "
                "`winget install Python.Python.3.12`, then turn the stub off: Settings > Apps > Advanced app settings > "
                "App execution aliases, switch off python.exe and python3.exe. Open a new terminal and run gpuscout "
                "again."));
}

std::vector<Note> torch_cpu_only(const Context& c) {
  if (!nvidia_and_torch(c) || c.inv.torch->cuda || c.inv.torch->hip) return {};
  return one(trf("The installed PyTorch {} is a CPU-only build: it cannot use the NVIDIA GPU.", c.inv.torch->version),
             trf("Replace it: {}", install_step(c)));
}

std::vector<Note> driver_too_old_for_torch(const Context& c) {
  if (!nvidia_and_torch(c) || !c.torch_driver || !c.driver) return {};
  const auto& f = *c.torch_driver;
  if (!f.below_family && !f.driver_cuda_older) return {};
  const auto& t = *c.inv.torch;
  const auto& supports = c.inv.nvidia.cuda_driver_version;
  const std::string this_driver = supports ? trf("this driver is {} (supports CUDA up to {})", c.driver->str(), *supports)
                                           : trf("this driver is {}", c.driver->str());
  const std::optional<Version> need = f.ga_min ? f.ga_min : f.family_min;
  if (!need)  // a CUDA newer than the table knows
    return one(trf("PyTorch {} is built with CUDA {}, newer than this driver supports; {}.", t.version, *t.cuda,
                   this_driver),
               c.driver_updatable && !c.driver_ceiling
                   ? trf("Install a PyTorch built for your driver: {}; or update the driver to one that supports CUDA "
                         "{}.",
                         install_step(c), *t.cuda)
                   : trf("{}: install a PyTorch built for it: {}", no_update_reason(c), install_step(c)));
  const std::string message = trf("PyTorch {} is built with CUDA {}, which needs NVIDIA driver {} or newer; {}.",
                                  t.version, *t.cuda, need->str(), this_driver);
  // On the user's own machine the installed build is kept: updating the driver is the step.
  if (c.driver_for_installed)
    return one(message, trf("Update the driver: {} Or, without a driver update, install a PyTorch built for your "
                            "driver: {}",
                            step_text(driver_step(c.inv, trf("a driver of at least {}", c.driver_for_installed->str()), true)),
                            install_step(c)));
  return one(message, c.driver_reachable(*need)
                          ? trf("Install a PyTorch built for your driver: {}; or update the driver to {} or newer.",
                                install_step(c), need->str())
                          : trf("{}: install a PyTorch built for it: {}", no_update_reason(c), install_step(c)));
}

std::vector<Note> driver_older_than_torch_cuda(const Context& c) {
  if (!nvidia_and_torch(c) || !c.torch_driver || !c.driver) return {};
  const auto& f = *c.torch_driver;
  // Nothing to do about it where the driver is not the user's to change (a hosted notebook).
  if (f.below_family || f.driver_cuda_older || !f.ga_min || *c.driver >= *f.ga_min || !c.driver_reachable(*f.ga_min))
    return {};
  return one(trf("The driver {} is older than CUDA {}'s own minimum ({}); PyTorch runs through CUDA's minor-version "
                 "compatibility, without JIT for newer GPUs' PTX.",
                 c.driver->str(), *c.inv.torch->cuda, f.ga_min->str()),
             trf("Update the driver to {} or newer when convenient.", f.ga_min->str()));
}

std::vector<Note> torch_cuda_unavailable(const Context& c) {
  if (!nvidia_and_torch(c) || !c.driver_answers) return {};
  const auto& t = *c.inv.torch;
  if (!t.cuda || t.cuda_available) return {};
  return one(t.warnings.empty()
                 ? trf("PyTorch {} reports torch.cuda.is_available() == False.", t.version)
                 : trf("PyTorch {} reports torch.cuda.is_available() == False: {}.", t.version, t.warnings.front()),
             trf("Run `{} -c \"import torch; torch.cuda.init()\"` to see the error; reinstall with: {}",
                 python_command(c.inv), install_step(c)));
}

std::vector<Note> torch_few_threads(const Context& c) {
  if (!c.inv.torch || !c.inv.torch->num_threads || *c.inv.torch->num_threads < 1) return {};
  const int threads = *c.inv.torch->num_threads;
  // PyTorch's default is one thread per physical core: hyper-threads add little to matrix products.
  const auto cores = usable_core_count(c.inv.cpu);
  // Under 1.5 times is not worth a line: the gain is small and the estimate rough.
  if (!cores || *cores * 2 < threads * 3) return {};
  const double ratio = static_cast<double>(*cores) / threads;
  const std::string times = ratio == static_cast<int>(ratio) ? fmt::format("{}", static_cast<int>(ratio))
                                                              : fmt::format("{:.1f}", ratio);
  // PyTorch takes its thread count from OMP_NUM_THREADS when it is set: then that is the likely cause.
  if (const auto omp = c.env("OMP_NUM_THREADS"))
    return one(trf("PyTorch uses {} CPU threads of the {} physical cores this process may use, and "
                   "OMP_NUM_THREADS=\"{}\" is set: work it does on the CPU (matrix products, convolutions) could run up "
                   "to {} times faster. Work on the GPU is not affected.",
                   threads, *cores, *omp, times),
               trf("Start Python with OMP_NUM_THREADS={0} (or unset it: `unset OMP_NUM_THREADS`), or call "
                   "torch.set_num_threads({0}) at the start of your script.",
                   *cores));
  return one(trf("PyTorch uses {} CPU threads of the {} physical cores this process may use: work it does on the CPU "
                 "(matrix products, convolutions) could run up to {} times faster. Work on the GPU is not affected.",
                 threads, *cores, times),
             trf("Call torch.set_num_threads({0}) at the start of your script, or start Python with "
                 "OMP_NUM_THREADS={0}. A smaller OMP_NUM_THREADS in the environment lowers it; some builds (Debian's) "
                 "start with 1.",
                 *cores));
}

std::vector<Note> torch_debug_build(const Context& c) {
  if (!c.inv.torch || !c.inv.torch->debug.value_or(false)) return {};
  return one(trf("PyTorch {} is a debug build (torch.version.debug is True): it runs many times slower than a "
                 "release build.",
                 c.inv.torch->version),
             trf("Install a release build: {}", install_step(c)));
}

}  // namespace gpuscout::diagnose::checks
