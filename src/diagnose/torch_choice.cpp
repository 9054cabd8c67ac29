#include "diagnose/torch_choice.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

#include <fmt/format.h>

#include "catalog/catalog.hpp"
#include "core/i18n.hpp"
#include "core/version.hpp"
#include "diagnose/driver_route.hpp"

namespace gpuscout::diagnose {
namespace {

bool build_runs_all(const catalog::TorchBuild& b, const std::vector<std::string>& ccs) {
  return std::all_of(ccs.begin(), ccs.end(),
                     [&](const std::string& cc) { return catalog::arch_list_runs(b.arch_list, b.ptx, cc); });
}

/// The newest CUDA build the driver runs at full feature level (its GA minimum met), else the newest one it runs
/// through CUDA minor-version compatibility (a 12.x wheel on any driver above the 12.x family floor).
const catalog::TorchBuild* pick_for_driver(const std::vector<const catalog::TorchBuild*>& fits, const Version& driver,
                                           catalog::DriverOs os) {
  for (const auto* b : fits) {
    const auto need = catalog::min_driver_for_cuda(*b->cuda, os);
    if (!need || driver >= *need) return b;
  }
  for (const auto* b : fits)
    for (const auto& row : catalog::cuda_drivers())
      if (row.cuda == *b->cuda && row.family_min(os) && driver >= *row.family_min(os)) return b;
  return nullptr;
}

bool has_wheels_for(const catalog::TorchBuild& b, const std::optional<Version>& python) {
  if (!python) return true;
  return (!b.python_min || *python >= *b.python_min) && (!b.python_max || *python <= *b.python_max);
}

/// The interpreter's "major.minor", when the probe got one.
std::optional<Version> python_version(const Inventory& inv) {
  if (!inv.python.version) return std::nullopt;
  const auto v = Version::parse(*inv.python.version);
  if (!v) return std::nullopt;
  return Version::parse(v->major_minor());
}

/// A command-line word as a user pastes it: quoted when it holds anything but plain path characters.
std::string shell_word(const std::string& word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '/' || ch == '.' || ch == '_' || ch == '-' || ch == '+';
  });
  if (plain) return word;
  std::string out = "'";
  for (char ch : word) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

/// A release with a CUDA build (or the CPU wheel) the driver runs, and the driver that build needs at full level.
struct Pick {
  std::string release;
  const catalog::TorchBuild* build = nullptr;
  std::optional<Version> needs;  ///< the GA minimum driver of its CUDA
};

/// The newest release whose builds run every GPU and this Python, choosing the build with `choose`.
template <typename Choose>
std::optional<Pick> newest_pick(const Inventory& inv, const std::vector<std::string>& ccs, Choose&& choose) {
  const std::string platform = platform_key(inv);
  const auto python = python_version(inv);
  for (const auto& release : torch_releases()) {
    const auto fits = fitting_builds(catalog::torch_builds(), release, platform, ccs, python);
    if (const catalog::TorchBuild* chosen = fits.empty() ? nullptr : choose(fits))
      return Pick{release, chosen, catalog::min_driver_for_cuda(*chosen->cuda, driver_os(inv))};
  }
  return std::nullopt;
}

/// The installed PyTorch runs this machine as it is: a ROCm or XPU build that sees its GPU; a CUDA build with
/// code for every NVIDIA GPU, a driver that runs its CUDA and no "not compatible" warning; any build that imports
/// where there is no NVIDIA GPU (a CUDA build runs on the CPU as well: swapping it for the CPU wheel gains nothing).
bool installed_torch_fits(const Inventory& inv, const std::vector<std::string>& ccs) {
  if (!inv.torch) return false;
  const auto& t = *inv.torch;
  if (torch_backend_device(inv)) return true;
  const bool warned = std::any_of(t.warnings.begin(), t.warnings.end(),
                                  [](const std::string& w) { return w.find("not compatible") != std::string::npos; });
  if (ccs.empty()) return true;
  if (!t.cuda || !t.cuda_available || warned) return false;
  return std::none_of(ccs.begin(), ccs.end(), [&](const std::string& cc) { return installed_torch_lacks_code(inv, cc); });
}

/// An Intel GPU that PyTorch's XPU build supports: Arc A- and B-series, Core Ultra with Arc graphics, Data Center
/// GPU Max (PyTorch's "Getting Started on Intel GPU"). Older integrated graphics (UHD, Iris Xe) are not on the list.
bool runs_xpu(const Gpu& g) {
  return g.vendor == "intel" && (g.name.find("Arc") != std::string::npos ||
                                 g.name.find("Data Center GPU Max") != std::string::npos);
}

/// The wheel index a machine without an NVIDIA GPU should install from: the ROCm build whose arch list has every
/// AMD GPU's gfx target, the XPU build for a supported Intel GPU, else the CPU wheel (nullopt). A ROCm build is
/// chosen only when the gfx target is known (the KFD topology): without it nobody can say that a build fits.
struct BackendNeed {
  std::vector<std::string> gfx_targets;  ///< ROCm: every AMD GPU's target
  bool xpu = false;
};

BackendNeed backend_need(const Inventory& inv) {
  // The discrete cards decide; an APU beside them (a Ryzen's own graphics) is not what the user trains on. With
  // only an APU (Strix Halo, gfx1151), it decides.
  BackendNeed need;
  for (const bool integrated : {false, true}) {
    bool unknown = false;
    for (const auto& g : inv.gpus) {
      if (g.vendor != "amd" || g.integrated != integrated) continue;
      if (g.gfx_target) need.gfx_targets.push_back(*g.gfx_target);
      else unknown = true;
    }
    if (unknown) need.gfx_targets.clear();
    if (!need.gfx_targets.empty() || unknown) break;
  }
  need.xpu = std::any_of(inv.gpus.begin(), inv.gpus.end(), runs_xpu);
  return need;
}

bool build_fits_backend(const catalog::TorchBuild& b, const BackendNeed& need) {
  if (!b.index) return false;
  if (*b.index == "xpu") return need.xpu && need.gfx_targets.empty();
  if (need.gfx_targets.empty()) return false;
  return std::all_of(need.gfx_targets.begin(), need.gfx_targets.end(), [&](const std::string& t) {
    return std::find(b.arch_list.begin(), b.arch_list.end(), t) != b.arch_list.end();
  });
}

}  // namespace

