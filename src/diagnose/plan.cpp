#include "diagnose/plan.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "core/i18n.hpp"
#include "diagnose/driver_route.hpp"
#include "diagnose/torch_choice.hpp"

namespace gpuscout::diagnose {
namespace {

/// Findings whose fix is getting the NVIDIA driver installed.
constexpr std::array<std::string_view, 2> kDriverInstall = {"nouveau-driver", "nvidia-driver-missing"};
/// Findings whose fix is the install command of the wheel that fits (torch_choice).
constexpr std::array<std::string_view, 9> kTorchInstall = {
    "gpu-too-old",   "gpu-unsupported-by-torch", "torch-broken",           "torch-missing",     "torch-cpu-only",
    "driver-too-old-for-torch", "torch-cuda-unavailable", "torch-wrong-backend", "python-too-old"};
constexpr std::array<std::string_view, 3> kPython = {"python-missing", "python-store-alias", "python-too-old"};

template <size_t N>
bool in(const std::array<std::string_view, N>& codes, std::string_view code) {
  return std::find(codes.begin(), codes.end(), code) != codes.end();
}

Effect effect_of(std::string_view code) {
  for (const Rule& r : rules())
    if (r.code == code) return r.effect;
  return Effect::advises;
}

/// "CUDA 12.6", "ROCm (rocm7.2)", "the CPU": what the chosen wheel is built for.
std::string wheel_target(const TorchChoice& choice) {
  if (choice.index && choice.index->starts_with("rocm")) return trf("AMD GPUs (ROCm, {})", *choice.index);
  if (choice.index && *choice.index == "xpu") return tr("Intel GPUs (XPU)");
  if (choice.cuda) return trf("CUDA {}", *choice.cuda);
  return tr("the CPU");
}

Step torch_step(const Context& c) {
  const Inventory& inv = c.inv;
  const auto& choice = c.torch_choice;
  Step s;
  s.kind = "torch";
  s.command = choice.command;
  const bool replacing = inv.torch || inv.python.torch_installed;
  s.action = replacing ? trf("Replace the installed PyTorch with PyTorch {} built for {}.", choice.torch, wheel_target(choice))
                       : trf("Install PyTorch {} built for {}.", choice.torch, wheel_target(choice));
  const std::string python = python_command(inv);
  if (inv.platform.notebook) s.changes = tr("the notebook's own Python packages (until the runtime is reset)");
  else if (installs_into_new_venv(inv)) {
    // The system's own Python stays as it is (PEP 668); the user's scripts run with the venv's.
    s.action += " " + std::string(tr("Then run your scripts with ~/venvs/torch/bin/python, or after `source ~/venvs/torch/bin/activate`."));
    s.changes = venv_needs_package(inv)
                    ? tr("installs the python3-venv package, makes a virtual environment in ~/venvs/torch and installs "
                         "torch, torchvision and torchaudio into it")
                    : tr("makes a virtual environment in ~/venvs/torch and installs torch, torchvision and torchaudio into it");
    s.root = venv_needs_package(inv);
  }
  else if (replacing)
    s.changes = trf("replaces torch, torchvision and torchaudio in {} (nothing else changes)", python);
  else
    s.changes = trf("installs torch, torchvision and torchaudio into {}", python);
  return s;
}

}  // namespace

Plan make_plan(const Context& c, const Evaluation& e, bool gpu_usable) {
  Plan plan;
  const auto has = [&](std::string_view kind) {
    return std::any_of(plan.steps.begin(), plan.steps.end(), [&](const Step& s) { return s.kind == kind; });
  };
  // Findings in table order: the driver's state first, then CUDA, PyTorch, Python: the order the steps are taken.
  for (const Finding& f : e.findings) {
    if (effect_of(f.code) == Effect::advises) continue;
    Step step;
    if (in(kDriverInstall, f.code)) {
      if (has("driver")) continue;
      step = driver_step(c.inv, c.driver_hint, false);
    } else if (f.code == "driver-too-old-for-torch" && c.driver_for_installed) {
      if (has("driver")) continue;
      step = driver_step(c.inv, trf("a driver of at least {}", c.driver_for_installed->str()), true);
    } else if (in(kTorchInstall, f.code) && !c.torch_choice.command.empty()) {
      if (has("torch")) continue;
      if (in(kPython, f.code)) {  // a newer Python is the better step; the command is what this one can have
        step.kind = "python";
        step.action = f.fix;
        step.finding = f.code;
        step.why = f.message;
        plan.steps.push_back(step);
        step = Step{};
      }
      step = torch_step(c);
    } else if (f.code == "driver-library-mismatch") {
      step.kind = "restart";
      step.action = f.fix;
      step.reboot = true;
    } else {
      step.kind = in(kPython, f.code) ? "python" : "fix";
      step.action = f.fix;
    }
    step.finding = f.code;
    step.why = f.message;
    plan.steps.push_back(std::move(step));
  }
  // The wheel chosen for a driver the machine has yet to get: that driver first.
  const auto torch = std::find_if(plan.steps.begin(), plan.steps.end(), [](const Step& s) { return s.kind == "torch"; });
  if (torch != plan.steps.end() && c.torch_choice.driver_needed && !has("driver")) {
    Step driver = driver_step(c.inv, c.driver_hint, c.driver.has_value());
    driver.why = trf("PyTorch {} built for CUDA {} needs it.", c.torch_choice.torch, c.torch_choice.cuda.value_or("?"));
    plan.steps.insert(torch, std::move(driver));
  }
  const bool gpu_route = gpu_usable || c.torch_choice.index.has_value() ||
                         (!c.nvidia.empty() && !c.torch_choice.command.empty());
  if (plan.steps.empty() && !gpu_usable) {
    // No GPU here: where one can be had (this notebook's GPU runtime, or a free cloud notebook).
    for (const Finding& f : e.findings)
      if (f.code == "no-gpu") {
        Step step;
        step.kind = c.notebook_gpu_switch ? "gpu-runtime" : "cloud-gpu";
        step.action = f.fix;
        step.why = f.message;
        step.finding = f.code;
        plan.steps.push_back(std::move(step));
      }
    plan.outcome = c.notebook_gpu_switch ? "gpu" : "cpu";
    return plan;
  }
  if (plan.steps.empty()) return plan;
  plan.outcome = gpu_route ? "gpu" : "cpu";
  Step check;
  check.kind = "check";
  check.action = tr("Run gpuscout again to check.");
  check.command = "gpuscout";
  plan.steps.push_back(std::move(check));
  return plan;
}

}  // namespace gpuscout::diagnose
