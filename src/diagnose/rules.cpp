#include "diagnose/rules.hpp"

#include "core/i18n.hpp"
#include "core/text.hpp"
#include "diagnose/rule_checks.hpp"

namespace gpuscout::diagnose {
namespace {

constexpr Effect kBlocks = Effect::blocks;
constexpr Effect kNeedsAction = Effect::needs_action;
constexpr Effect kAdvises = Effect::advises;
using enum Severity;
constexpr Gate kAlways = Gate::always;
constexpr Gate kUnblocked = Gate::unblocked;

// The order is the order rules run in: the driver's state first (the first failure found is the cause; what it
// breaks further down is not reported again), then CUDA, each GPU against PyTorch, the installed PyTorch, and the
// machine. tests/unit/diagnose_docs_test.cpp checks docs/json.md against this table.
constexpr Rule kRules[] = {
    {"nouveau-driver", error, kBlocks, kAlways, "the open-source driver holds the card", checks::nouveau_driver},
    {"driver-probe-timeout", error, kBlocks, kUnblocked, "NVML or CUDA did not answer within `--timeout` (default 5 s)",
     checks::driver_probe_timeout},
    {"driver-library-mismatch", error, kBlocks, kUnblocked,
     "NVML and kernel module of different versions (NVML 18, LIB_RM_VERSION_MISMATCH): reboot (on Windows: restart "
     "Windows)",
     checks::driver_library_mismatch},
    {"nvidia-driver-not-loaded", error, kBlocks, kUnblocked,
     "library installed, kernel module not answering (NVML 9, DRIVER_NOT_LOADED)", checks::nvidia_driver_not_loaded},
    {"nvidia-driver-missing", error, kBlocks, kUnblocked, "an NVIDIA GPU and no usable driver library",
     checks::nvidia_driver_missing},
    {"nvml-error", warning, kAdvises, kUnblocked, "NVML failed in another way", checks::nvml_error},
    // A stub libcuda is its own cause, whatever NVML says.
    {"cuda-stub-library", error, kBlocks, kAlways, "libcuda.so.1 is the toolkit's stub (CUDA 34, STUB_LIBRARY)",
     checks::cuda_stub_library},
    {"cuda-init-failed", error, kBlocks, kUnblocked,
     "cuInit failed with a code no other rule names: 999 (UNKNOWN) with nvidia_uvm missing, 3 (NOT_INITIALIZED), 46 "
     "(DEVICE_UNAVAILABLE), 803 (SYSTEM_DRIVER_MISMATCH), ...",
     checks::cuda_init_failed},
    {"fabric-manager", error, kBlocks, kUnblocked, "cuInit 802 (SYSTEM_NOT_READY) on NVSwitch systems",
     checks::fabric_manager},
    {"driver-too-old", error, kBlocks, kUnblocked,
     "cuInit 804 (COMPAT_NOT_SUPPORTED_ON_DEVICE): a forward-compatibility libcuda (cuda-compat) newer than the driver, "
     "on a GPU that cannot use one",
     checks::driver_too_old},
    // Before cuda-no-device: when the variable hides every GPU, it is the cause, not the container.
    {"cuda-visible-devices-empty", warning, kBlocks, kUnblocked,
     "CUDA_VISIBLE_DEVICES is set to an empty value, or names no GPU of the machine (\"-1\"), while NVIDIA GPUs are "
     "present: CUDA sees none",
     checks::cuda_visible_devices_empty},
    {"cuda-no-device", error, kBlocks, kUnblocked,
     "cuInit 100 (NO_DEVICE), or CUDA counting no device, while NVIDIA GPUs are present and CUDA_VISIBLE_DEVICES does "
     "not hide them (a container without GPUs; an older inventory without the environment)",
     checks::cuda_no_device},
    {"cuda-visible-devices-hides", info, kAdvises, kUnblocked,
     "CUDA_VISIBLE_DEVICES lets CUDA see fewer NVIDIA GPUs than the driver shows (names the hidden ones)",
     checks::cuda_visible_devices_hides},
    {"cuda-count-mismatch", warning, kAdvises, kUnblocked,
     "CUDA counts fewer GPUs than NVML shows and CUDA_VISIBLE_DEVICES does not explain it (names the missing ones)",
     checks::cuda_count_mismatch},
    {"cuda-device-order", info, kAdvises, kUnblocked,
     "CUDA_DEVICE_ORDER is unset and CUDA's numbers (fastest first) differ from nvidia-smi's (PCI order) on this "
     "machine's GPUs",
     checks::cuda_device_order},
    {"cuda-launch-blocking", info, kAdvises, kAlways,
     "CUDA_LAUNCH_BLOCKING=1: every kernel launch waits for the GPU (a debugging setting)",
     checks::cuda_launch_blocking},
    {"gpu-too-old", error, kBlocks, kAlways,
     "no build of the newest PyTorch release runs this compute capability; the fix names the last release that does",
     checks::gpu_too_old},
    {"gpu-unsupported-by-torch", error, kBlocks, kAlways,
     "the installed build's arch list cannot run the GPU, or torch warned \"not compatible\"",
     checks::gpu_unsupported_by_torch},
    {"low-vram", warning, kAdvises, kAlways, "a GPU with under 6 GiB", checks::low_vram},
    {"torch-broken", error, kNeedsAction, kAlways, "PyTorch is installed but `import torch` fails",
     checks::torch_broken},
    {"python-too-old", warning, kNeedsAction, kAlways,
     "Python without PyTorch, older than the newest PyTorch release supports (Python 2.7, 3.9)",
     checks::python_too_old},
    {"torch-missing", warning, kNeedsAction, kAlways,
     "Python without PyTorch: the fix is the install command for this machine", checks::torch_missing},
    {"python-store-alias", warning, kNeedsAction, kAlways,
     "Windows: `python` on PATH is the Microsoft Store's stub (`python.store_alias`), which opens the Store",
     checks::python_store_alias},
    {"python-missing", warning, kNeedsAction, kAlways, "no Python interpreter", checks::python_missing},
    {"torch-cpu-only", error, kBlocks, kAlways, "a CPU build of PyTorch while an NVIDIA GPU is present",
     checks::torch_cpu_only},
    {"driver-too-old-for-torch", error, kBlocks, kAlways, "the installed build's CUDA needs a newer driver (says which)",
     checks::driver_too_old_for_torch},
    {"driver-older-than-torch-cuda", info, kAdvises, kAlways, "runs through CUDA minor-version compatibility",
     checks::driver_older_than_torch_cuda},
    {"torch-cuda-unavailable", error, kBlocks, kUnblocked,
     "a CUDA build reports `is_available() == False` on a working GPU", checks::torch_cuda_unavailable},
    {"torch-few-threads", info, kAdvises, kAlways,
     "`torch.get_num_threads()` is below the physical cores this process may use (affinity, cgroup quota)",
     checks::torch_few_threads},
    {"torch-debug-build", warning, kAdvises, kAlways, "`torch.version.debug` is true: a debug build, many times slower",
     checks::torch_debug_build},
    {"no-nvidia-gpu", warning, kAdvises, kUnblocked,
     "an AMD, Intel, Apple or other GPU: what works instead (ROCm, XPU, MPS)", checks::no_nvidia_gpu},
    {"torch-wrong-backend", warning, kNeedsAction, kAlways,
     "an AMD or Intel GPU that PyTorch's ROCm or XPU build runs, while the installed PyTorch is a CPU or CUDA build: "
     "the fix is that build's install command",
     checks::torch_wrong_backend},
    {"rocm-unusable", error, kNeedsAction, kAlways,
     "a ROCm build of PyTorch that sees no GPU on a machine with an AMD GPU: which gfx target is missing, an "
     "HSA_OVERRIDE_GFX_VERSION trap, no /dev/kfd, or permissions",
     checks::rocm_unusable},
    {"no-gpu", warning, kAdvises, kUnblocked,
     "no GPU CUDA PyTorch can use; the fix lists free cloud GPUs with their steps", checks::no_gpu},
    {"gpu-busy", warning, kAdvises, kAlways,
     "an NVIDIA GPU at 80% or more utilisation, or with half its memory used, by other processes (names them)",
     checks::gpu_busy},
    {"gpu-memory-errors", warning, kNeedsAction, kAlways,
     "an NVIDIA GPU whose memory NVML reports unhealthy (`gpus[].memory_health`): uncorrectable ECC errors since the "
     "driver loaded, a page retirement or row remap waiting for a reset, or a failed row remap (service the card)",
     checks::gpu_memory_errors},
    {"mixed-vram", warning, kAdvises, kAlways,
     "NVIDIA GPUs of different memory (data-parallel training is limited by the smallest)", checks::mixed_vram},
    {"low-ram", warning, kAdvises, kAlways, "under 8 GiB of RAM (or of a container's memory limit)", checks::low_ram},
    {"small-dev-shm", warning, kAdvises, kAlways,
     "a container (not a hosted notebook) whose /dev/shm is under 1 GiB: DataLoader workers die with \"bus error\"",
     checks::small_dev_shm},
    {"gpu-far-numa", info, kAdvises, kAlways,
     "the process may run only on CPUs of NUMA nodes other than a GPU's (`cpu.allowed_cpus`, `gpus[].numa_node`); the "
     "fix is the numactl line for the GPU's node",
     checks::gpu_far_numa},
    {"low-disk", warning, kAdvises, kAlways,
     "under 20 GiB free on /, /home, a notebook's work folder or Windows' C: drive",
     checks::low_disk},
    {"windows-long-paths", info, kAdvises, kAlways,
     "Windows with LongPathsEnabled off (`os.windows.long_paths_enabled` false): pip can fail on deep paths",
     checks::windows_long_paths},
    {"driver-model-tcc", info, kAdvises, kAlways, "Windows: an NVIDIA GPU in TCC mode (CUDA works, no display output)",
     checks::driver_model_tcc},
    {"laptop", info, kAdvises, kAlways, "a laptop (battery or SMBIOS chassis type)", checks::laptop},
    {"cloud-notebook", info, kAdvises, kAlways, "Google Colab or Kaggle", checks::cloud_notebook},
};

}  // namespace

std::string_view severity_name(Severity severity) {
  switch (severity) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::info: return "info";
  }
  return "info";
}

std::string_view effect_name(Effect effect) {
  switch (effect) {
    case Effect::blocks: return "yes";
    case Effect::needs_action: return "action";
    case Effect::advises: return "no";
  }
  return "no";
}

std::span<const Rule> rules() { return kRules; }

namespace checks {
std::string step_text(const Step& step) {
  return step.command.empty() ? step.action : trf("{} The command: {}", step.action, text::code(step.command));
}
}  // namespace checks

Evaluation evaluate(const Context& context) {
  Evaluation out;
  for (const Rule& rule : rules()) {
    if (rule.gate == Gate::unblocked && out.blocked) continue;
    for (auto& note : rule.check(context)) {
      out.findings.push_back(Finding{std::string(rule.code), std::string(severity_name(rule.severity)),
                                     std::move(note.message), std::move(note.fix)});
      out.blocked = out.blocked || rule.effect == Effect::blocks;
      out.needs_action = out.needs_action || rule.effect != Effect::advises;
    }
  }
  return out;
}

}  // namespace gpuscout::diagnose
