#pragma once
/// The one GPU matcher: from what a driver, a probe or a user says about a device to its data/gpus.csv row.
/// Used by the probes' join, fit --gpu, platforms --gpu, advise and bench, so they all agree.
///
/// Accepted: the catalogue's names and aliases, and the names nvidia-smi, NVML, CUDA, torch, ROCm and the Intel
/// driver print ("NVIDIA GeForce RTX 4090", "Tesla T4", "NVIDIA A100-SXM4-80GB", "AMD Radeon RX 7900 XTX",
/// "Intel(R) Arc(TM) A770 Graphics"); letter case, vendor words, (R)/(TM), hyphens vs spaces, a trailing "GPU"
/// or "Graphics" and "Mobile" for "Laptop" do not matter; "GeForce"/"Tesla"/"Radeon"/"Quadro"/"Instinct" are
/// optional where that leaves one row. Names are compared word for word, never as substrings: "H200 NVL" is not
/// "H200" and "GH200" is not "H200".
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.hpp"

namespace gpuscout::catalog {

/// What is known about a device. A PCI id pair wins over the name; memory tells apart variants that share a
/// name or an id (RTX 4060 Ti 8/16 GB, A100 40/80 GB) and rules out a row whose memory the device cannot have
/// (an RTX 3060 8GB is not the catalogue's RTX 3060 12GB row).
struct GpuQuery {
  std::string_view name{};
  std::optional<uint16_t> pci_vendor_id{}, pci_device_id{};
  std::optional<uint64_t> memory_bytes{};  ///< total, as the driver reports it (a few percent under the datasheet)
};

struct GpuMatch {
  enum class By { pci_id, name, alias };
  const GpuSpec* spec = nullptr;  ///< never null in a returned match
  By by = By::name;
  /// Set when the device is a MIG slice of `spec` ("1g.18gb", or "" when the profile is not named): the row's
  /// figures (peak TFLOP/s, memory, bandwidth) are then the whole card's, not this device's.
  std::optional<std::string> mig_profile{};
  /// The slice's memory from its profile ("1g.18gb" -> 18e9 bytes, decimal GB, a little under the real slice).
  std::optional<uint64_t> mig_memory_bytes{};
  /// The slice's share of the card, from its profile: compute slices ("3g" of the 7 of an A100/H100/H200, of the
  /// 4 of an A30; a compute instance "1c.3g" counts its 1) and memory slices (eighths of the card's memory, which
  /// also carry its memory bandwidth: a 3g.71gb of an H200 has 4/8). Unset off MIG or for an unnamed profile.
  std::optional<double> mig_compute_share{};
  std::optional<double> mig_memory_share{};
};

/// The row for a device; nullopt when none fits or the name is ambiguous (then see closest_gpu_names).
std::optional<GpuMatch> match_gpu(const GpuQuery& query);

/// True when the name is a MIG slice's, as CUDA and nvidia-smi print it ("NVIDIA H200 MIG 1g.18gb").
bool names_mig_slice(std::string_view name);

/// Compute slices of the whole card in MIG mode (7 on an A100, H100 or H200; 4 on an A30).
int mig_card_slices(const GpuSpec& spec);

/// The words a name is compared by, joined by single spaces ("NVIDIA GeForce RTX 4090" -> "geforce rtx 4090").
std::string normalise_name(std::string_view name);

/// Catalogue names close to an unknown one, best first, at most `count`; empty when nothing is close.
std::vector<std::string> closest_gpu_names(std::string_view name, size_t count = 3);
/// " (did you mean: A, B?)" for an unknown name, or "" when nothing is close.
std::string did_you_mean(std::string_view name);

}  // namespace gpuscout::catalog
