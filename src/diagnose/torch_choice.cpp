#include "diagnose/torch_choice.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "catalog/catalog.hpp"
#include "core/version.hpp"

namespace gpuscout::diagnose {
namespace {

bool build_runs_all(const catalog::TorchBuild& b, const std::vector<std::string>& ccs) {
  return std::all_of(ccs.begin(), ccs.end(),
                     [&](const std::string& cc) { return catalog::arch_list_runs(b.arch_list, b.ptx, cc); });
}

/// The newest CUDA build the driver runs at full feature level (its GA minimum met), else the newest one it runs
/// through CUDA minor-version compatibility (a 12.x wheel on any driver above the 12.x family floor).
const catalog::TorchBuild* pick_for_driver(const std::vector<const catalog::TorchBuild*>& fits, const Version& driver) {
  for (const auto* b : fits) {
    const auto need = catalog::min_driver_for_cuda(*b->cuda);
    if (!need || driver >= *need) return b;
  }
  for (const auto* b : fits)
    for (const auto& row : catalog::cuda_drivers())
      if (row.cuda == *b->cuda && row.family_min_driver && driver >= *row.family_min_driver) return b;
  return nullptr;
}

}  // namespace

std::vector<std::string> torch_releases(const std::vector<catalog::TorchBuild>& builds) {
  std::vector<std::pair<Version, std::string>> ranked;
  for (const auto& b : builds) {
    const bool seen = std::any_of(ranked.begin(), ranked.end(), [&](const auto& r) { return r.second == b.torch; });
    if (seen) continue;
    if (auto v = Version::parse(b.torch)) ranked.emplace_back(std::move(*v), b.torch);
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return b.first < a.first; });
  std::vector<std::string> out;
  for (auto& [version, text] : ranked) out.push_back(std::move(text));
  return out;
}

std::vector<const catalog::TorchBuild*> fitting_builds(const std::vector<catalog::TorchBuild>& builds,
                                                       const std::string& release, const std::string& platform,
                                                       const std::vector<std::string>& ccs) {
  std::vector<std::pair<Version, const catalog::TorchBuild*>> ranked;
  for (const auto& b : builds) {
    if (b.torch != release || b.platform != platform || !b.cuda || b.channel != "stable" || !build_runs_all(b, ccs))
      continue;
    if (auto cuda = Version::parse(*b.cuda)) ranked.emplace_back(std::move(*cuda), &b);
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return b.first < a.first; });
  std::vector<const catalog::TorchBuild*> out;
  for (const auto& [cuda, build] : ranked) out.push_back(build);
  return out;
}

std::vector<std::string> torch_releases() { return torch_releases(catalog::torch_builds()); }

std::string pip_command(const std::string& torch, const std::optional<std::string>& cuda) {
  std::string tag = cuda ? "cu" + *cuda : "cpu";
  std::erase(tag, '.');
  return fmt::format("pip install \"torch=={}.*\" --index-url https://download.pytorch.org/whl/{}", torch, tag);
}

ReleaseForGpu newest_release_for(std::string_view cc, const std::string& platform, const std::vector<std::string>& releases) {
  ReleaseForGpu out;
  for (const auto& release : releases) {
    for (const auto& b : catalog::torch_builds()) {
      if (b.torch != release || !b.cuda || b.platform != platform) continue;
      if (!catalog::arch_list_runs(b.arch_list, b.ptx, cc)) continue;
      out.current = release == releases.front();
      out.release = release;
      out.cuda = b.cuda;
      return out;
    }
  }
  return out;
}

TorchChoice choose_torch(const Inventory& inv) {
  const std::vector<std::string> ccs = nvidia_capabilities(inv);
  const auto releases = torch_releases();
  TorchChoice choice;
  if (ccs.empty()) {
    choice.torch = releases.empty() ? "2" : releases.front();
    choice.command = "pip install torch --index-url https://download.pytorch.org/whl/cpu";
    return choice;
  }
  const auto driver = driver_version(inv);
  const std::string platform = platform_key(inv);
  for (const auto& release : releases) {
    const auto fits = fitting_builds(catalog::torch_builds(), release, platform, ccs);
    if (fits.empty()) continue;
    const catalog::TorchBuild* chosen = driver ? pick_for_driver(fits, *driver) : nullptr;
    if (!chosen) {
      chosen = fits.front();
      if (const auto need = catalog::min_driver_for_cuda(*chosen->cuda)) choice.driver_needed = need->str();
    }
    choice.torch = release;
    choice.cuda = chosen->cuda;
    choice.command = pip_command(release, chosen->cuda);
    return choice;
  }
  return choice;  // no release runs these GPUs: no command
}

}  // namespace gpuscout::diagnose
