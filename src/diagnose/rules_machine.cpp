// Rules about machines without an NVIDIA GPU, machines with several, and the machine itself (RAM, disk, kind).
#include <algorithm>
#include <cstdint>
#include <map>

#include <fmt/format.h>

#include "core/data_files.hpp"
#include "core/i18n.hpp"
#include "core/text.hpp"
#include "core/units.hpp"
#include "diagnose/rule_checks.hpp"
#include "diagnose/torch_choice.hpp"

namespace gpuscout::diagnose::checks {
namespace {

constexpr uint64_t kLowRam = 8 * units::GiB;
constexpr uint64_t kLowDisk = 20 * units::GiB;
// DataLoader workers hand each batch over through /dev/shm; Docker's default of 64 MiB ends them with "bus error".
constexpr uint64_t kSmallShm = units::GiB;
// Another job holding the GPU: busy most of the time, or half of its memory taken.
constexpr int kBusyPercent = 80;
constexpr double kTakenShare = 0.5;

/// The first free cloud GPUs of data/platforms.csv, with their steps (or their address where the table gives no
/// steps). In Chinese, China's own platforms come first: Colab and Kaggle need Google, which the mainland cannot
/// reach.
std::string free_gpu_steps() {
  std::vector<std::string> lines;
  if (auto table = core::load_table("platforms.csv")) {
    std::vector<const csv::Row*> free;
    for (const auto& r : table->rows())
      if (table->cell(r, "kind") == "free") free.push_back(&r);
    if (i18n::current() == i18n::Language::zh)
      std::stable_partition(free.begin(), free.end(), [&](const csv::Row* r) { return table->cell(*r, "region") == "cn"; });
    for (const csv::Row* r : free) {
      const std::string_view steps = table->cell(*r, "steps");
      lines.push_back(fmt::format("{} ({}): {}", table->cell(*r, "provider"), table->cell(*r, "gpu"),
                                  steps.empty() ? std::string(table->cell(*r, "url")) : tr(steps)));
      if (lines.size() >= 3) break;
    }
  }
  if (lines.empty()) lines.push_back(tr("Google Colab: Runtime > Change runtime type > T4 GPU"));
  // TRANSLATORS: the separator between the platforms of a list.
  const std::string separator = tr("; ");
  return trf("Use a free cloud GPU: {}. Or rent one by the hour: see `gpuscout platforms`.",
             fmt::format("{}", fmt::join(lines, separator)));
}

/// The ROCm build's install step for an AMD GPU: the chosen wheel when one has its gfx target, else why not.
std::string amd_fix(const Context& c, const Gpu& g) {
  // PyTorch publishes its ROCm wheels for Linux only (PT-MATRIX: no ROCm in the Windows matrix).
  if (c.windows)
    return tr("PyTorch has no ROCm build for Windows, so it cannot use this card here. Your options: WSL2 with AMD's "
              "ROCm for WSL, which supports only some Radeon cards (check AMD's WSL support list for yours); "
              "torch-directml (`pip install torch-directml`), which runs PyTorch through DirectX 12; the CPU build "
              "(the install command above); or a cloud GPU (see `gpuscout platforms`).");
  if (c.inv.os.wsl)
    return tr("AMD GPUs under WSL: PyTorch's ROCm builds need native Linux; on Windows use torch-directml (`pip "
              "install torch-directml`), or a cloud GPU.");
  const auto& targets = c.torch_choice.backend_arch_list;
  if (c.torch_choice.index && c.torch_choice.index->starts_with("rocm") && g.gfx_target &&
      std::find(targets.begin(), targets.end(), *g.gfx_target) != targets.end())
    return trf("Install PyTorch's ROCm build, which has code for this card ({}): {}", *g.gfx_target,
               text::code(c.torch_choice.command));
  const auto newest = newest_backend_index("rocm");
  const std::string index = newest ? *newest : "rocm";
  if (g.gfx_target)
    return trf("PyTorch's ROCm builds have no code for this card's {}: it cannot use it (setting "
               "HSA_OVERRIDE_GFX_VERSION to a listed target works only for a close relative of it, at your risk). "
               "Use the CPU, or a cloud GPU: see `gpuscout platforms`.",
               *g.gfx_target);
  return trf("Install AMD's ROCm driver, then check the card's gfx name with `rocminfo`; if it is one PyTorch's ROCm "
             "build lists (Radeon RX 7900 and 9070 series, Instinct), install it: `pip install torch --index-url "
             "https://download.pytorch.org/whl/{}`",
             index);
}

std::string other_vendor_fix(const Context& c, const Gpu& g) {
  if (g.vendor == "amd") return amd_fix(c, g);
  if (g.vendor == "intel") {
    if (c.torch_choice.index == "xpu") return trf("Intel GPUs run PyTorch through its XPU build: {}", text::code(c.torch_choice.command));
    return tr("PyTorch's XPU build supports Intel Arc, Core Ultra with Arc graphics and Data Center GPU Max, not this "
              "GPU: PyTorch runs on the CPU here.");
  }
  if (g.vendor == "apple") return tr("Apple GPUs work through PyTorch's MPS backend on macOS: `torch.device(\"mps\")`.");
  return tr("CUDA builds of PyTorch need an NVIDIA GPU; check the vendor's own PyTorch port.");
}

/// The folders a learner's data and checkpoints land in; on Windows the system drive, where the user's profile,
/// pip's cache and Python live.
bool mount_matters(const Context& c, const std::string& mount) {
  if (c.windows) return mount == "C:\\" || mount == "C:" || mount == "c:\\" || mount == "c:";
  return mount == "/" || mount == "/home" || mount == "/content" || mount == "/kaggle/working" || mount == "/workspace";
}

/// A hosted notebook's working folder with a fixed quota (Kaggle's /kaggle/working: 20 GB): small by design,
/// and nothing the user can free up beyond their own files.
bool fixed_quota(const Context& c, const std::string& mount) {
  return c.inv.platform.notebook == "kaggle" && mount == "/kaggle/working";
}

/// "GPU 0 (RTX 4090) is already in use: 95% busy, 20 GiB of 24 GiB memory in use, by python (pid 7). Only ... free."
std::string busy_message(const Gpu& g, bool busy, const std::vector<std::string>& users) {
  const bool memory = g.memory_used_bytes && g.memory_total_bytes;
  const std::string used = memory ? units::format_bytes(*g.memory_used_bytes) : "";
  const std::string total = memory ? units::format_bytes(*g.memory_total_bytes) : "";
  std::string state;
  if (busy && memory) state = trf("{0}% busy, {1} of {2} memory in use", *g.utilization_gpu_pct, used, total);
  else if (busy) state = trf("{}% busy", *g.utilization_gpu_pct);
  else if (memory) state = trf("{} of {} memory in use", used, total);
  std::string out = users.empty() ? trf("GPU {} ({}) is already in use: {}.", g.index, g.name, state)
                                  : trf("GPU {} ({}) is already in use: {}, by {}.", g.index, g.name, state,
                                        fmt::format("{}", fmt::join(users, ", ")));
  if (g.memory_free_bytes) out += " " + trf("Only {} is free for your job.", units::format_bytes(*g.memory_free_bytes));
  return out;
}

}  // namespace

std::vector<Note> no_nvidia_gpu(const Context& c) {
  std::vector<Note> out;
  // A ROCm or XPU build that sees the GPU is the working setup, not something to install; a CPU or CUDA build where
  // one would is torch-wrong-backend's.
  if (!c.nvidia.empty() || c.torch_backend_device || !torch_wrong_backend(c).empty()) return out;
  const bool rocm_torch = c.inv.torch && c.inv.torch->hip;
  const bool discrete = std::any_of(c.others.begin(), c.others.end(), [](const Gpu* g) { return !g->integrated; });
  for (const auto* g : c.others) {
    if (rocm_torch && g->vendor == "amd") continue;  // rocm-unusable says why the installed build cannot use it
    if (discrete && g->integrated) continue;  // a CPU's own graphics beside a card: the card is what counts
    out.push_back(Note{trf("GPU {} ({}) is not an NVIDIA GPU: CUDA builds of PyTorch cannot use it.", g->index, g->name),
                       other_vendor_fix(c, *g)});
  }
  return out;
}

std::vector<Note> torch_wrong_backend(const Context& c) {
  const auto& torch = c.inv.torch;
  const auto& index = c.torch_choice.index;
  if (!c.nvidia.empty() || c.torch_backend_device || !index || !torch || c.windows) return {};
  if (torch->hip && index->starts_with("rocm")) return {};  // a ROCm build that sees no GPU: rocm-unusable
  const bool rocm = index->starts_with("rocm");
  const auto gpu = std::find_if(c.others.begin(), c.others.end(), [&](const Gpu* g) {
    return (rocm ? g->vendor == "amd" : g->vendor == "intel") && (!g->integrated || c.others.size() == 1);
  });
  if (gpu == c.others.end()) return {};
  const std::string built = torch->cuda ? trf("a CUDA build (for NVIDIA GPUs)") : tr("a CPU-only build");
  return one(rocm ? trf("GPU {} ({}) runs PyTorch through its ROCm build, but the installed PyTorch {} is {}: it "
                        "cannot use the GPU.",
                        (*gpu)->index, (*gpu)->name, torch->version, built)
                  : trf("GPU {} ({}) runs PyTorch through its XPU build, but the installed PyTorch {} is {}: it "
                        "cannot use the GPU.",
                        (*gpu)->index, (*gpu)->name, torch->version, built),
             trf("Replace it: {}", text::code(c.torch_choice.command)));
}

std::vector<Note> rocm_unusable(const Context& c) {
  const auto& torch = c.inv.torch;
  if (!torch || !torch->hip || torch->cuda_available) return {};
  std::vector<const Gpu*> amd;
  for (const auto* g : c.others)
    if (g->vendor == "amd" && !g->integrated) amd.push_back(g);
  if (amd.empty()) return {};
  const auto& override_version = c.inv.rocm.hsa_override_gfx_version;
  if (override_version)
    return one(trf("PyTorch {} (ROCm) sees no GPU, and HSA_OVERRIDE_GFX_VERSION={} is set: it makes ROCm run code "
                   "built for another GPU model, and a wrong value fails or hangs.",
                   torch->version, *override_version),
               tr("Unset it (`unset HSA_OVERRIDE_GFX_VERSION`, and remove it from ~/.bashrc) and try again; keep it "
                  "only if AMD's documentation for your card names that exact value."));
  // The build lacks code for the card only when no AMD GPU's gfx target is in its list (an iGPU may be missing
  // while the discrete card is covered).
  const auto& list = torch->arch_list;
  const auto covered = [&](const Gpu* g) {
    return g->gfx_target && std::find(list.begin(), list.end(), *g->gfx_target) != list.end();
  };
  const auto known = std::find_if(amd.begin(), amd.end(), [](const Gpu* g) { return g->gfx_target.has_value(); });
  if (!list.empty() && known != amd.end() && std::none_of(amd.begin(), amd.end(), covered)) {
    const Gpu* g = *known;
    return one(trf("PyTorch {} (ROCm) has GPU code for {} but not for GPU {} ({}, {}), so it sees no GPU.",
                   torch->version, fmt::format("{}", fmt::join(list, " ")), g->index, g->name, *g->gfx_target),
               tr("Check AMD's ROCm support list for your card (`rocminfo` shows its gfx name). Cards ROCm does not "
                  "support need a build made for them; otherwise use a free cloud GPU (see `gpuscout platforms`)."));
  }
  if (!c.inv.rocm.kfd_present)
    return one(trf("PyTorch {} (ROCm) sees no GPU: the amdgpu driver's compute device (/dev/kfd) is not there.",
                   torch->version),
               tr("Install AMD's ROCm driver stack (amdgpu-install, or your distribution's ROCm packages) and reboot."));
  return one(trf("PyTorch {} (ROCm) sees no GPU although the amdgpu compute device is there.", torch->version),
             tr("Add yourself to the render and video groups (`sudo usermod -aG render,video $USER`), log out and in, "
                "then check `rocminfo`."));
}

std::vector<Note> no_gpu(const Context& c) {
  // A ROCm or XPU build that sees the GPU, or one to install for it (no-nvidia-gpu gives the command): a GPU route.
  if (!c.nvidia.empty() || c.torch_backend_device || c.torch_choice.index) return {};
  // A notebook's CPU runtime: the GPU is one setting away, in this same notebook.
  if (c.notebook_gpu_switch)
    return one(tr("This notebook runs without a GPU (a CPU runtime): PyTorch will use the CPU."),
               trf("Switch it to a GPU, then run gpuscout again: {}.", *c.notebook_gpu_switch));
  return one(c.others.empty()
                 ? tr("No GPU found on this machine: PyTorch will run on the CPU, fine for learning small models.")
                 : tr("No GPU that CUDA PyTorch can use."),
             free_gpu_steps());
}

std::vector<Note> gpu_busy(const Context& c) {
  std::vector<Note> out;
  for (const auto& f : c.nvidia) {
    const Gpu& g = *f.gpu;
    if (c.hidden_by_cuda_visible_devices(g)) continue;  // this process is already kept off it
    const bool busy = g.utilization_gpu_pct && *g.utilization_gpu_pct >= kBusyPercent;
    const bool memory_taken = g.memory_total_bytes && g.memory_used_bytes && *g.memory_total_bytes > 0 &&
                              double(*g.memory_used_bytes) >= double(*g.memory_total_bytes) * kTakenShare;
    if (!busy && !memory_taken) continue;
    std::vector<std::string> users;
    for (const auto& p : g.processes) {
      if (users.size() == 4) {
        users.push_back(trf("{} more", g.processes.size() - 4));
        break;
      }
      users.push_back(trf("{} (pid {}{})", p.name.value_or("?"), p.pid,
                                  p.used_bytes ? ", " + units::format_bytes(*p.used_bytes) : ""));
    }
    out.push_back(Note{busy_message(g, busy, users),
                       c.windows ? tr("Wait for those processes to finish or close them (`nvidia-smi` lists them; Task "
                                      "Manager or `taskkill /PID PID` for your own), pick another GPU with "
                                      "CUDA_VISIBLE_DEVICES, or plan for the free memory: `gpuscout fit` uses it.")
                                 : tr("Wait for those processes to finish or stop them (`nvidia-smi` lists them; `kill "
                                      "PID` for your own), pick another GPU with CUDA_VISIBLE_DEVICES, or plan for the "
                                      "free memory: `gpuscout fit` uses it.")});
  }
  return out;
}

std::vector<Note> mixed_vram(const Context& c) {
  uint64_t lo = UINT64_MAX, hi = 0;
  size_t usable = 0;
  for (const auto& f : c.nvidia) {
    if (c.hidden_by_cuda_visible_devices(*f.gpu)) continue;  // not this process's to train on
    ++usable;
    if (f.gpu->memory_total_bytes) {
      lo = std::min(lo, *f.gpu->memory_total_bytes);
      hi = std::max(hi, *f.gpu->memory_total_bytes);
    }
  }
  if (usable < 2 || hi == 0 || lo == UINT64_MAX || double(hi) <= double(lo) * 1.05) return {};
  return one(trf("The GPUs have different memory ({} to {}): data-parallel training keeps a full copy per GPU, so "
                 "every GPU is limited to the smallest.",
                 units::format_bytes(lo), units::format_bytes(hi)),
             tr("Plan batch sizes for the smallest card, shard with FSDP/ZeRO-3 to spread model state, or train on the "
                "large GPU alone (CUDA_VISIBLE_DEVICES). `gpuscout fit --gpus` shows each GPU's share."));
}

std::vector<Note> low_ram(const Context& c) {
  // A container's (or a Slurm job's) memory limit is the RAM it has: the smaller of the two.
  const auto& ram = c.inv.memory.total_bytes;
  const auto& limit = c.inv.memory.cgroup_limit_bytes;
  const bool limited = limit && (!ram || *limit < *ram);
  const auto total = limited ? limit : ram;
  if (!total || *total >= kLowRam) return {};
  const std::string fewer = tr("Use fewer DataLoader workers and load checkpoints with mmap (torch.load(..., "
                               "mmap=True)).");
  if (limited)
    return one(ram ? trf("This process may use only {} of memory (its cgroup limit; the machine has {}): data loading "
                         "and model loading (a checkpoint passes through RAM) will struggle, and going over the limit "
                         "kills the process.",
                         units::format_bytes(*total), units::format_bytes(*ram))
                   : trf("This process may use only {} of memory (its cgroup limit): data loading and model loading "
                         "(a checkpoint passes through RAM) will struggle, and going over the limit kills the process.",
                         units::format_bytes(*total)),
               fewer + " " +
                   tr("Ask for more memory where the limit is set: `docker run --memory=16g`, Slurm's `--mem=16G`, or "
                      "the pod's resources.limits.memory."));
  return one(trf("Only {} of RAM: data loading and model loading (a checkpoint passes through RAM) will struggle.",
                 units::format_bytes(*total)),
             c.windows ? tr("Use fewer DataLoader workers, load checkpoints with mmap (torch.load(..., mmap=True)), let "
                            "Windows manage a larger page file, or use a cloud machine.")
                       : tr("Use fewer DataLoader workers, load checkpoints with mmap (torch.load(..., mmap=True)), add "
                            "swap, or use a cloud machine."));
}

std::vector<Note> small_dev_shm(const Context& c) {
  const auto& shm = c.inv.memory.shm_total_bytes;
  // Only containers get a small /dev/shm by default; a hosted notebook's is set by the service (Colab's and Kaggle's
  // are several GiB) and cannot be changed by the user anyway.
  if (c.windows || !c.inv.os.container || c.inv.platform.notebook || !shm || *shm >= kSmallShm) return {};
  const std::string message =
      trf("/dev/shm in this container holds only {}: PyTorch DataLoader workers pass batches through it and die with "
          "\"bus error\" when it is full.",
          units::format_bytes(*shm));
  if (*c.inv.os.container == "kubernetes")
    return one(message, tr("Mount an emptyDir volume with `medium: Memory` (and a sizeLimit such as 8Gi) at /dev/shm "
                           "in the pod spec, or use DataLoader(num_workers=0)."));
  return one(message, tr("Start the container with `--shm-size=8g` (or `--ipc=host`; docker compose: `shm_size: 8gb`), "
                         "or use DataLoader(num_workers=0)."));
}

namespace {

/// The NUMA nodes whose CPUs the process may run on, by node number; nullopt when a list does not parse.
std::optional<std::vector<int>> nodes_of_cpus(const std::vector<NumaNode>& nodes, const std::vector<int>& allowed) {
  std::vector<int> out;
  for (const auto& node : nodes) {
    const auto cpus = text::parse_cpu_list(node.cpus);
    if (!cpus) return std::nullopt;
    if (std::any_of(cpus->begin(), cpus->end(),
                    [&](int cpu) { return std::binary_search(allowed.begin(), allowed.end(), cpu); }))
      out.push_back(node.node);
  }
  return out;
}

}  // namespace

std::vector<Note> gpu_far_numa(const Context& c) {
  const auto& cpu = c.inv.cpu;
  if (c.windows || cpu.numa_nodes.size() < 2 || !cpu.allowed_cpus) return {};
  const auto allowed = text::parse_cpu_list(*cpu.allowed_cpus);
  if (!allowed || allowed->empty()) return {};
  const auto near = nodes_of_cpus(cpu.numa_nodes, *allowed);
  if (!near || near->empty()) return {};
  // One note per far node, naming its GPUs: two cards on node 1 need one numactl line, not two.
  std::map<int, std::vector<std::string>> far;
  for (const auto& g : c.inv.gpus)
    if (!g.integrated && g.numa_node && std::find(near->begin(), near->end(), *g.numa_node) == near->end())
      far[*g.numa_node].push_back(trf("GPU {} ({})", g.index, g.name));
  std::vector<Note> out;
  for (const auto& [node, gpus] : far)
    out.push_back(Note{trf("NUMA node {} holds {}, but this process may run only on CPUs {} (node {}): every copy "
                           "between memory and the GPU crosses from one processor to the other, which slows data "
                           "loading and transfers.",
                           node, text::join(gpus, ", "), *cpu.allowed_cpus, fmt::format("{}", fmt::join(*near, ", "))),
                       trf("Run on that node's CPUs and memory: `numactl --cpunodebind={0} --membind={0} python "
                           "train.py` (on a cluster, ask the scheduler for CPUs on node {0}).",
                           node)});
  return out;
}

std::vector<Note> low_disk(const Context& c) {
  std::vector<Note> out;
  for (const auto& d : c.inv.disks) {
    if (!mount_matters(c, d.mount) || d.free_bytes >= kLowDisk || fixed_quota(c, d.mount)) continue;
    out.push_back(Note{trf("{} has only {} free: datasets, model checkpoints and the PyTorch wheels (several GB) need "
                           "room.",
                           d.mount, units::format_bytes(d.free_bytes)),
                       c.windows ? trf("Free space on {} (pip cache: `pip cache purge`; Hugging Face cache: "
                                       "%USERPROFILE%\\.cache\\huggingface; Settings > System > Storage) or store data "
                                       "on a larger drive.",
                                       d.mount)
                                 : trf("Free space on {} (pip cache: `pip cache purge`; Hugging Face cache: "
                                       "~/.cache/huggingface) or store data on a larger disk.",
                                       d.mount)});
  }
  return out;
}

std::vector<Note> windows_long_paths(const Context& c) {
  const auto& w = c.inv.os.windows;
  if (!c.windows || !w || !w->long_paths_enabled || *w->long_paths_enabled) return {};
  return one(tr("Windows long paths are off: pip can fail to install packages with deep folders inside (PyTorch's "
                "wheels have them) once a path passes 260 characters."),
             tr("In PowerShell as administrator: `New-ItemProperty -Path "
                "\"HKLM:\\SYSTEM\\CurrentControlSet\\Control\\FileSystem\" -Name LongPathsEnabled -Value 1 "
                "-PropertyType DWORD -Force`, then open a new terminal."));
}

namespace {

// The worst of a GPU's memory-health facts: a failed remap needs the card serviced; a pending retirement or remap
// needs a reset before it protects anything; uncorrectable errors alone may have crashed or corrupted a job.
std::optional<Note> memory_health_note(const Gpu& g) {
  if (!g.memory_health) return std::nullopt;
  const MemoryHealth& h = *g.memory_health;
  const int nvml_index = g.nvml_index.value_or(g.index);
  if (h.remapped_rows_failed.value_or(false))
    return Note{trf("GPU {} ({}) failed to remap a damaged memory row: it has more bad memory than it can repair "
                    "itself.",
                    g.index, g.name),
                trf("Stop using this GPU and have the card serviced or replaced (RMA); `nvidia-smi -q -d "
                    "ROW_REMAPPER -i {}` shows the details for the vendor.",
                    nvml_index)};
  if (h.retired_pages_pending.value_or(false) || h.remapped_rows_pending.value_or(false))
    return Note{trf("GPU {} ({}) has damaged memory waiting to be retired: until the GPU is reset, programs on it "
                    "can still hit the bad memory and crash or compute wrong results.",
                    g.index, g.name),
                trf("Stop the jobs on it, then reset it (`sudo nvidia-smi -r -i {}`) or reboot the machine. If this "
                    "comes back, have the card checked.",
                    nvml_index)};
  if (h.ecc_errors_uncorrected_volatile.value_or(0) > 0)
    return Note{trf("GPU {} ({}) had {} uncorrectable memory (ECC) errors since the driver loaded: a program running "
                    "then may have crashed or computed wrong results.",
                    g.index, g.name, *h.ecc_errors_uncorrected_volatile),
                trf("Rerun the jobs that ran on it. If the count keeps growing, reset the GPU (`sudo nvidia-smi -r -i "
                    "{}`) and have the card checked (`nvidia-smi -q -d ECC,ROW_REMAPPER`).",
                    nvml_index)};
  return std::nullopt;
}

}  // namespace

std::vector<Note> gpu_memory_errors(const Context& c) {
  std::vector<Note> out;
  for (const auto& f : c.nvidia) {
    if (auto note = memory_health_note(*f.gpu)) out.push_back(std::move(*note));
  }
  return out;
}

std::vector<Note> driver_model_tcc(const Context& c) {
  std::vector<Note> out;
  for (const auto& f : c.nvidia) {
    const Gpu& g = *f.gpu;
    if (!c.windows || g.driver_model != "TCC") continue;
    out.push_back(Note{trf("GPU {} ({}) runs in TCC mode: CUDA works, but it drives no display.", g.index, g.name),
                       trf("Nothing to change for training. To connect a monitor to it, switch it to WDDM as "
                           "administrator (`nvidia-smi -i {} -dm 0`) and restart Windows.",
                           g.nvml_index.value_or(g.index))});
  }
  return out;
}

std::vector<Note> laptop(const Context& c) {
  if (!c.inv.platform.laptop) return {};
  return one(tr("This is a laptop: its GPU cannot be upgraded, and laptop GPUs run slower than the desktop cards of the "
                "same name."),
             tr("Train plugged in, on a hard surface; for larger jobs use a cloud GPU (see `gpuscout platforms`)."));
}

std::vector<Note> cloud_notebook(const Context& c) {
  const auto& notebook = c.inv.platform.notebook;
  // The probe names only these two; another name (a hand-edited --from file) is not a notebook we know.
  if (!notebook || (*notebook != "colab" && *notebook != "kaggle")) return {};
  const bool colab = *notebook == "colab";
  return one(trf("Running in {}: a hosted notebook with usage limits; files outside persistent storage vanish when the "
                 "session ends.",
                 colab ? "Google Colab" : "Kaggle"),
             colab ? tr("Save checkpoints to Google Drive (`from google.colab import drive; "
                        "drive.mount('/content/drive')`); if no GPU shows, Runtime > Change runtime type > T4 GPU.")
                   : tr("Save outputs under /kaggle/working; enable a GPU in Settings > Accelerator (weekly quota)."));
}

}  // namespace gpuscout::diagnose::checks
