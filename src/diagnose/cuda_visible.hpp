#pragma once
/// CUDA_VISIBLE_DEVICES as CUDA reads it (CUDA C++ Programming Guide, "CUDA Environment Variables"): a
/// comma-separated list of device indices (in CUDA's own order, fastest first unless CUDA_DEVICE_ORDER=PCI_BUS_ID),
/// GPU UUIDs as nvidia-smi prints them ("GPU-8932f937-..."; any prefix that names one GPU), or MIG instances
/// ("MIG-GPU-<uuid>/<gpu instance>/<compute instance>" or "MIG-<uuid>"). CUDA reads the list up to the first entry
/// that is none of these, names no GPU, or repeats one; only the GPUs before it are visible ("0,2,-1,1": 0 and 2).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "inventory/inventory.hpp"

namespace gpuscout::diagnose {

enum class VisibleKind { index, gpu_uuid, mig };

struct VisibleEntry {
  VisibleKind kind = VisibleKind::index;
  std::string text;         ///< the entry as written, spaces trimmed
  unsigned long long index = 0;  ///< for VisibleKind::index
};

struct VisibleList {
  std::vector<VisibleEntry> entries;     ///< the entries before the first that is no identifier
  std::optional<std::string> stopped_at; ///< that entry ("-1", "" for an empty value or ",,"), if any
};

/// The syntax only: which entries are identifiers. Whether they name a GPU of the machine is cuda_visibility's job.
VisibleList parse_cuda_visible_devices(std::string_view value);

/// A recorded CUDA_VISIBLE_DEVICES applied to the machine's NVIDIA GPUs.
struct CudaVisibility {
  std::string value;                      ///< as recorded
  int nvidia_gpus = 0;                    ///< NVIDIA GPUs NVML or PCI sees
  int visible = 0;                        ///< how many the list lets CUDA see
  std::optional<std::string> stopped_at;  ///< the entry where CUDA stops reading, when GPUs are listed after it
  /// The hidden GPUs in the list's own terms: CUDA indices ("1") for a list of indices, else UUIDs.
  std::vector<std::string> hidden;
  /// The hidden GPUs themselves, where the inventory tells: matched by UUID, by PCI order under
  /// CUDA_DEVICE_ORDER=PCI_BUS_ID, or as the NVIDIA GPUs the CUDA probe did not see.
  std::vector<const Gpu*> hidden_gpus;
};

/// nullopt when the environment was not recorded, or CUDA_VISIBLE_DEVICES is unset.
std::optional<CudaVisibility> cuda_visibility(const Inventory& inventory);

}  // namespace gpuscout::diagnose
