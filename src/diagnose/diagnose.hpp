#pragma once
/// The verdict: rules over an Inventory and the compatibility tables. Pure: the same inventory (this
/// machine's, or one loaded with --from) always gives the same findings.
#include <optional>
#include <string>
#include <vector>

#include "core/finding.hpp"
#include "core/json.hpp"
#include "inventory/inventory.hpp"

namespace gpuscout::diagnose {

using Finding = gpuscout::Finding;

/// One step of the plan to a working GPU (or, where none can be had, to a working PyTorch on the CPU).
struct Step {
  std::string kind;     ///< "driver", "restart", "python", "torch", "gpu-runtime", "cloud-gpu", "fix", "check"
  std::string action;   ///< what to do, in words
  std::string command;  ///< the one line to copy (a shell, PowerShell or a notebook cell); "" where it is done by hand
  std::string why;      ///< why, in words
  std::string changes;  ///< what it changes on the machine
  bool root = false;    ///< needs administrator rights (sudo; on Windows, an administrator)
  bool reboot = false;  ///< the machine (or WSL) restarts after it
  std::string finding;  ///< the code of the finding it answers; "" for the plan's own steps
};

/// What to do, in order, computed once from the Inventory and shown the same by the text, the report and --json.
struct Plan {
  /// "ready": nothing to do; "gpu": after the steps PyTorch uses a GPU; "cpu": no GPU route here, PyTorch runs on
  /// the CPU (the steps get it working there, and name where a GPU can be had).
  std::string outcome = "ready";
  std::vector<Step> steps;
};

/// The command of the plan's PyTorch step; nullopt when the plan installs no PyTorch.
std::optional<std::string> torch_command(const Plan& plan);

struct Verdict {
  std::string status;  ///< "ready", "cpu-only", "needs-action"
  std::vector<Finding> findings;
  std::string device;  ///< what a training script should use: "cuda:N" or "cpu"
  Plan plan;
  bool torch_fits = false;  ///< the installed PyTorch fits this machine: nothing to install
  std::vector<std::string> gpu_names;  ///< the GPUs the plan is about (for the first line); empty without a GPU
};

/// A PyTorch wheel chosen for a machine: which release, which CUDA variant (none = CPU), and the command.
struct TorchChoice {
  std::string torch;                ///< "2.14"
  std::optional<std::string> cuda;  ///< "13.0"
  std::optional<std::string> index; ///< a ROCm or XPU wheel's index ("rocm7.2", "xpu"); none for CUDA and CPU
  std::vector<std::string> backend_arch_list;  ///< the gfx targets of that ROCm build
  /// The install command for this machine's interpreter ("/usr/bin/python3" -m pip install ...), with the venv
  /// steps first where the interpreter is externally managed; empty when no wheel fits.
  std::string command;
  /// The driver the command needs first; set only where the driver can be updated (not on a hosted notebook, not
  /// past the last driver branch of the GPU's architecture).
  std::optional<std::string> driver_needed;
  bool installed_fits = false;  ///< the installed PyTorch already runs every GPU with this driver: nothing to do
  /// A newer release that needs a driver update, when the command avoids one: "PyTorch 2.14 (CUDA 13.2) needs
  /// driver 595.45.04 or newer".
  std::optional<std::string> with_newer_driver;
};
/// The newest stable wheel that runs every NVIDIA GPU of the machine with its driver and its Python (CPU wheel
/// without an NVIDIA GPU); an older release rather than a driver update when the current driver runs one.
TorchChoice choose_torch(const Inventory& inventory);

Verdict diagnose(const Inventory& inventory);

/// The device of a working ROCm ("cuda:0") or XPU ("xpu:0") build of PyTorch, if one is installed and sees a GPU.
std::optional<std::string> torch_backend_device(const Inventory& inventory);

/// The exit status of `doctor --strict`: 0 ready, 3 cpu-only, 4 needs-action (2 is bad usage).
int strict_exit_code(const Verdict& verdict);

/// "cuda:N" for the usable NVIDIA GPU with the most free memory (N in CUDA's numbering), else "cpu".
std::string best_device(const Inventory& inventory);

nlohmann::ordered_json to_json(const Verdict& verdict);

}  // namespace gpuscout::diagnose
