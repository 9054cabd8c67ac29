#pragma once
/// The facts every diagnose rule reads, derived once from an Inventory and the data tables. Rules never parse or
/// look anything up themselves, so a bad value (an unparseable driver version in a --from file, a bad table cell)
/// is handled here once: it becomes an unknown fact (nullopt), never a crash.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.hpp"
#include "core/version.hpp"
#include "diagnose/cuda_visible.hpp"
#include "diagnose/diagnose.hpp"
#include "inventory/inventory.hpp"

namespace gpuscout::diagnose {

/// The newest PyTorch release with a CUDA build that runs one GPU (catalog answers it).
using ReleaseForGpu = catalog::ReleaseForGpu;

/// One NVIDIA GPU and what the tables and the installed PyTorch say about it.
struct GpuFacts {
  const Gpu* gpu = nullptr;
  std::optional<std::string> cc;            ///< compute capability as probed ("8.9"), if known
  ReleaseForGpu newest;                     ///< meaningful when cc is known
  bool installed_torch_lacks_code = false;  ///< a CUDA PyTorch is installed and its arch list cannot run this GPU
};

/// The installed CUDA PyTorch against the driver (present when both are known).
struct TorchDriverFacts {
  std::optional<Version> torch_cuda;   ///< CUDA the wheel was built with ("13.0"); nullopt if unparseable
  std::optional<Version> ga_min;       ///< that CUDA's GA minimum driver (data/cuda_driver.csv)
  std::optional<Version> family_min;   ///< the floor of its major family (minor-version compatibility)
  bool below_family = false;           ///< the driver is under the family floor: the wheel cannot start
  bool driver_cuda_older = false;      ///< the driver's own CUDA major is older than the wheel's
};

/// The interpreter PyTorch was looked for in, against what the newest PyTorch release needs.
struct PythonFacts {
  std::optional<Version> version;            ///< the interpreter's Python, if it parses
  std::optional<std::string> floor;          ///< the newest release's oldest Python ("3.10", data/torch_builds.csv)
  std::optional<std::string> floor_release;  ///< that release ("2.14")
  bool too_old = false;                      ///< version is below floor
};

struct Context {
  const Inventory& inv;
  std::vector<GpuFacts> nvidia;             ///< NVIDIA GPUs, in inventory order
  std::vector<const Gpu*> others;           ///< every other GPU
  bool has_nvidia = false;                  ///< an NVIDIA GPU, or an NVIDIA driver library that could say so
  bool nouveau = false;                     ///< nouveau holds an NVIDIA GPU (or is loaded with no nvidia module)
  std::optional<int> nvml_status;           ///< vendor::nvml code of NVML's failure, if it failed with one
  std::optional<int> cuda_status;           ///< vendor::cuda code of the CUDA driver API's failure
  std::optional<Version> driver;            ///< the driver version (NVML, else the kernel module)
  std::optional<Version> driver_cuda;       ///< the newest CUDA the driver supports, if it parses
  bool driver_answers = false;              ///< CUDA is available or NVML reported a driver version
  std::string platform;                     ///< the data tables' platform key: "linux-x86_64", "windows-x86_64"
  bool windows = false;                     ///< a Windows machine (os.family): its steps, not Linux's
  TorchChoice torch_choice;                 ///< the wheel that fits (choose_torch)
  std::string driver_hint;                  ///< "a driver of at least 580.65.06 (for CUDA 13.0 PyTorch wheels)"
  bool driver_updatable = true;             ///< the user can change the driver (not on a hosted notebook)
  std::optional<Version> driver_ceiling;    ///< the newest driver the GPUs can have (an ended architecture's last)

  /// Whether the user can get a driver of at least `version` here.
  bool driver_reachable(const Version& version) const {
    return driver_updatable && (!driver_ceiling || version <= *driver_ceiling);
  }
  /// On a hosted notebook: another of its free GPUs that current PyTorch runs, "offer: the steps to switch".
  std::optional<std::string> notebook_gpu_switch;
  std::optional<TorchDriverFacts> torch_driver;
  /// The installed CUDA PyTorch has code for every GPU and needs only a newer driver (this version), on the user's
  /// own machine where the driver can be updated: that update is the step, a wheel for the old driver the
  /// alternative. Keeps what works rather than reinstalling it.
  std::optional<Version> driver_for_installed;
  /// A ROCm or XPU build of PyTorch that sees a GPU: its device ("cuda:0", "xpu:0").
  std::optional<std::string> torch_backend_device;
  PythonFacts python;
  bool env_recorded = false;                 ///< the inventory records the environment (older files do not)
  std::optional<CudaVisibility> cuda_visible;  ///< CUDA_VISIBLE_DEVICES applied to the NVIDIA GPUs, when it is set

  /// A recorded environment variable's value: nullopt when it is unset or the environment was not recorded.
  std::optional<std::string> env(const std::string& name) const {
    if (!inv.environment) return std::nullopt;
    const auto it = inv.environment->find(name);
    return it == inv.environment->end() ? std::nullopt : std::optional<std::string>(it->second);
  }

  /// CUDA_VISIBLE_DEVICES keeps this process off `gpu` (and the inventory tells which GPU that is).
  bool hidden_by_cuda_visible_devices(const Gpu& gpu) const {
    return cuda_visible && std::find(cuda_visible->hidden_gpus.begin(), cuda_visible->hidden_gpus.end(), &gpu) !=
                               cuda_visible->hidden_gpus.end();
  }

  explicit Context(const Inventory& inventory) : inv(inventory) {}
};

/// Everything the rules read, computed once. The context points into `inventory`, which must outlive it.
Context make_context(const Inventory& inventory);
Context make_context(const Inventory&& inventory) = delete;

/// The facts choose_torch and the context share.
std::optional<Version> driver_version(const Inventory& inventory);
/// Windows' form of an NVIDIA driver version ("32.0.15.8157") as NVIDIA writes it (581.57); nullopt if it is not one.
std::optional<Version> nvidia_version_from_windows(std::string_view windows_version);
std::string platform_key(const Inventory& inventory);
/// A Windows machine: the inventory's os.family is "windows".
bool on_windows(const Inventory& inventory);
/// The system whose driver serves the GPU: Windows on Windows and under WSL (the Windows driver answers there).
catalog::DriverOs driver_os(const Inventory& inventory);
/// A CUDA PyTorch is installed and its arch list (non-empty) has no code that runs compute capability `cc`.
bool installed_torch_lacks_code(const Inventory& inventory, const std::string& cc);
/// How the interpreter was chosen, for a sentence: "chosen from PATH", "the active venv"; "" when not recorded.
std::string python_choice_phrase(const PythonInfo& python);
/// Compute capabilities of the NVIDIA GPUs that report one.
std::vector<std::string> nvidia_capabilities(const Inventory& inventory);

}  // namespace gpuscout::diagnose
