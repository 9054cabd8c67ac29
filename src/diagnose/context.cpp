#include "diagnose/context.hpp"

#include <fmt/format.h>

#include "catalog/catalog.hpp"
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

std::string driver_hint(const TorchChoice& choice) {
  if (!choice.cuda) return "the current NVIDIA driver";
  const auto need = catalog::min_driver_for_cuda(*choice.cuda);
  if (!need) return fmt::format("a driver that supports CUDA {} (for CUDA {} PyTorch wheels)", *choice.cuda, *choice.cuda);
  return fmt::format("a driver of at least {} (for CUDA {} PyTorch wheels)", need->str(), *choice.cuda);
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
    if (row_cuda && row_cuda->major() == f.torch_cuda->major()) f.family_min = row.family_min_driver;
  }
  f.ga_min = catalog::min_driver_for_cuda(f.torch_cuda->major_minor());
  f.below_family = f.family_min && *driver < *f.family_min;
  f.driver_cuda_older = driver_cuda && driver_cuda->major() < f.torch_cuda->major();
  return f;
}

}  // namespace

std::optional<Version> driver_version(const Inventory& inv) {
  // A version that does not parse (a hand-edited --from file) counts as unknown; the kernel module's may still do.
  if (inv.nvidia.driver_version)
    if (auto v = Version::parse(*inv.nvidia.driver_version)) return v;
  if (inv.nvidia.kernel_module_version) return Version::parse(*inv.nvidia.kernel_module_version);
  return std::nullopt;
}

bool installed_torch_lacks_code(const Inventory& inv, const std::string& cc) {
  // The runtime arch list is the truth for an installed build; "sm_90" entries are cubins, "compute_90" PTX.
  if (!inv.torch || !inv.torch->cuda || inv.torch->arch_list.empty()) return false;
  return !catalog::arch_list_runs(inv.torch->arch_list, std::nullopt, cc);
}

std::string platform_key(const Inventory& inv) {
  if (inv.cpu.arch == "aarch64") return "linux-aarch64";
  return "linux-x86_64";
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
  c.driver_hint = driver_hint(c.torch_choice);
  c.torch_driver = torch_driver_facts(inv, c.driver, c.driver_cuda);
  return c;
}

}  // namespace gpuscout::diagnose
