#pragma once
/// Typed views of the curated data tables (data/*.csv, embedded at build time; see data/SOURCES.md).
/// Loaded once per process. Every typed cell is checked as the table is read (versions parse, numbers are
/// finite and in range, enumerations hold one of their values, required cells are filled), so callers may
/// trust the fields. A table with a bad cell yields an empty view plus an error in load_errors(); the CLI
/// checks load_errors() at start-up when --data overrides the tables and stops with exit 2.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/version.hpp"

namespace gpuscout::catalog {

struct GpuSpec {
  std::string vendor, name;
  std::vector<std::string> aliases;
  std::string architecture;
  std::optional<std::string> compute_capability;
  std::optional<uint64_t> memory_bytes;
  std::optional<double> memory_bandwidth_gbs, fp32_tflops, fp16_tensor_tflops, bf16_tensor_tflops,
      fp16_accumulate_tflops, fp8_tensor_tflops;
  std::optional<int> tdp_w, launch_year;
  std::optional<double> launch_price_usd, street_price_usd;
  std::optional<double> used_price_usd;  ///< a typical second-hand price, where a dated source gives one
  std::string street_price_date, form_factor;
  std::vector<std::pair<uint16_t, uint16_t>> pci_ids;  ///< (vendor, device)
  std::optional<int> sms, boost_clock_mhz, pcie_gen, pcie_width;
  std::optional<uint64_t> l2_bytes;
  std::string software_support, source, date;
};

/// Which system's driver a version belongs to: NVIDIA numbers Linux and Windows drivers apart (580.95.05, 581.57).
/// WSL runs the Windows driver.
enum class DriverOs { linux, windows };

struct CudaDriverRow {
  std::string cuda;     ///< "12.8"
  std::string release;  ///< "GA", "Update 1"
  std::optional<Version> linux_min_driver, windows_min_driver, family_min_driver, windows_family_min_driver;