/// Without an NVIDIA GPU: the newest ROCm or XPU build that runs the machine's GPU, else the newest CPU wheel, for
/// this Python.
void choose_without_nvidia(const Inventory& inv, TorchChoice& choice) {
  const auto python = python_version(inv);
  const std::string platform = platform_key(inv);
  const BackendNeed need = backend_need(inv);
  const auto& builds = catalog::torch_builds();
  const auto first_build = [&](const std::string& release, auto&& accept) -> const catalog::TorchBuild* {
    for (const auto& b : builds)
      if (b.torch == release && b.platform == platform && b.channel == "stable" && has_wheels_for(b, python) && accept(b))
        return &b;
    return nullptr;
  };
  const auto releases = torch_releases();
  if (!need.gfx_targets.empty() || need.xpu) {
    for (const auto& release : releases)
      if (const auto* b = first_build(release, [&](const auto& row) { return build_fits_backend(row, need); })) {
        choice.torch = release;
        choice.index = b->index;
        choice.backend_arch_list = b->arch_list;
        choice.command = install_command_from_index(inv, release, *b->index);
        return;
      }
  }
  for (const auto& release : releases)
    if (first_build(release, [](const auto& row) { return catalog::is_cpu_build(row); })) {
      choice.torch = release;
      choice.command = install_command(inv, release, std::nullopt);
      return;
    }
}

std::optional<std::string> newest_backend_index(std::string_view prefix) {
  for (const auto& release : torch_releases())
    for (const auto& b : catalog::torch_builds())
      if (b.torch == release && b.index && b.index->starts_with(prefix) && b.channel == "stable") return b.index;
  return std::nullopt;
}

