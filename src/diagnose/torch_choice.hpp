#pragma once
/// Which PyTorch wheel fits a machine, from data/torch_builds.csv and data/cuda_driver.csv. choose_torch itself
/// is declared in diagnose.hpp; these are the pieces the rules reuse. A table row whose version does not parse
/// is skipped, never dereferenced.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.hpp"
#include "diagnose/context.hpp"

namespace gpuscout::diagnose {

/// Releases in `builds`, newest first (rows whose `torch` is not a version are left out).
std::vector<std::string> torch_releases(const std::vector<catalog::TorchBuild>& builds);
/// The same for data/torch_builds.csv.
std::vector<std::string> torch_releases();

/// Stable CUDA builds of `release` for `platform` that run every capability in `ccs`, newest CUDA first. A build
/// whose CUDA cell is not a version ("cu126", "x") cannot be ranked or matched to a driver, so it is left out.
std::vector<const catalog::TorchBuild*> fitting_builds(const std::vector<catalog::TorchBuild>& builds,
                                                       const std::string& release, const std::string& platform,
                                                       const std::vector<std::string>& ccs);

/// `pip install "torch==2.5.*" --index-url .../whl/cu121` (cpu without a CUDA version).
std::string pip_command(const std::string& torch, const std::optional<std::string>& cuda);

/// The newest release with a CUDA build for `platform` that runs compute capability `cc`.
ReleaseForGpu newest_release_for(std::string_view cc, const std::string& platform, const std::vector<std::string>& releases);

}  // namespace gpuscout::diagnose
