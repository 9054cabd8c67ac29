#pragma once
/// The data each chart of the HTML report receives: a Chart.js configuration (type, data, options) built from
/// what the commands computed, plus a title, a caption and, when there is nothing to draw, the reason instead.
/// Pure functions: tests check these values, the page only hands them to Chart.js.
/// Units: GEMM in GFLOP/s (CPU) or TFLOP/s (GPU), bandwidth in GB/s (1e9 bytes/s), memory in GiB, time in ms.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "advise/advise.hpp"
#include "bench/result.hpp"
#include "core/json.hpp"
#include "plan/estimate.hpp"

namespace gpuscout::report {

using ChartJson = nlohmann::ordered_json;

struct ChartSpec {
  std::string kind;     ///< gemm, bandwidth, speedup, memory-plan, advice, compare-gemm, compare-bandwidth, compare-speedup
  std::string id;       ///< unique in the page
  std::string title;
  std::string caption;  ///< one sentence: what is drawn and against which limit
  std::optional<std::string> empty_note;  ///< set when there is nothing to draw: says why (config is then null)
  ChartJson config;     ///< Chart.js configuration
  int height_px = 320;
};

/// A benchmark (read by bench::load_bench_file, so every field is already checked) and how to call it in legends.
struct BenchRun {
  std::string label;  ///< "laptop.json", "this machine"
  bench::BenchResult result;
};

/// GEMM rate against matrix size: one chart for the CPU (each precision with its measured FMA peak drawn as a
/// line) and one per GPU (each precision with its datasheet peak). No GPU: one empty chart that says why.
std::vector<ChartSpec> gemm_charts(const BenchRun& run);
/// Measured bandwidths (CPU memory, GPU memory, host<->device) beside their limits (datasheet, PCIe link).
ChartSpec bandwidth_chart(const BenchRun& run);
/// The classic question: 5000 x 5000 fp32 matmul time on the CPU and the GPU (and bf16 on the GPU).
ChartSpec speedup_chart(const BenchRun& run);

/// Several saved runs side by side: best GEMM rate per precision, bandwidths, and the 5000^3 time.
std::vector<ChartSpec> compare_charts(const std::vector<BenchRun>& runs);

/// One workload of the memory plan (a stacked bar).
struct MemoryPlanRow {
  std::string label;  ///< "inference bf16", "full training (AdamW, 16 B/param)"
  plan::Breakdown breakdown;
};
struct GpuMemoryPlan {
  std::string gpu;              ///< "NVIDIA GeForce RTX 4090"
  uint64_t capacity_bytes = 0;  ///< what the model may use
  std::string basis;            ///< "free", "total"
  std::string model;            ///< "llama-3.1-8b"
  std::vector<MemoryPlanRow> rows;
};
/// Stacked bars (weights, KV cache, activations, gradients, optimizer, overhead) with the card's memory as a line.
ChartSpec memory_plan_chart(const GpuMemoryPlan& plan, int index);
/// The empty chart for a machine without a GPU of known memory.
ChartSpec memory_plan_empty(const std::string& why);

/// Performance per 1000 USD of the recommended cards (within the budget, meeting the memory need).
ChartSpec advice_chart(const advise::Advice& advice);

/// Colour of a precision (the same in every chart).
std::string dtype_color(std::string_view dtype);

}  // namespace gpuscout::report
