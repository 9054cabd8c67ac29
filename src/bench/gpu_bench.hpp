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

namespace gpuscout::bench {

struct GpuPlan {
  std::vector<std::pair<Dtype, int>> gemms;  ///< (precision, n) in run order
  Method method;
  uint64_t transfer_bytes = 256ull << 20;
  std::string plugin_install_dir;
  std::function<void(std::string_view)> progress;
};

struct GpuSection {
  GpuStatus status;
  std::vector<GpuResult> gpus;
};

GpuSection run_gpus(const GpuPlan& plan);

/// Dense datasheet peak for a precision (tf32 = half the bf16 rate, the NVIDIA tensor-core ratio).
std::optional<double> datasheet_tflops(const catalog::GpuSpec& spec, Dtype d);
/// Per-direction PCIe bandwidth in GB/s for a link (gen 1..6, width lanes); nullopt when unknown. Pure.
std::optional<double> pcie_gbs(int gen, int width);
/// Fills efficiency, computed peaks, throttling and the PCIe verdict from the records and telemetry. Pure.
/// `match` is the device's catalogue row (catalog::match_gpu); with none, or for a MIG slice, there is no
/// datasheet peak to compare with, and a note says why.
void interpret_gpu(GpuResult& gpu, const std::optional<catalog::GpuMatch>& match);

}  // namespace gpuscout::bench
