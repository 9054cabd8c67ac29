#include "diagnose/context.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "catalog/catalog.hpp"
#include "catalog/gpu_match.hpp"
#include "core/data_files.hpp"
#include "core/i18n.hpp"
#include "diagnose/driver_route.hpp"
#include "diagnose/torch_choice.hpp"

namespace gpuscout::diagnose {
namespace {

std::optional<int> status_code(const std::optional<ProbeError>& error) {
  if (!error) return std::nullopt;
  return error->code;
}

bool nouveau_holds_gpu(const Inventory& inv) {
  if (inv.nvidia.nouveau_loaded && !inv.nvidia.kernel_module_loaded) return true;
  for (const auto& g : inv.gpus)
    if (g.vendor == "nvidia" && g.kernel_driver && *g.kernel_driver == "nouveau") return true;
  return false;
}

std::vector<GpuFacts> nvidia_facts(const Inventory& inv, const std::string& platform) {
  const auto releases = torch_releases();
  std::vector<GpuFacts> out;
  for (const auto& g : inv.gpus) {
    if (g.vendor != "nvidia") continue;
    GpuFacts f;
    f.gpu = &g;
    f.cc = g.compute_capability;
    if (f.cc) {
      f.newest = newest_release_for(*f.cc, platform, releases);
      f.installed_torch_lacks_code = installed_torch_lacks_code(inv, *f.cc);
    }
    out.push_back(std::move(f));
  }
  return out;
}

std::string driver_hint(const Inventory& inv, const TorchChoice& choice) {
  // A GPU whose architecture's support ended gets no driver past its last branch, whatever a wheel would need.
  if (const auto* branch = ended_branch(inv))
    return driver_os(inv) == catalog::DriverOs::windows
               ? trf("the last NVIDIA driver for this GPU, of the R{} branch (its architecture gets no newer one)",
                     branch->last_branch)
               : trf("the last NVIDIA driver for this GPU, {} (its architecture gets no newer one)",
                     branch->last_driver.str());
  if (!choice.cuda) return tr("the current NVIDIA driver");
  // The distribution's package installs one branch, and the wheel was chosen for it: name that driver.
  if (const auto* route = distro_driver_route(inv); route && route->driver && choice.driver_needed == route->driver->str())
    return trf("the NVIDIA driver {} (the one your distribution packages; it runs the CUDA {} PyTorch wheel)",
               route->driver->str(), *choice.cuda);
  const auto need = catalog::min_driver_for_cuda(*choice.cuda, driver_os(inv));
  if (!need) return trf("a driver that supports CUDA {0} (for CUDA {0} PyTorch wheels)", *choice.cuda);
  return trf("a driver of at least {} (for CUDA {} PyTorch wheels)", need->str(), *choice.cuda);
}

/// The installed CUDA wheel against the driver; nothing when either is unknown.
std::optional<TorchDriverFacts> torch_driver_facts(const Inventory& inv, const std::optional<Version>& driver,
                                                   const std::optional<Version>& driver_cuda) {
  if (!inv.torch || !inv.torch->cuda || !driver) return std::nullopt;
  TorchDriverFacts f;
  f.torch_cuda = Version::parse(*inv.torch->cuda);
  if (!f.torch_cuda) return f;
  // Every row of a CUDA major names the same family floor; the last row read wins, as the table is written.
  for (const auto& row : catalog::cuda_drivers()) {
    const auto row_cuda = Version::parse(row.cuda);
    if (row_cuda && row_cuda->major() == f.torch_cuda->major()) f.family_min = row.family_min(driver_os(inv));
  }
  f.ga_min = catalog::min_driver_for_cuda(f.torch_cuda->major_minor(), driver_os(inv));
  f.below_family = f.family_min && *driver < *f.family_min;
  f.driver_cuda_older = driver_cuda && driver_cuda->major() < f.torch_cuda->major();
  return f;
}

/// data/platforms.csv's name of the provider of a notebook the probe detects.
std::string_view notebook_provider(std::string_view notebook) {
  if (notebook == "colab") return "Google Colab";
  if (notebook == "kaggle") return "Kaggle";
  if (notebook == "aistudio") return "Baidu AI Studio";
  return {};
}

/// On a hosted notebook: its free GPU offer (data/platforms.csv) that is not the GPU in use and that the newest
/// PyTorch runs, as "offer: steps".
std::optional<std::string> notebook_gpu_switch(const Inventory& inv, const std::string& platform) {
  if (!inv.platform.notebook) return std::nullopt;
  const auto provider = notebook_provider(*inv.platform.notebook);
  const auto table = core::load_table("platforms.csv");
  if (provider.empty() || !table) return std::nullopt;
  const auto releases = torch_releases();
  for (const auto& row : table->rows()) {
    if (table->cell(row, "kind") != "free" || table->cell(row, "provider") != provider) continue;
    const auto offer_gpu = catalog::match_gpu({table->cell(row, "gpu")});
    if (!offer_gpu || !offer_gpu->spec->compute_capability) continue;
    const bool in_use = std::any_of(inv.gpus.begin(), inv.gpus.end(), [&](const Gpu& g) {
      return g.catalog_name && *g.catalog_name == offer_gpu->spec->name;
    });
    if (in_use || !newest_release_for(*offer_gpu->spec->compute_capability, platform, releases).current) continue;
    return fmt::format("{}: {}", tr(table->cell(row, "offer")), tr(table->cell(row, "steps")));
  }
  return std::nullopt;
}

PythonFacts python_facts(const Inventory& inv, const std::string& platform) {
  PythonFacts f;
  if (inv.python.version) f.version = Version::parse(*inv.python.version);
  const auto releases = torch_releases();
  if (releases.empty()) return f;
  for (const auto& b : catalog::torch_builds())
    if (b.torch == releases.front() && b.platform == platform && b.python_min) {
      f.floor = b.python_min->str();
      f.floor_release = b.torch;
      f.too_old = f.version && *f.version < *b.python_min;
      break;
    }
  return f;
}

}  // namespace

std::string python_choice_phrase(const PythonInfo& python) {
  static constexpr std::pair<std::string_view, std::string_view> kPhrases[] = {
      {"--python", N_("given with --python")},  {"GPUSCOUT_PYTHON", N_("from GPUSCOUT_PYTHON")},
      {"VIRTUAL_ENV", N_("the active venv")},   {"CONDA_PREFIX", N_("the active conda environment")},
      {".venv", N_("this folder's .venv")},     {"PATH", N_("chosen from PATH")},
      {"py", N_("the py launcher's default")}, {"install-folder", N_("found in its install folder")},
  };
  if (!python.selected_by) return {};
  for (const auto& [rule, phrase] : kPhrases)
    if (rule == *python.selected_by) return tr(phrase);
  return {};
}

std::optional<Version> nvidia_version_from_windows(std::string_view windows_version) {
  // "32.0.15.8157" is NVIDIA's 581.57: the last five digits of the last two fields, the fourth padded to four.
  const auto v = Version::parse(windows_version);
  if (!v || v->parts().size() != 4 || v->parts()[3] > 9999 || v->parts()[2] > 99) return std::nullopt;
  const int digits = v->parts()[2] % 10 * 10000 + v->parts()[3];
  return Version::parse(fmt::format("{}.{:02}", digits / 100, digits % 100));
}

std::optional<Version> driver_version(const Inventory& inv) {
  // A version that does not parse (a hand-edited --from file) counts as unknown; the kernel module's may still do.
  if (inv.nvidia.driver_version)
    if (auto v = Version::parse(*inv.nvidia.driver_version)) return v;
  if (inv.nvidia.kernel_module_version) return Version::parse(*inv.nvidia.kernel_module_version);
  // On Windows the registry names the installed driver even when NVML cannot answer (a mismatch before the restart).
  if (inv.nvidia.windows_driver_version) return nvidia_version_from_windows(*inv.nvidia.windows_driver_version);
  return std::nullopt;
}

bool installed_torch_lacks_code(const Inventory& inv, const std::string& cc) {
  // The runtime arch list is the truth for an installed build; "sm_90" entries are cubins, "compute_90" PTX.
  if (!inv.torch || !inv.torch->cuda || inv.torch->arch_list.empty()) return false;
  return !catalog::arch_list_runs(inv.torch->arch_list, std::nullopt, cc);
}

std::string platform_key(const Inventory& inv) {
  const bool arm = inv.cpu.arch == "aarch64";
  if (on_windows(inv)) return arm ? "windows-arm64" : "windows-x86_64";  // no table rows for Windows on Arm: CPU only
  return arm ? "linux-aarch64" : "linux-x86_64";
}

bool on_windows(const Inventory& inv) { return inv.os.family == "windows"; }

catalog::DriverOs driver_os(const Inventory& inv) {
  return on_windows(inv) || inv.os.wsl ? catalog::DriverOs::windows : catalog::DriverOs::linux;
}

std::vector<std::string> nvidia_capabilities(const Inventory& inv) {
  std::vector<std::string> out;
  for (const auto& g : inv.gpus)
    if (g.vendor == "nvidia" && g.compute_capability) out.push_back(*g.compute_capability);
  return out;
}

Context make_context(const Inventory& inv) {
  Context c(inv);
  c.platform = platform_key(inv);
  c.windows = on_windows(inv);
  c.nvidia = nvidia_facts(inv, c.platform);
  for (const auto& g : inv.gpus)
    if (g.vendor != "nvidia") c.others.push_back(&g);
  c.has_nvidia = !c.nvidia.empty() || inv.nvidia.library_found;
  c.nouveau = nouveau_holds_gpu(inv);
  c.nvml_status = status_code(inv.nvidia.error);
  c.cuda_status = status_code(inv.cuda.error);
  c.driver = driver_version(inv);
  if (inv.nvidia.cuda_driver_version) c.driver_cuda = Version::parse(*inv.nvidia.cuda_driver_version);
  c.driver_answers = inv.cuda.available || inv.nvidia.driver_version.has_value();
  c.torch_choice = choose_torch(inv);
  c.driver_hint = driver_hint(inv, c.torch_choice);
  c.driver_updatable = driver_can_be_updated(inv);
  c.driver_ceiling = driver_ceiling(inv);
  c.torch_driver = torch_driver_facts(inv, c.driver, c.driver_cuda);
  if (c.torch_driver && (c.torch_driver->below_family || c.torch_driver->driver_cuda_older) && own_machine(inv) &&
      !c.torch_choice.installed_fits) {
    const auto& f = *c.torch_driver;
    const std::optional<Version> need = f.ga_min ? f.ga_min : f.family_min;
    const bool has_code = std::none_of(c.nvidia.begin(), c.nvidia.end(),
                                       [](const GpuFacts& g) { return g.installed_torch_lacks_code; });
    if (need && has_code && c.driver_reachable(*need)) c.driver_for_installed = need;
  }
  c.torch_backend_device = torch_backend_device(inv);
  c.notebook_gpu_switch = notebook_gpu_switch(inv, c.platform);
  c.python = python_facts(inv, c.platform);
  c.env_recorded = inv.environment.has_value();
  c.cuda_visible = cuda_visibility(inv);
  return c;
}

}  // namespace gpuscout::diagnose