std::string python_command(const Inventory& inv) {
  if (!on_windows(inv)) return shell_word(inv.python.executable.value_or("python3"));
  // cmd and PowerShell both take a double-quoted program path; Windows has no python3 on a fresh install.
  const std::string exe = inv.python.executable.value_or("python");
  const bool plain = !exe.empty() && std::none_of(exe.begin(), exe.end(), [](char ch) {
    return std::isspace(static_cast<unsigned char>(ch)) || std::string_view("&()^%!;,'\"`$@{}[]<>|").find(ch) != std::string_view::npos;
  });
  return plain ? exe : "\"" + exe + "\"";
}

std::string install_command(const Inventory& inv, const std::string& release, const std::optional<std::string>& cuda) {
  std::string tag = cuda ? "cu" + *cuda : "cpu";
  std::erase(tag, '.');
  return install_command_from_index(inv, release, tag);
}

bool installs_into_new_venv(const Inventory& inv) {
  return !inv.platform.notebook && !on_windows(inv) && inv.python.externally_managed.value_or(false) &&
         !inv.python.in_venv.value_or(false);
}

bool venv_needs_package(const Inventory& inv) {
  // Debian and its derivatives move ensurepip (and so `-m venv`'s pip) into the python3-venv package.
  static constexpr std::string_view kDebianFamily[] = {"debian", "ubuntu", "linuxmint", "pop", "raspbian", "kali"};
  return installs_into_new_venv(inv) && inv.python.has_ensurepip == false && inv.os.id &&
         std::find(std::begin(kDebianFamily), std::end(kDebianFamily), *inv.os.id) != std::end(kDebianFamily);
}

std::string install_command_from_index(const Inventory& inv, const std::string& release, const std::string& index) {
  std::vector<std::string> names = {"torch"};
  std::string packages = fmt::format("\"torch=={}.*\"", release);
  if (const auto* companions = catalog::find_torch_companions(release)) {
    packages += fmt::format(" \"torchvision=={}.*\"", companions->torchvision);
    names.push_back("torchvision");
    if (companions->torchaudio) {
      packages += fmt::format(" \"torchaudio=={}.*\"", *companions->torchaudio);
      names.push_back("torchaudio");
    }
  }
  const std::string url = fmt::format("--index-url https://download.pytorch.org/whl/{}", index);
  const bool replacing = inv.python.torch_installed || inv.torch;
  // pip keeps an installed build whose version meets the pins whatever its variant (PEP 440 ignores the local label:
  // 2.14.0+cu130 satisfies torch==2.14.*). Where the interpreter has a torch, --force-reinstall makes pip take the
  // named builds from the index (their dependencies are fetched again too): one line that works the same in bash,
  // cmd, PowerShell and a notebook's %pip, where `uninstall && install` would not.
  const std::string install = fmt::format("install {}{} {}", packages, replacing ? " --force-reinstall" : "", url);
  // In a hosted notebook the user types into a cell: %pip works on the kernel's own interpreter.
  if (inv.platform.notebook) return "%pip " + install;
  const std::string python = python_command(inv);
  // PEP 668: pip refuses to install into a distribution's own Python (externally-managed-environment). The new venv
  // holds no torch yet: nothing to force.
  if (installs_into_new_venv(inv))
    return fmt::format("{}{} -m venv ~/venvs/torch && ~/venvs/torch/bin/python -m pip install {} {}",
                       venv_needs_package(inv) ? "sudo apt install -y python3-venv && " : "", python, packages, url);
  if (!on_windows(inv) && inv.python.has_pip == false) {
    // uv makes venvs without pip; its own installer replaces the named packages (the same PEP 440 trap: named again).
    if (inv.python.environment_tool == "uv") {
      std::string reinstall;
      if (replacing)
        for (const auto& name : names) reinstall += " --reinstall-package " + name;
      return fmt::format("uv pip install --python {} {}{} {}", python, packages, reinstall, url);
    }
    // A venv made --without-pip: ensurepip seeds it from the interpreter's own wheel, offline.
    if (inv.python.has_ensurepip != false) return fmt::format("{0} -m ensurepip && {0} -m pip {1}", python, install);
  }
  return fmt::format("{} -m pip {}", python, install);
}

const catalog::DriverBranch* ended_branch(const Inventory& inv) {
  const catalog::DriverBranch* oldest = nullptr;
  for (const auto& cc : nvidia_capabilities(inv))
    if (const auto* branch = catalog::last_driver_branch(cc))
      if (!oldest || branch->last_driver < oldest->last_driver) oldest = branch;
  return oldest;
}

