// Rules about the NVIDIA driver (NVML, the kernel modules) and the CUDA driver API (cuInit). Status codes are
// compared by their vendor names: src/vendor/nvml_abi.hpp and src/vendor/cuda_abi.hpp.
#include <fmt/format.h>

#include "core/i18n.hpp"
#include "diagnose/driver_route.hpp"
#include "diagnose/rule_checks.hpp"
#include "vendor/cuda_abi.hpp"
#include "vendor/nvml_abi.hpp"

namespace gpuscout::diagnose::checks {
namespace nvml = vendor::nvml;
namespace cuda = vendor::cuda;

namespace {
bool cuda_failed_with(const Context& c, int code) { return c.has_nvidia && c.cuda_status == code; }

/// How to get the driver the chosen wheel needs onto this machine (driver_route decides, the plan shows the same).
std::string driver_install(const Context& c) { return step_text(driver_step(c.inv, c.driver_hint, false)); }
}  // namespace

std::vector<Note> nouveau_driver(const Context& c) {
  if (c.nvidia.empty() || !c.nouveau || c.windows) return {};
  // The NVIDIA driver's packages blacklist nouveau.
  return one(tr("The open-source nouveau driver holds the NVIDIA GPU: it has no CUDA, so PyTorch cannot use the card."),
             driver_install(c));
}

std::vector<Note> driver_probe_timeout(const Context& c) {
  if (!c.inv.nvidia.timed_out && !c.inv.cuda.timed_out) return {};
  return one(
      tr("The NVIDIA driver did not answer within the time limit: the GPU or driver is hung (nvidia-smi would hang too)."),
      c.windows ? tr("Close the programs using the GPU (Task Manager > Performance > GPU shows them), then restart "
                     "Windows. If it recurs, reinstall the driver from https://www.nvidia.com/Download/index.aspx "
                     "(choose a clean installation) and check power and cooling.")
                : tr("Check `sudo dmesg | grep -i xid` for GPU errors, stop processes using the GPU, then reboot. If it "
                     "recurs, reinstall the driver and check power and cooling."));
}

std::vector<Note> driver_library_mismatch(const Context& c) {
  if (!c.has_nvidia || c.nvml_status != nvml::ERROR_LIB_RM_VERSION_MISMATCH) return {};
  const auto& module = c.inv.nvidia.kernel_module_version;
  if (c.windows)
    return one(tr("The NVIDIA driver library and the driver Windows is running are different versions (typical right "
                  "after a driver update, before the restart)."),
               tr("Restart Windows (Start > Power > Restart; shutting down with Fast Startup on may not be enough)."));
  return one(module ? trf("The NVIDIA driver library and the loaded kernel module ({}) are different versions (typical "
                          "right after a driver upgrade).",
                          *module)
                    : tr("The NVIDIA driver library and the loaded kernel module are different versions (typical right "
                         "after a driver upgrade)."),
             tr("Reboot. (Or, with no process using the GPU: `sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && "
                "sudo modprobe nvidia`.)"));
}

std::vector<Note> nvidia_driver_not_loaded(const Context& c) {
  const auto& nv = c.inv.nvidia;
  // WSL has no nvidia kernel module: the Windows driver serves the GPU.
  // Windows has no kernel module to look at either: only NVML's own code says the driver is not running.
  const bool module_missing =
      nv.library_found && !nv.kernel_module_loaded && !c.inv.os.wsl && !c.windows && !nv.driver_version;
  if (!c.has_nvidia || (c.nvml_status != nvml::ERROR_DRIVER_NOT_LOADED && !module_missing)) return {};
  if (c.windows)
    return one(tr("The NVIDIA driver is installed but not running."),
               tr("Open Device Manager > Display adapters: a warning sign on the NVIDIA card means its driver failed "
                  "to start. Reinstall the driver from https://www.nvidia.com/Download/index.aspx (or the NVIDIA App), "
                  "then restart Windows."));
  return one(tr("The NVIDIA driver is installed but its kernel module is not loaded (often after a kernel update, or "
                "with Secure Boot blocking an unsigned module)."),
             tr("Run `sudo modprobe nvidia`. If that fails, rebuild the module for this kernel (`sudo dkms autoinstall` "
                "or reinstall the driver package), enrol its key if Secure Boot is on (`mokutil --sb-state`), then "
                "reboot."));
}

std::vector<Note> nvidia_driver_missing(const Context& c) {
  const auto& nv = c.inv.nvidia;
  // CUDA working without NVML (a container that mounts only libcuda) is a working driver.
  if (c.nvidia.empty() || nv.driver_version || c.inv.cuda.available) return {};
  if (!nv.library_found && c.windows)
    return one(tr("An NVIDIA GPU is present but no NVIDIA driver is installed (Windows shows it as a basic display "
                  "adapter)."),
               driver_install(c));
  if (!nv.library_found)
    return one(tr("An NVIDIA GPU is present but no NVIDIA driver is installed."), driver_install(c));
  if (!nv.error || c.nvml_status) return {};  // a failure with an NVML code is one of the rules around this one
  return one(trf("The NVIDIA driver could not be used: {}", nv.error->message),
             c.windows ? driver_install(c) : trf("Install or repair {} and reboot.", c.driver_hint));
}

std::vector<Note> nvml_error(const Context& c) {
  if (!c.has_nvidia || !c.nvml_status || !c.inv.nvidia.error) return {};
  return one(trf("NVML failed: {}", c.inv.nvidia.error->message),
             tr("Run `nvidia-smi` to see the same error; reinstall the driver if it persists."));
}

std::vector<Note> cuda_stub_library(const Context& c) {
  // The toolkit's stubs are Linux shared objects; on Windows they are import libraries nothing loads.
  if (c.cuda_status != cuda::ERROR_STUB_LIBRARY || c.windows) return {};
  const auto& path = c.inv.cuda.library_path;
  return one(tr("The libcuda.so.1 that loads is the CUDA toolkit's stub library, not the driver (error 34)."),
             path ? trf("Remove the toolkit's stubs folder from LD_LIBRARY_PATH (it loaded {}) so the driver's "
                        "libcuda.so.1 is found.",
                        *path)
                  : tr("Remove the toolkit's stubs folder from LD_LIBRARY_PATH so the driver's libcuda.so.1 is found."));
}

std::vector<Note> cuda_init_failed(const Context& c) {
  if (!c.has_nvidia || !c.cuda_status) return {};
  const int code = *c.cuda_status;
  if (code == cuda::ERROR_UNKNOWN && !c.inv.nvidia.uvm_loaded && !c.windows)
    return one(tr("CUDA cannot start (error 999): the nvidia_uvm kernel module is not loaded."),
               tr("Run `sudo modprobe nvidia_uvm` (and add it to /etc/modules-load.d/ so it loads at boot)."));
  // The codes with a rule of their own; any other failure is reported here rather than left unexplained.
  // On Windows the Linux-only rules (stub library, Fabric Manager, cuda-compat) stay silent, so this one speaks.
  const bool own_rule = code == cuda::ERROR_STUB_LIBRARY || code == cuda::ERROR_SYSTEM_NOT_READY ||
                        code == cuda::ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE;
  if (code == cuda::SUCCESS || code == cuda::ERROR_NO_DEVICE || (own_rule && !c.windows)) return {};
  const std::string message = c.inv.cuda.error ? c.inv.cuda.error->message : fmt::format("error {}", code);
  const bool mismatch = code == cuda::ERROR_SYSTEM_DRIVER_MISMATCH;
  if (c.windows)
    return one(trf("CUDA cannot start: {}", message),
               mismatch ? tr("The driver's parts differ (a driver update not finished): restart Windows.")
                        : tr("Check `nvidia-smi`, then restart Windows; if it persists, reinstall the driver from "
                             "https://www.nvidia.com/Download/index.aspx."));
  return one(trf("CUDA cannot start: {}", message),
             mismatch ? tr("The driver's user-space and kernel parts differ: reboot.")
                      : tr("Check `nvidia-smi`; if the GPU is in exclusive mode or lost, reset it (`sudo nvidia-smi -r`) "
                           "or reboot."));
}

std::vector<Note> fabric_manager(const Context& c) {
  // NVSwitch systems (HGX, DGX) and their Fabric Manager run Linux only.
  if (!cuda_failed_with(c, cuda::ERROR_SYSTEM_NOT_READY) || c.windows) return {};
  const auto& version = c.inv.nvidia.driver_version;
  return one(tr("CUDA reports the system is not ready (error 802): on NVSwitch machines (HGX/DGX) the NVIDIA Fabric "
                "Manager is not running."),
             version ? trf("Install nvidia-fabricmanager of exactly the driver's version ({}) and run `sudo systemctl "
                           "enable --now nvidia-fabricmanager`.",
                           *version)
                     : tr("Install nvidia-fabricmanager of exactly the driver's version (see nvidia-smi) and run `sudo "
                          "systemctl enable --now nvidia-fabricmanager`."));
}

// cuInit never says "driver too old" for the driver's own libcuda (that is the runtime's cudaErrorInsufficientDriver,
// 35, which torch reports). It does when the libcuda.so.1 that loads is a newer forward-compatibility copy
// (cuda-compat, common in containers) on a GPU that cannot use one: 804.
std::vector<Note> driver_too_old(const Context& c) {
  // cuda-compat exists for Linux only.
  if (!cuda_failed_with(c, cuda::ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE) || c.windows) return {};
  const auto& path = c.inv.cuda.library_path;
  return one(
      path ? trf("The NVIDIA driver is too old for this CUDA (error 804): the libcuda.so.1 that loads ({}) is a newer "
                 "copy from a CUDA forward-compatibility package (cuda-compat), and this GPU cannot use one (only "
                 "data-center GPUs can).",
                 *path)
           : tr("The NVIDIA driver is too old for this CUDA (error 804): the libcuda.so.1 that loads is a newer copy "
                "from a CUDA forward-compatibility package (cuda-compat), and this GPU cannot use one (only "
                "data-center GPUs can)."),
      trf("Update the driver to {}; or remove the cuda-compat folder from LD_LIBRARY_PATH so the driver's own "
          "libcuda.so.1 loads.",
          c.driver_hint));
}

namespace {

/// cuda-no-device where the environment is recorded: cuda-visible-devices-empty runs first and blocks, so here the
/// variable is unset or names a GPU, and the device nodes are the likely cause.
std::vector<Note> no_device_not_hidden(const Context& c, bool no_device) {
  const auto visible = c.env("CUDA_VISIBLE_DEVICES");
  if (c.windows)
    return one(tr("CUDA sees no device although the NVIDIA GPU is present."),
               tr("Check the card in Device Manager > Display adapters, and reinstall the driver from "
                  "https://www.nvidia.com/Download/index.aspx (choose a clean installation)."));
  std::string message = no_device ? tr("CUDA sees no device although the NVIDIA GPU is present (error 100): the device "
                                       "nodes are not accessible (a container started without the GPU).")
                                  : tr("CUDA sees no device although the NVIDIA GPU is present: the device nodes are "
                                       "not accessible (a container started without the GPU).");
  if (visible) message += " " + trf("CUDA_VISIBLE_DEVICES=\"{}\" names a GPU, so it is not what hides it.", *visible);
  return one(std::move(message), tr("Check that `ls -l /dev/nvidia*` lists the devices and that you may open them "
                                    "(group video or render); in Docker run with `--gpus all` (NVIDIA Container "
                                    "Toolkit)."));
}

}  // namespace

// CUDA counting no device while NVML or PCI sees the GPUs: CUDA_VISIBLE_DEVICES, or a container without them.
std::vector<Note> cuda_no_device(const Context& c) {
  const auto& cu = c.inv.cuda;
  const bool no_device = c.cuda_status == cuda::ERROR_NO_DEVICE;
  const bool counts_none = cu.library_found && !cu.error && !cu.timed_out && cu.device_count == 0;
  if (c.nvidia.empty() || (!no_device && !counts_none)) return {};
  if (c.env_recorded) return no_device_not_hidden(c, no_device);
  // An older inventory does not say whether CUDA_VISIBLE_DEVICES was set: both causes stay possible.
  if (c.windows)
    return one(tr("CUDA sees no device although the NVIDIA GPU is present: CUDA_VISIBLE_DEVICES may hide it."),
               tr("Check it in PowerShell with `echo $env:CUDA_VISIBLE_DEVICES` and remove it with `Remove-Item "
                  "Env:CUDA_VISIBLE_DEVICES` (and from Settings > System > About > Advanced system settings > "
                  "Environment Variables); check the card in Device Manager > Display adapters."));
  return one(no_device ? tr("CUDA sees no device although the NVIDIA GPU is present (error 100): CUDA_VISIBLE_DEVICES "
                            "may hide it, or the device nodes are not accessible (a container started without the GPU).")
                       : tr("CUDA sees no device although the NVIDIA GPU is present: CUDA_VISIBLE_DEVICES may hide it, "
                            "or the device nodes are not accessible (a container started without the GPU)."),
             tr("Check `echo $CUDA_VISIBLE_DEVICES` (unset it, or list valid indices or UUIDs), and in Docker run with "
                "`--gpus all` (NVIDIA Container Toolkit)."));
}

}  // namespace gpuscout::diagnose::checks
