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

/// Releases newest first, and the newest release that runs a capability: catalog's (advise asks the same).
using catalog::newest_release_for;
using catalog::torch_releases;

/// Stable CUDA builds of `release` for `platform` that run every capability in `ccs` (and, when `python` is
/// known, have wheels for it), newest CUDA first. A build whose CUDA cell is not a version ("cu126", "x") cannot
/// be ranked or matched to a driver, so it is left out.
std::vector<const catalog::TorchBuild*> fitting_builds(const std::vector<catalog::TorchBuild>& builds,
                                                       const std::string& release, const std::string& platform,
                                                       const std::vector<std::string>& ccs,
                                                       const std::optional<Version>& python = std::nullopt);

/// The install command of `release` (CUDA variant `cuda`, none for the CPU wheel) for the inventory's Python:
/// `"/usr/bin/python3" -m pip install "torch==2.5.*" "torchvision==0.20.*" "torchaudio==2.5.*" --index-url
/// https://download.pytorch.org/whl/cu121`; in a hosted notebook `%pip install ...`, typed into a cell; for an
/// externally managed interpreter (PEP 668) that is no venv, a venv made first and pip run in it; in a uv venv
/// without pip, `uv pip install --python ...`; in a venv made without pip, ensurepip first. Where the interpreter
/// has a torch, `--force-reinstall` (uv: `--reinstall-package` of each) after the pins: the installer would
/// otherwise keep the build in place, whose version already meets the pins. Always one line, no prose.
std::string install_command(const Inventory& inventory, const std::string& release,
                            const std::optional<std::string>& cuda);

/// The install command makes a venv first: a distribution's own Python (PEP 668, externally managed), no venv,
/// not Windows, not a notebook.
bool installs_into_new_venv(const Inventory& inventory);

/// The new venv needs its distribution's python3-venv first (Debian's family leaves ensurepip out of python3):
/// the install command then begins with `sudo apt install -y python3-venv`.
bool venv_needs_package(const Inventory& inventory);

/// The same from a wheel index name ("cu128", "cpu", "rocm7.2", "xpu").
std::string install_command_from_index(const Inventory& inventory, const std::string& release, const std::string& index);

/// Fills `choice` for a machine without an NVIDIA GPU: the newest ROCm build whose arch list has every AMD GPU's
/// gfx target, or the XPU build for an Intel Arc / Data Center GPU Max, else the newest CPU wheel.
void choose_without_nvidia(const Inventory& inventory, TorchChoice& choice);

/// The index of the newest stable build whose index starts with `prefix` ("rocm" -> "rocm7.2"), for this table.
std::optional<std::string> newest_backend_index(std::string_view prefix);

/// The interpreter as the commands name it: its path when the probe found one, else python3.
std::string python_command(const Inventory& inventory);

/// The ended driver branch of the oldest NVIDIA GPU of the machine (Kepler: R470); nullptr while all are supported.
const catalog::DriverBranch* ended_branch(const Inventory& inventory);

/// The newest driver every NVIDIA GPU of the machine can have: the last release of the oldest ended branch
/// among them (Kepler: 470.256.02); nullopt when every GPU's architecture is still supported.
std::optional<Version> driver_ceiling(const Inventory& inventory);

/// Whether the user can change the NVIDIA driver here: not on a hosted notebook (Colab, Kaggle).
bool driver_can_be_updated(const Inventory& inventory);

}  // namespace gpuscout::diagnose
