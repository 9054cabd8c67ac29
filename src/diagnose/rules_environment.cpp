// Rules about the environment variables that change which GPUs a program sees and how it runs them
// (Inventory::environment, recorded by probe/environment.cpp).
#include <algorithm>

#include <fmt/format.h>

#include "core/i18n.hpp"
#include "core/text.hpp"
#include "diagnose/rule_checks.hpp"

namespace gpuscout::diagnose::checks {
namespace {

/// The step that removes a variable for the programs started next: the shell's, or PowerShell's on Windows, and a
/// notebook's (the variable is read when torch initialises CUDA, so it must change before `import torch`).
std::string unset_step(const Context& c, std::string_view name) {
  if (c.windows)
    return trf("In PowerShell run `Remove-Item Env:{0}` (and delete it under Settings > System > About > Advanced "
               "system settings > Environment Variables if it is set there), then start Python again.",
               name);
  return trf("Run `unset {0}` before starting Python, and remove the line that sets it from ~/.bashrc or your job "
             "script. In a notebook, run `import os; os.environ.pop(\"{0}\", None)` before `import torch` (restart "
             "the kernel first if torch is already imported).",
             name);
}

std::string gpu_label(const Gpu& g) {
  return g.pci_bus_id ? trf("{} at {}", g.name, *g.pci_bus_id) : g.name;
}

}  // namespace

std::vector<Note> cuda_visible_devices_empty(const Context& c) {
  const auto& v = c.cuda_visible;
  if (!v || v->nvidia_gpus == 0 || v->visible > 0) return {};
  return one(text::trim(v->value).empty()
                 ? trf("CUDA_VISIBLE_DEVICES is set to an empty value, which hides every GPU from CUDA: PyTorch sees "
                       "none of the {} NVIDIA GPU(s) the driver shows.",
                       v->nvidia_gpus)
                 : trf("CUDA_VISIBLE_DEVICES=\"{}\" names no GPU of this machine, which hides every GPU from CUDA: "
                       "PyTorch sees none of the {} NVIDIA GPU(s) the driver shows.",
                       v->value, v->nvidia_gpus),
             unset_step(c, "CUDA_VISIBLE_DEVICES") + " " +
                 (c.windows ? tr("Or choose the first GPU: `$env:CUDA_VISIBLE_DEVICES = \"0\"`.")
                            : tr("Or choose the first GPU: `export CUDA_VISIBLE_DEVICES=0` (in a notebook `%env "
                                 "CUDA_VISIBLE_DEVICES=0` before `import torch`).")));
}

std::vector<Note> cuda_visible_devices_hides(const Context& c) {
  const auto& v = c.cuda_visible;
  if (!v || v->visible == 0 || v->visible >= v->nvidia_gpus) return {};
  std::vector<std::string> gpus;
  for (const Gpu* g : v->hidden_gpus) gpus.push_back(gpu_label(*g));
  const std::string hidden = text::join(v->hidden, ", ");
  std::string message = v->hidden.empty()
                            ? trf("CUDA_VISIBLE_DEVICES=\"{}\" lets CUDA programs see {} of the {} NVIDIA GPUs.",
                                  v->value, v->visible, v->nvidia_gpus)
                        : gpus.empty()
                            ? trf("CUDA_VISIBLE_DEVICES=\"{}\" lets CUDA programs see {} of the {} NVIDIA GPUs; "
                                  "hidden: {}.",
                                  v->value, v->visible, v->nvidia_gpus, hidden)
                            : trf("CUDA_VISIBLE_DEVICES=\"{}\" lets CUDA programs see {} of the {} NVIDIA GPUs; "
                                  "hidden: {} ({}).",
                                  v->value, v->visible, v->nvidia_gpus, hidden, text::join(gpus, "; "));
  if (v->stopped_at)
    message += " " + trf("CUDA reads the list only up to \"{}\", which names no GPU.", *v->stopped_at);
  return one(std::move(message), tr("Nothing to do if you chose these GPUs on purpose (a shared machine, a job "
                                    "scheduler). To use every GPU: ") +
                                     unset_step(c, "CUDA_VISIBLE_DEVICES"));
}

// NVML lists every GPU the driver holds; CUDA leaves out one it cannot use (a GPU in a bad state after an Xid error,
// one that fell off the bus, a MIG-enabled GPU without MIG devices named). Without CUDA_VISIBLE_DEVICES to explain
// it, fewer CUDA devices than NVML GPUs is a GPU a job silently does not get. None at all is cuda-no-device's case.
std::vector<Note> cuda_count_mismatch(const Context& c) {
  const auto& cu = c.inv.cuda;
  if (!cu.available || cu.timed_out || cu.error || cu.device_count == 0 || c.nvidia.empty()) return {};
  int nvml = 0;
  std::vector<std::string> missing;
  for (const auto& f : c.nvidia) {
    if (!f.gpu->nvml_index) continue;
    ++nvml;
    if (!f.gpu->cuda_index) missing.push_back(gpu_label(*f.gpu));
  }
  const int expected = c.cuda_visible ? std::min(nvml, c.cuda_visible->visible) : nvml;
  if (cu.device_count >= expected) return {};
  std::string message = trf("CUDA sees {} GPU(s) but the driver (NVML, as nvidia-smi) shows {}", cu.device_count, nvml);
  if (c.cuda_visible) message += trf(", and CUDA_VISIBLE_DEVICES=\"{}\" lets {} through", c.cuda_visible->value,
                                     c.cuda_visible->visible);
  message += missing.empty() ? std::string(".") : trf(": missing from CUDA: {}.", text::join(missing, "; "));
  return one(std::move(message),
             c.windows ? tr("Run `nvidia-smi` and look for a GPU marked ERR! or in a bad state; restart Windows, and "
                            "if the GPU stays missing have the card checked.")
                       : tr("Run `nvidia-smi` and `sudo dmesg | grep -i xid` on this machine: a GPU with an Xid error "
                            "or one that fell off the bus needs a reset (`sudo nvidia-smi -r -i N`, no process may use "
                            "it) or a reboot; if it stays missing, have the card serviced."));
}

// CUDA numbers GPUs fastest first; nvidia-smi (NVML) by PCI bus. The CUDA probe ran with the recorded environment,
// so its indices against NVML's say whether the two orders differ on this machine.
std::vector<Note> cuda_device_order(const Context& c) {
  if (!c.env_recorded || c.env("CUDA_DEVICE_ORDER") || c.cuda_visible) return {};
  std::vector<std::string> moved;
  int both = 0;
  for (const auto& f : c.nvidia) {
    const Gpu& g = *f.gpu;
    if (!g.cuda_index || !g.nvml_index) continue;
    ++both;
    if (*g.cuda_index != *g.nvml_index)
      moved.push_back(trf("cuda:{} is nvidia-smi's GPU {} ({})", *g.cuda_index, *g.nvml_index, g.name));
  }
  if (both < 2 || moved.empty()) return {};
  return one(trf("CUDA numbers these GPUs fastest first, nvidia-smi in PCI bus order, so the numbers differ: {}.",
                 text::join(moved, "; ")),
             c.windows ? tr("To number them as nvidia-smi does, set CUDA_DEVICE_ORDER=PCI_BUS_ID before starting "
                            "Python (PowerShell: `$env:CUDA_DEVICE_ORDER = \"PCI_BUS_ID\"`), or choose GPUs by UUID.")
                       : tr("To number them as nvidia-smi does, start programs with `export "
                            "CUDA_DEVICE_ORDER=PCI_BUS_ID` (in a notebook: `%env CUDA_DEVICE_ORDER=PCI_BUS_ID` before "
                            "`import torch`), or choose GPUs by UUID."));
}

std::vector<Note> cuda_launch_blocking(const Context& c) {
  const auto value = c.env("CUDA_LAUNCH_BLOCKING");
  if (c.nvidia.empty() || !value || text::trim(*value) != "1") return {};
  return one(tr("CUDA_LAUNCH_BLOCKING=1 is set: every kernel launch waits until the GPU has finished it, which makes "
                "training much slower. It is meant for finding which line raised a CUDA error."),
             tr("Unless you are debugging a CUDA error: ") +
                 unset_step(c, "CUDA_LAUNCH_BLOCKING"));
}

}  // namespace gpuscout::diagnose::checks