std::optional<Version> driver_ceiling(const Inventory& inv) {
  const auto* branch = ended_branch(inv);
  if (!branch) return std::nullopt;
  // Windows numbers a branch's drivers from its number up to the next ten (R470: 471.11 ... 474.xx): the table's
  // last version is the Linux one and does not bound them.
  if (driver_os(inv) == catalog::DriverOs::windows) return Version::parse(fmt::format("{}.99", branch->last_branch + 9));
  return branch->last_driver;
}

bool driver_can_be_updated(const Inventory& inv) { return !inv.platform.notebook.has_value(); }

std::vector<const catalog::TorchBuild*> fitting_builds(const std::vector<catalog::TorchBuild>& builds,
                                                       const std::string& release, const std::string& platform,
                                                       const std::vector<std::string>& ccs,
                                                       const std::optional<Version>& python) {
  std::vector<std::pair<Version, const catalog::TorchBuild*>> ranked;
  for (const auto& b : builds) {
    if (b.torch != release || b.platform != platform || !b.cuda || b.channel != "stable" || !build_runs_all(b, ccs) ||
        !has_wheels_for(b, python))
      continue;
    if (auto cuda = Version::parse(*b.cuda)) ranked.emplace_back(std::move(*cuda), &b);
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return b.first < a.first; });
  std::vector<const catalog::TorchBuild*> out;
  for (const auto& [cuda, build] : ranked) out.push_back(build);
  return out;
}

TorchChoice choose_torch(const Inventory& inv) {
  const std::vector<std::string> ccs = nvidia_capabilities(inv);
  TorchChoice choice;
  choice.installed_fits = installed_torch_fits(inv, ccs);
  if (ccs.empty()) {
    choose_without_nvidia(inv, choice);
    // A ROCm or XPU build would use the GPU and the installed one does not: it does not fit.
    if (choice.index && !torch_backend_device(inv)) choice.installed_fits = false;
    return choice;
  }
  const auto driver = driver_version(inv);
  const auto ceiling = driver_ceiling(inv);
  const bool updatable = driver_can_be_updated(inv);
  // What runs with the driver as it is (through minor-version compatibility if need be), and the newest build
  // a driver this GPU can still get runs at full level.
  const auto os = driver_os(inv);
  // No driver yet, and the distribution packages one fixed branch (Debian 12: 535): the wheel that driver runs, so
  // that the driver step and the install step meet (535 runs CUDA 12 wheels, not CUDA 13 ones).
  std::optional<Version> planned = driver;
  const catalog::DriverRoute* route = driver ? nullptr : distro_driver_route(inv);
  if (route && route->driver && updatable && (!ceiling || *route->driver <= *ceiling)) planned = route->driver;
  const auto now = planned ? newest_pick(inv, ccs, [&](const auto& fits) { return pick_for_driver(fits, *planned, os); })
                           : std::nullopt;
  const auto best = newest_pick(inv, ccs, [&](const auto& fits) -> const catalog::TorchBuild* {
    for (const auto* b : fits) {
      const auto need = catalog::min_driver_for_cuda(*b->cuda, os);
      if (!ceiling || (need && *need <= *ceiling)) return b;
    }
    return nullptr;
  });
  const auto use = [&](const Pick& pick) {
    choice.torch = pick.release;
    choice.cuda = pick.build->cuda;
    choice.command = install_command(inv, pick.release, pick.build->cuda);
  };
  if (now) {
    use(*now);
    if (!driver) choice.driver_needed = planned->str();
    // The simpler step is the wheel for this driver; a newer release is worth a driver update only if one exists.
    if (best && updatable && best->needs && Version::parse(best->release) > Version::parse(now->release))
      choice.with_newer_driver = trf("PyTorch {} (CUDA {}) needs driver {} or newer", best->release,
                                     *best->build->cuda, best->needs->str());
  } else if (best && updatable) {
    use(*best);
    if (best->needs) choice.driver_needed = best->needs->str();
  }
  return choice;  // no wheel runs these GPUs with a driver they can have: no command
}

}  // namespace gpuscout::diagnose
