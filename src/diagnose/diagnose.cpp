#include "diagnose/diagnose.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "catalog/catalog.hpp"
#include "core/data_files.hpp"
#include "core/units.hpp"
#include "core/version.hpp"

namespace gpuscout::diagnose {
namespace {

constexpr uint64_t kLowVram = 6 * units::GiB;
constexpr uint64_t kLowRam = 8 * units::GiB;
constexpr uint64_t kLowDisk = 20 * units::GiB;

std::string platform_key(const Inventory& inv) {
  if (inv.cpu.arch == "aarch64") return "linux-aarch64";
  return "linux-x86_64";
}

std::vector<const Gpu*> nvidia_gpus(const Inventory& inv) {
  std::vector<const Gpu*> out;
  for (const auto& g : inv.gpus)
    if (g.vendor == "nvidia") out.push_back(&g);
  return out;
}

std::optional<Version> driver_version(const Inventory& inv) {
  if (inv.nvidia.driver_version) return Version::parse(*inv.nvidia.driver_version);
  if (inv.nvidia.kernel_module_version) return Version::parse(*inv.nvidia.kernel_module_version);
  return std::nullopt;
}

// Releases in the table, newest first.
std::vector<std::string> torch_releases() {
  std::vector<std::string> out;
  for (const auto& b : catalog::torch_builds())
    if (std::find(out.begin(), out.end(), b.torch) == out.end()) out.push_back(b.torch);
  std::sort(out.begin(), out.end(), [](const std::string& a, const std::string& b) {
    return *Version::parse(b) < *Version::parse(a);
  });
  return out;
}

bool build_runs_all(const catalog::TorchBuild& b, const std::vector<std::string>& ccs) {
  for (const auto& cc : ccs)
    if (!catalog::arch_list_runs(b.arch_list, b.ptx, cc)) return false;
  return true;
}

std::string pip_command(const std::string& torch, const std::optional<std::string>& cuda) {
  const std::string variant = cuda ? "cu" + std::string(cuda->begin(), cuda->end()) : "cpu";
  std::string tag;
  for (char c : variant)
    if (c != '.') tag += c;
  return fmt::format("pip install \"torch=={}.*\" --index-url https://download.pytorch.org/whl/{}", torch, tag);
}

bool torch_build_runs(const TorchInfo& t, const std::string& cc) {
  // The runtime arch list is the truth; "sm_90" entries are cubins, "compute_90" PTX.
  return catalog::arch_list_runs(t.arch_list, std::nullopt, cc);
}

std::string free_gpu_steps() {
  std::vector<std::string> lines;
  auto table = core::load_table("platforms.csv");
  if (table) {
    for (const auto& r : table->rows()) {
      if (table->cell(r, "kind") != "free") continue;
      lines.push_back(fmt::format("{} ({}): {}", table->cell(r, "provider"), table->cell(r, "gpu"), table->cell(r, "steps")));
      if (lines.size() >= 3) break;
    }
  }
  if (lines.empty()) lines.push_back("Google Colab: Runtime > Change runtime type > T4 GPU");
  return fmt::format("Use a free cloud GPU: {}. Or rent one by the hour: see `gpuscout platforms`.", fmt::join(lines, "; "));
}

}  // namespace

TorchChoice choose_torch(const Inventory& inv) {
  std::vector<std::string> ccs;
  for (const auto* g : nvidia_gpus(inv))
    if (g->compute_capability) ccs.push_back(*g->compute_capability);
  const auto driver = driver_version(inv);
  const std::string platform = platform_key(inv);
  const auto releases = torch_releases();
  TorchChoice choice;
  if (ccs.empty()) {
    choice.torch = releases.empty() ? "2" : releases.front();
    choice.command = "pip install torch --index-url https://download.pytorch.org/whl/cpu";
    return choice;
  }
  for (const auto& release : releases) {
    // Candidates: stable CUDA variants of this release that run every GPU, newest CUDA first.
    std::vector<const catalog::TorchBuild*> fits;
    for (const auto& b : catalog::torch_builds())
      if (b.torch == release && b.platform == platform && b.cuda && b.channel == "stable" && build_runs_all(b, ccs))
        fits.push_back(&b);
    if (fits.empty()) continue;
    std::sort(fits.begin(), fits.end(), [](const auto* a, const auto* b) {
      return *Version::parse(*b->cuda) < *Version::parse(*a->cuda);
    });
    const catalog::TorchBuild* chosen = nullptr;
    if (driver) {
      for (const auto* b : fits) {
        const auto need = catalog::min_driver_for_cuda(*b->cuda);
        if (!need || *driver >= *need) {
          chosen = b;
          break;
        }
      }
    }
    if (!chosen && driver) {
      // CUDA minor-version compatibility: a 12.x wheel runs on any driver of the 12.x family floor (525+).
      for (const auto* b : fits) {
        for (const auto& row : catalog::cuda_drivers())
          if (row.cuda == *b->cuda && row.family_min_driver && *driver >= *row.family_min_driver) chosen = b;
        if (chosen) break;
      }
    }
    if (!chosen) {
      chosen = fits.front();
      if (const auto need = catalog::min_driver_for_cuda(*chosen->cuda)) choice.driver_needed = need->str();
    }
    choice.torch = release;
    choice.cuda = chosen->cuda;
    choice.command = pip_command(release, chosen->cuda);
    return choice;
  }
  choice.torch = "";
  choice.command = "";
  return choice;
}

std::string best_device(const Inventory& inv) {
  // The CUDA ordinal is what torch uses; among GPUs CUDA can run, the one with most free memory.
  const Gpu* best = nullptr;
  for (const auto& g : inv.gpus) {
    if (g.vendor != "nvidia" || !g.cuda_index) continue;
    if (inv.torch && inv.torch->cuda && g.compute_capability && !inv.torch->arch_list.empty() &&
        !torch_build_runs(*inv.torch, *g.compute_capability))
      continue;
    const uint64_t free = g.memory_free_bytes.value_or(g.memory_total_bytes.value_or(0));
    if (!best || free > best->memory_free_bytes.value_or(best->memory_total_bytes.value_or(0))) best = &g;
  }
  if (!best || !inv.cuda.available) return "cpu";
  if (inv.torch && (!inv.torch->cuda || !inv.torch->cuda_available)) return "cpu";
  return fmt::format("cuda:{}", *best->cuda_index);
}

Verdict diagnose(const Inventory& inv) {
  Verdict v;
  auto add = [&](std::string code, std::string severity, std::string message, std::string fix) {
    v.findings.push_back(Finding{std::move(code), std::move(severity), std::move(message), std::move(fix)});
  };
  const auto nvidia = nvidia_gpus(inv);
  std::vector<const Gpu*> others;
  for (const auto& g : inv.gpus)
    if (g.vendor != "nvidia") others.push_back(&g);
  const TorchChoice torch_choice = choose_torch(inv);
  const auto driver = driver_version(inv);
  bool blocked = false;  // an NVIDIA GPU is there but something stops CUDA PyTorch from using it
  bool usable_gpu = false;

  // --- Driver state (only when there is an NVIDIA GPU, or a driver that says so) ---
  const bool has_nvidia = !nvidia.empty() || inv.nvidia.library_found;
  const int nvml_code = inv.nvidia.error && inv.nvidia.error->code ? *inv.nvidia.error->code : -1;
  const int cuda_code = inv.cuda.error && inv.cuda.error->code ? *inv.cuda.error->code : -1;
  bool nouveau = inv.nvidia.nouveau_loaded && !inv.nvidia.kernel_module_loaded;
  for (const auto* g : nvidia)
    if (g->kernel_driver && *g->kernel_driver == "nouveau") nouveau = true;
  const std::string driver_hint = torch_choice.cuda
                                      ? fmt::format("a driver of at least {} (for CUDA {} PyTorch wheels)",
                                                    catalog::min_driver_for_cuda(*torch_choice.cuda).value_or(Version()).str(),
                                                    *torch_choice.cuda)
                                      : std::string("the current NVIDIA driver");
  if (!nvidia.empty() && nouveau) {
    blocked = true;
    add("nouveau-driver", "error",
        "The open-source nouveau driver holds the NVIDIA GPU: it has no CUDA, so PyTorch cannot use the card.",
        fmt::format("Install the NVIDIA driver ({}): on Ubuntu `sudo ubuntu-drivers install`, on Debian `sudo apt install "
                    "nvidia-driver`; the package blacklists nouveau. Then reboot.",
                    driver_hint));
  } else if (inv.nvidia.timed_out || inv.cuda.timed_out) {
    blocked = true;
    add("driver-probe-timeout", "error",
        "The NVIDIA driver did not answer within the time limit: the GPU or driver is hung (nvidia-smi would hang too).",
        "Check `sudo dmesg | grep -i xid` for GPU errors, stop processes using the GPU, then reboot. If it recurs, "
        "reinstall the driver and check power and cooling.");
  } else if (has_nvidia && nvml_code == 18) {
    blocked = true;
    add("driver-library-mismatch", "error",
        fmt::format("The NVIDIA driver library and the loaded kernel module are different versions{} (typical right after "
                    "a driver upgrade).",
                    inv.nvidia.kernel_module_version ? " (kernel module " + *inv.nvidia.kernel_module_version + ")" : ""),
        "Reboot. (Or, with no process using the GPU: sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia.)");
  } else if (has_nvidia && (nvml_code == 9 || (inv.nvidia.library_found && !inv.nvidia.kernel_module_loaded && !inv.os.wsl &&
                                               !inv.nvidia.driver_version))) {
    blocked = true;
    add("nvidia-driver-not-loaded", "error",
        "The NVIDIA driver is installed but its kernel module is not loaded (often after a kernel update, or with "
        "Secure Boot blocking an unsigned module).",
        "Run `sudo modprobe nvidia`. If that fails, rebuild the module for this kernel (`sudo dkms autoinstall` or reinstall "
        "the driver package), enrol its key if Secure Boot is on (`mokutil --sb-state`), then reboot.");
  } else if (!nvidia.empty() && !inv.nvidia.library_found && !inv.nvidia.driver_version && !inv.cuda.available) {
    blocked = true;
    add("nvidia-driver-missing", "error", "An NVIDIA GPU is present but no NVIDIA driver is installed.",
        fmt::format("Install {}: Ubuntu `sudo ubuntu-drivers install`; Debian `sudo apt install nvidia-driver`; "
                    "other systems: the driver from nvidia.com. Then reboot.",
                    driver_hint));
  } else if (has_nvidia && inv.nvidia.error && nvml_code < 0 && !inv.nvidia.driver_version && !nvidia.empty() &&
             !inv.cuda.available) {
    blocked = true;
    add("nvidia-driver-missing", "error", "The NVIDIA driver could not be used: " + inv.nvidia.error->message,
        fmt::format("Install or repair {} and reboot.", driver_hint));
  } else if (has_nvidia && nvml_code >= 0) {
    add("nvml-error", "warning", fmt::format("NVML failed: {}", inv.nvidia.error->message),
        "Run `nvidia-smi` to see the same error; reinstall the driver if it persists.");
  }

  // CUDA driver API failures, with the usual causes. A stub libcuda is its own cause, whatever NVML says.
  if (cuda_code == 34) {
      blocked = true;
      add("cuda-stub-library", "error",
          "The libcuda.so.1 that loads is the CUDA toolkit's stub library, not the driver (error 34).",
          fmt::format("Remove the toolkit's stubs folder from LD_LIBRARY_PATH{} so the driver's libcuda.so.1 is found.",
                      inv.cuda.library_path ? " (it loaded " + *inv.cuda.library_path + ")" : ""));
  }
  if (!blocked && has_nvidia && cuda_code >= 0) {
    const int c = cuda_code;
    if (c == 999 && !inv.nvidia.uvm_loaded) {
      blocked = true;
      add("cuda-init-failed", "error", "CUDA cannot start (error 999): the nvidia_uvm kernel module is not loaded.",
          "Run `sudo modprobe nvidia_uvm` (and add it to /etc/modules-load.d/ so it loads at boot).");
    } else if (c == 802) {
      blocked = true;
      add("fabric-manager", "error",
          "CUDA reports the system is not ready (error 802): on NVSwitch machines (HGX/DGX) the NVIDIA Fabric Manager is not running.",
          fmt::format("Install nvidia-fabricmanager of exactly the driver's version ({}) and run `sudo systemctl enable --now "
                      "nvidia-fabricmanager`.",
                      inv.nvidia.driver_version.value_or("see nvidia-smi")));
    } else if (c == 35) {
      blocked = true;
      add("driver-too-old", "error", "The NVIDIA driver is too old for this CUDA (error 35).",
          fmt::format("Update the driver to {}.", driver_hint));
    } else if (c == 100) {
      if (!nvidia.empty()) {
        blocked = true;
        add("cuda-no-device", "error",
            "CUDA sees no device although the GPU is present (error 100): CUDA_VISIBLE_DEVICES may hide it, or the "
            "device nodes are not accessible (a container started without the GPU).",
            "Check `echo $CUDA_VISIBLE_DEVICES` (unset it), and in Docker run with `--gpus all` (NVIDIA Container Toolkit).");
      }
    } else if (c == 3 || c == 999 || c == 803 || c == 46) {
      blocked = true;
      add("cuda-init-failed", "error", fmt::format("CUDA cannot start: {}", inv.cuda.error->message),
          c == 803 ? "The driver's user-space and kernel parts differ: reboot." :
          "Check `nvidia-smi`; if the GPU is in exclusive mode or lost, reset it (`sudo nvidia-smi -r`) or reboot.");
    }
  }

  // CUDA starts but counts no device while NVML sees GPUs: CUDA_VISIBLE_DEVICES (or a container's device list)
  // hides them.
  if (!blocked && !nvidia.empty() && inv.cuda.library_found && !inv.cuda.error && !inv.cuda.timed_out &&
      inv.cuda.device_count == 0) {
    blocked = true;
    add("cuda-no-device", "error",
        "CUDA reports no device although NVIDIA GPUs are present: CUDA_VISIBLE_DEVICES (or the container's device "
        "list) hides them.",
        "Check `echo $CUDA_VISIBLE_DEVICES` (unset it, or list valid indices or UUIDs), and in Docker run with "
        "`--gpus all` (NVIDIA Container Toolkit).");
  }

  // --- Per-GPU compatibility ---
  std::vector<std::string> arch_notes;
  for (const auto* g : nvidia) {
    if (!g->compute_capability) continue;
    const std::string& cc = *g->compute_capability;
    // Can any current release run it? (the newest release in the table)
    const auto releases = torch_releases();
    bool current = false;
    std::optional<std::string> last_release;
    std::optional<std::string> last_cuda;
    for (const auto& release : releases) {
      for (const auto& b : catalog::torch_builds()) {
        if (b.torch != release || !b.cuda || b.platform != platform_key(inv)) continue;
        if (catalog::arch_list_runs(b.arch_list, b.ptx, cc)) {
          if (release == releases.front()) current = true;
          if (!last_release) {
            last_release = release;
            last_cuda = b.cuda;
          }
        }
      }
      if (last_release) break;
    }
    if (!current) {
      blocked = true;
      add("gpu-too-old", "error",
          fmt::format("GPU {} ({}, compute capability {}) is too old for current PyTorch builds{}.", g->index, g->name, cc,
                      last_release ? ", whose last release for it is " + *last_release : ""),
          last_release ? fmt::format("Use an older PyTorch: {} (needs a driver that supports CUDA {}), or a free cloud GPU "
                                     "(Colab, Kaggle).",
                                     pip_command(*last_release, last_cuda), *last_cuda)
                       : std::string("Use a free cloud GPU (Colab, Kaggle) or a newer card."));
      continue;
    }
    if (inv.torch && inv.torch->cuda && !inv.torch->arch_list.empty() && !torch_build_runs(*inv.torch, cc)) {
      blocked = true;
      add("gpu-unsupported-by-torch", "error",
          fmt::format("The installed PyTorch {} was built for {} and has no code for GPU {} ({}, sm_{}).", inv.torch->version,
                      fmt::join(inv.torch->arch_list, " "), g->index, g->name, fmt::format("{}", cc).erase(cc.find('.'), 1)),
          fmt::format("Install a build that supports it: {}", torch_choice.command));
      continue;
    }
    if (g->memory_total_bytes && *g->memory_total_bytes < kLowVram) {
      add("low-vram", "warning",
          fmt::format("GPU {} ({}) has {} of memory: enough to learn on, too small for most current models.", g->index,
                      g->name, units::format_bytes(*g->memory_total_bytes)),
          "Use small batches, fp16/bf16 (torch.autocast), 4-bit models for LLMs, or a free cloud GPU with 16 GB (Colab T4, "
          "Kaggle). See `gpuscout fit`.");
    }
  }

  // --- PyTorch ---
  const bool gpu_works = !nvidia.empty() && !blocked && (inv.cuda.available || inv.nvidia.driver_version);
  if (inv.python.probed) {
    if (!inv.torch && inv.python.error && inv.python.torch_installed) {
      add("torch-broken", "error", "PyTorch is installed but fails to import: " + inv.python.error->message,
          "Reinstall it: pip uninstall torch && " + torch_choice.command);
    } else if (!inv.torch && inv.python.version) {
      add("torch-missing", "info", fmt::format("PyTorch is not installed for {}.", inv.python.executable.value_or("python3")),
          "Install the build that fits this machine: " + torch_choice.command);
    } else if (!inv.torch && !inv.python.version) {
      add("python-missing", "info", "No Python interpreter found (python3), so PyTorch could not be checked.",
          "Install Python 3 (e.g. `sudo apt install python3 python3-venv`), then: " + torch_choice.command);
    }
  }
  if (inv.torch && !nvidia.empty()) {
    const auto& t = *inv.torch;
    if (!t.cuda && !t.hip) {
      blocked = blocked || gpu_works;
      add("torch-cpu-only", "error",
          fmt::format("The installed PyTorch {} is a CPU-only build: it cannot use the NVIDIA GPU.", t.version),
          "Replace it: pip uninstall torch && " + torch_choice.command);
    } else if (t.cuda && driver) {
      const auto torch_cuda = Version::parse(*t.cuda);
      const auto family = catalog::cuda_drivers();
      std::optional<Version> family_min;
      for (const auto& row : family)
        if (torch_cuda && Version::parse(row.cuda) && Version::parse(row.cuda)->major() == torch_cuda->major())
          family_min = row.family_min_driver;
      const auto ga_min = catalog::min_driver_for_cuda(torch_cuda ? torch_cuda->major_minor() : "");
      const bool below_family = family_min && *driver < *family_min;
      const bool driver_cuda_older = inv.nvidia.cuda_driver_version && torch_cuda &&
                                     Version::parse(*inv.nvidia.cuda_driver_version)->major() < torch_cuda->major();
      if (below_family || driver_cuda_older) {
        blocked = true;
        add("driver-too-old-for-torch", "error",
            fmt::format("PyTorch {} is built with CUDA {}, which needs NVIDIA driver {} or newer; this driver is {}{}.",
                        t.version, *t.cuda, (ga_min ? *ga_min : *family_min).str(), driver->str(),
                        inv.nvidia.cuda_driver_version ? " (supports CUDA up to " + *inv.nvidia.cuda_driver_version + ")" : ""),
            fmt::format("Update the driver to {} or newer, or install a PyTorch built for your driver: {}",
                        (ga_min ? *ga_min : *family_min).str(), choose_torch(inv).command));
      } else if (ga_min && *driver < *ga_min) {
        add("driver-older-than-torch-cuda", "info",
            fmt::format("The driver {} is older than CUDA {}'s own minimum ({}); PyTorch runs through CUDA's minor-version "
                        "compatibility, without JIT for newer GPUs' PTX.",
                        driver->str(), *t.cuda, ga_min->str()),
            fmt::format("Update the driver to {} or newer when convenient.", ga_min->str()));
      }
    }
    if (t.cuda && !t.cuda_available && !blocked && gpu_works) {
      blocked = true;
      add("torch-cuda-unavailable", "error",
          fmt::format("PyTorch {} reports torch.cuda.is_available() == False{}.", t.version,
                      t.warnings.empty() ? "" : ": " + t.warnings.front()),
          "Run `python3 -c \"import torch; torch.cuda.init()\"` to see the error; reinstall with: " + torch_choice.command);
    }
    for (const auto& w : t.warnings) {
      if (w.find("not compatible") != std::string::npos && std::none_of(v.findings.begin(), v.findings.end(), [](const Finding& f) {
            return f.code == "gpu-unsupported-by-torch";
          })) {
        blocked = true;
        add("gpu-unsupported-by-torch", "error", "PyTorch warns: " + w.substr(0, 300),
            "Install a build that supports this GPU: " + torch_choice.command);
      }
    }
  }

  // --- No NVIDIA GPU ---
  if (nvidia.empty() && !blocked) {
    if (others.empty()) {
      add("no-gpu", "warning", "No GPU found on this machine: PyTorch will run on the CPU, fine for learning small models.",
          free_gpu_steps());
    } else {
      for (const auto* g : others) {
        std::string fix;
        if (g->vendor == "amd") {
          fix = inv.os.wsl ? "AMD GPUs under WSL: PyTorch's ROCm builds need native Linux; on Windows use "
                             "torch-directml (pip install torch-directml), or a cloud GPU."
                           : "On Linux, install PyTorch's ROCm build (pip install torch --index-url "
                             "https://download.pytorch.org/whl/rocm6.4) if your card is on AMD's ROCm support list "
                             "(Radeon RX 7900 series, Instinct); check with `rocminfo`.";
        } else if (g->vendor == "intel") {
          fix = "Intel GPUs run PyTorch through the XPU build: pip install torch --index-url "
                "https://download.pytorch.org/whl/xpu (Arc and Data Center GPU Max; integrated graphics are slow for training).";
        } else if (g->vendor == "apple") {
          fix = "Apple GPUs work through PyTorch's MPS backend on macOS: torch.device(\"mps\").";
        } else {
          fix = "CUDA builds of PyTorch need an NVIDIA GPU; check the vendor's own PyTorch port.";
        }
        add("no-nvidia-gpu", "warning",
            fmt::format("GPU {} ({}) is not an NVIDIA GPU: CUDA builds of PyTorch cannot use it.", g->index, g->name), fix);
      }
      add("no-gpu", "info", "No GPU that CUDA PyTorch can use.", free_gpu_steps());
    }
  }

  // --- Several GPUs ---
  if (nvidia.size() > 1) {
    uint64_t lo = UINT64_MAX, hi = 0;
    for (const auto* g : nvidia)
      if (g->memory_total_bytes) {
        lo = std::min(lo, *g->memory_total_bytes);
        hi = std::max(hi, *g->memory_total_bytes);
      }
    if (hi > 0 && lo != UINT64_MAX && double(hi) > double(lo) * 1.05) {
      add("mixed-vram", "warning",
          fmt::format("The GPUs have different memory ({} to {}): data-parallel training keeps a full copy per GPU, so "
                      "every GPU is limited to the smallest.",
                      units::format_bytes(lo), units::format_bytes(hi)),
          "Plan batch sizes for the smallest card, shard with FSDP/ZeRO-3 to spread model state, or train on the large GPU "
          "alone (CUDA_VISIBLE_DEVICES). `gpuscout fit --gpus` shows each GPU's share.");
    }
  }

  // --- Machine ---
  if (inv.memory.total_bytes && *inv.memory.total_bytes < kLowRam) {
    add("low-ram", "warning",
        fmt::format("Only {} of RAM: data loading and model loading (a checkpoint passes through RAM) will struggle.",
                    units::format_bytes(*inv.memory.total_bytes)),
        "Use fewer DataLoader workers, load checkpoints with mmap (torch.load(..., mmap=True)), add swap, or use a cloud machine.");
  }
  for (const auto& d : inv.disks) {
    const bool matters = d.mount == "/" || d.mount == "/home" || d.mount == "/content" || d.mount == "/kaggle/working" ||
                         d.mount == "/workspace";
    if (matters && d.free_bytes < kLowDisk) {
      add("low-disk", "warning",
          fmt::format("{} has only {} free: datasets, model checkpoints and the PyTorch wheels (several GB) need room.",
                      d.mount, units::format_bytes(d.free_bytes)),
          fmt::format("Free space on {} (pip cache: `pip cache purge`; Hugging Face cache: ~/.cache/huggingface) or store data on a larger disk.",
                      d.mount));
    }
  }
  if (inv.platform.laptop) {
    add("laptop", "info",
        "This is a laptop: its GPU cannot be upgraded, and laptop GPUs run slower than the desktop cards of the same name.",
        "Train plugged in, on a hard surface; for larger jobs use a cloud GPU (see `gpuscout platforms`).");
  }
  if (inv.platform.notebook) {
    add("cloud-notebook", "info",
        fmt::format("Running in {}: a hosted notebook with usage limits; files outside persistent storage vanish when the "
                    "session ends.",
                    *inv.platform.notebook == "colab" ? "Google Colab" : "Kaggle"),
        *inv.platform.notebook == "colab"
            ? "Save checkpoints to Google Drive (from google.colab import drive; drive.mount('/content/drive')); if no GPU "
              "shows, Runtime > Change runtime type > T4 GPU."
            : "Save outputs under /kaggle/working; enable a GPU in Settings > Accelerator (weekly quota).");
  }

  usable_gpu = !nvidia.empty() && !blocked && (inv.cuda.available || (inv.nvidia.driver_version && !inv.cuda.error));
  if (usable_gpu) v.status = "ready";
  else if (blocked) v.status = "needs-action";
  else v.status = "cpu-only";
  v.device = usable_gpu ? best_device(inv) : "cpu";
  if (!torch_choice.command.empty()) v.pip_install = torch_choice.command;
  // Errors first, then warnings, then information; stable within a severity.
  auto rank = [](const std::string& s) { return s == "error" ? 0 : s == "warning" ? 1 : 2; };
  std::stable_sort(v.findings.begin(), v.findings.end(),
                   [&](const Finding& a, const Finding& b) { return rank(a.severity) < rank(b.severity); });
  return v;
}

nlohmann::ordered_json to_json(const Verdict& v) {
  nlohmann::ordered_json j;
  j["status"] = v.status;
  j["device"] = v.device;
  j["pip_install"] = v.pip_install ? nlohmann::ordered_json(*v.pip_install) : nlohmann::ordered_json(nullptr);
  j["findings"] = nlohmann::ordered_json::array();
  for (const auto& f : v.findings)
    j["findings"].push_back({{"code", f.code}, {"severity", f.severity}, {"message", f.message}, {"fix", f.fix}});
  return j;
}

}  // namespace gpuscout::diagnose