  /// The minor-version-compatibility floor of this CUDA's family for drivers of `os`.
  const std::optional<Version>& family_min(DriverOs os) const {
    return os == DriverOs::windows ? windows_family_min_driver : family_min_driver;
  }
};

struct TorchBuild {
  std::string torch;     ///< "2.7"
  std::string released;  ///< "2025-04"
  std::optional<std::string> cuda;  ///< "12.8"; none for the CPU wheel
  std::string platform;  ///< "linux-x86_64", "linux-aarch64", "windows-x86_64"
  std::vector<std::string> arch_list;  ///< compute capabilities with native code ("7.5", "8.0")
  std::optional<std::string> ptx;      ///< capability whose PTX is embedded
  std::string channel;   ///< stable | experimental
  /// The wheel index of a ROCm or XPU build ("rocm6.4", "xpu": download.pytorch.org/whl/<index>); its arch_list
  /// then holds gfx targets (ROCm) or nothing (XPU). None for CUDA and CPU builds, whose index follows `cuda`.
  std::optional<std::string> index;
  std::optional<Version> python_min, python_max;  ///< the CPython versions with wheels ("3.10", "3.14")
};

/// The torchvision and torchaudio releases made with a torch release (data/torch_companions.csv).
struct TorchCompanions {
  std::string torch;                       ///< "2.5"
  std::string torchvision;                 ///< "0.20"
  std::optional<std::string> torchaudio;   ///< "2.5"; none where torchaudio made no release
};

/// The last driver branch of an NVIDIA architecture whose support has ended (data/driver_branches.csv).
struct DriverBranch {
  std::string arch;                 ///< "Kepler"
  Version cc_min, cc_max;           ///< its compute capabilities, "3.0" to "3.7"
  int last_branch = 0;              ///< 470
  Version last_driver;              ///< 470.256.02
  std::optional<std::string> max_cuda;  ///< the newest CUDA that branch runs natively, "11.4"
};

/// How a Linux distribution installs the NVIDIA driver (data/driver_routes.csv).
struct DriverRoute {
  std::string os_id;                  ///< os-release ID: "debian"
  std::string version_id;             ///< os-release VERSION_ID it holds for ("12"); "" for every version
  std::optional<Version> driver;      ///< the driver its package installs; none: it follows NVIDIA's current branch
  std::string command;                ///< one line to paste: "sudo apt install nvidia-driver firmware-misc-nonfree"
  std::string prerequisite;           ///< what to do first, in words (translated where shown); "" when nothing
};

struct ComputeCapability {
  std::string cc, sm, architecture, family;
};

const std::vector<GpuSpec>& gpus();
const std::vector<CudaDriverRow>& cuda_drivers();
const std::vector<TorchBuild>& torch_builds();
/// The CPU wheel's row: no CUDA and no other backend.
inline bool is_cpu_build(const TorchBuild& b) { return !b.cuda && !b.index; }
const std::vector<ComputeCapability>& compute_capabilities();
const std::vector<TorchCompanions>& torch_companions();
const std::vector<DriverBranch>& driver_branches();
const std::vector<DriverRoute>& driver_routes();
/// AMD's integrated GPUs (APUs) by the ISA ROCm names them with ("gfx1036"), from data/amd_apus.csv.
const std::vector<std::string>& amd_apu_targets();
bool is_amd_apu(std::string_view gfx_target);
/// The companions of a torch release ("2.5"); nullptr when the table has none.
const TorchCompanions* find_torch_companions(std::string_view torch);
/// The ended branch that a compute capability's architecture stopped at; nullptr while it is still supported.
const DriverBranch* last_driver_branch(std::string_view cc);
/// The driver route of a distribution: the row for its ID and VERSION_ID ("12" also matches "12.7"), else the
/// row for its ID with no version; nullptr when the table has none.
const DriverRoute* find_driver_route(std::string_view os_id, std::string_view version_id);
/// Errors met while loading the tables ("DIR/torch_builds.csv:5:12: cuda 'cu126' is not a version like 12.8").
std::vector<std::string> load_errors();

/// The "YYYY-MM-DD" of the newest row in gpus.csv: the catalogue's date, printed with advice.
std::string gpus_date();

/// Matching a device or a user's GPU name to a row: catalog/gpu_match.hpp (match_gpu), the one matcher.

/// "8.9" -> Ada Lovelace; nullopt when unknown.
const ComputeCapability* find_compute_capability(std::string_view cc);

/// Minimum driver for a CUDA version's GA release ("12.8" -> 570.26 on Linux, 570.65 on Windows); on Windows, where
/// NVIDIA prints no minimum (13.x), its family floor (580). nullopt when unknown.
std::optional<Version> min_driver_for_cuda(std::string_view cuda, DriverOs os = DriverOs::linux);
/// The newest CUDA "major.minor" a driver version can run at full feature level (GA minimum met).
std::optional<std::string> newest_cuda_for_driver(const Version& driver, DriverOs os = DriverOs::linux);

/// Whether a build's binaries can run on a capability: native code for the same major and a minor at or
/// below it, or PTX for a capability at or below it (JIT-compiled by the driver).
bool arch_list_runs(const std::vector<std::string>& arch_list, const std::optional<std::string>& ptx, std::string_view cc);

/// The newest PyTorch release with a CUDA build that runs one GPU, and that build's CUDA.
struct ReleaseForGpu {
  bool current = false;                     ///< the newest release in the table runs it
  std::optional<std::string> release;       ///< "2.2"
  std::optional<std::string> cuda;          ///< "12.1"
};

/// Releases in `builds`, newest first (rows whose `torch` is not a version are left out).
std::vector<std::string> torch_releases(const std::vector<TorchBuild>& builds);
/// The same for data/torch_builds.csv.
std::vector<std::string> torch_releases();
/// The newest release with a CUDA build for `platform` that runs compute capability `cc` (data/torch_builds.csv);
/// the one place that answers "does current PyTorch still run this card" (diagnose and advise ask it).
ReleaseForGpu newest_release_for(std::string_view cc, const std::string& platform, const std::vector<std::string>& releases);

/// Parses "sm_86"/"compute_90"/"8.6" into "8.6" (nullopt otherwise).
std::optional<std::string> arch_to_cc(std::string_view arch);

}  // namespace gpuscout::catalog
