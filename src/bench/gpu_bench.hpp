#pragma once
/// The GPU half of bench: loads the plugin, runs GEMM per precision and the copies on every CUDA device
/// while NVML samples it, and sets peaks from data/gpus.csv.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/dtype.hpp"
#include "bench/harness.hpp"
#include "bench/result.hpp"
#include "catalog/gpu_match.hpp"
#include "inventory/inventory.hpp"

namespace gpuscout::bench {

struct GpuPlan {
  std::vector<std::pair<Dtype, int>> gemms;  ///< (precision, n) in run order
  Method method;
  uint64_t transfer_bytes = 256ull << 20;
  std::string plugin_install_dir;
  std::function<void(std::string_view)> progress;
  std::vector<Gpu> inventory_gpus;  ///< the Inventory's GPUs: each device's identity, found by PCI bus id
  std::string nvml_note;            ///< why NVML must not be used (it hung when probed), or "" to sample with it
  std::vector<uint64_t> allreduce_bytes;  ///< bench --nccl: per-rank all-reduce sizes, smallest first; empty: no step
};

struct GpuSection {
  GpuStatus status;
  std::vector<GpuResult> gpus;
  std::optional<NcclResult> nccl;
};

/// Runs the plan in this process: meant for the bench child (gpu_child.hpp), where a hang has a deadline.
GpuSection run_gpus(const GpuPlan& plan);

/// The Inventory's GPU with this PCI bus id, or null.
const Gpu* inventory_gpu(const std::vector<Gpu>& gpus, std::string_view pci_bus_id);
/// Takes name, compute capability, SMs, clock, memory and L2 from the Inventory where it knows them.
void take_identity(GpuResult& gpu, const Gpu& known);

/// Dense datasheet peak for a precision (tf32 = half the bf16 rate, the NVIDIA tensor-core ratio).
std::optional<double> datasheet_tflops(const catalog::GpuSpec& spec, Dtype d);
/// Per-direction PCIe bandwidth in GB/s for a link (gen 1..6, width lanes); nullopt when unknown. Pure.
std::optional<double> pcie_gbs(int gen, int width);
/// Fills efficiency, computed peaks, throttling and the PCIe verdict from the records and telemetry. Pure.
/// `match` is the device's catalogue row (catalog::match_gpu); with none, or for a MIG slice, there is no
/// datasheet peak to compare with, and a note says why.
void interpret_gpu(GpuResult& gpu, const std::optional<catalog::GpuMatch>& match);

}  // namespace gpuscout::bench
