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

/// A data/gpus.csv row, reduced to what bench uses.
struct GpuSpec {
  std::string name;
  std::optional<double> fp32_tflops, fp16_tflops, bf16_tflops, fp8_tflops, bandwidth_gbs;
  std::optional<int> sms, boost_clock_mhz;
  std::string source;
};
/// Finds the catalogue row for a CUDA device name ("NVIDIA H200"): exact name or alias first, then the
/// longest name or alias contained in it. Reads columns tolerantly (missing columns are absent values).
std::optional<GpuSpec> find_gpu_spec(std::string_view device_name);
/// Dense datasheet peak for a precision (tf32 = half the bf16 rate, the NVIDIA tensor-core ratio).
std::optional<double> datasheet_tflops(const GpuSpec& spec, Dtype d);
/// Per-direction PCIe bandwidth in GB/s for a link (gen 1..6, width lanes); nullopt when unknown. Pure.
std::optional<double> pcie_gbs(int gen, int width);
/// Fills efficiency, computed peaks, throttling and the PCIe verdict from the records and telemetry. Pure.
void interpret_gpu(GpuResult& gpu, const std::optional<GpuSpec>& spec);

}  // namespace gpuscout::bench
