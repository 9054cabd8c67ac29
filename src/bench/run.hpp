#pragma once
/// `gpuscout bench` as a library call: options in, BenchResult out. Throws UsageError for bad options
/// and Interrupted when stop_requested() (Ctrl-C), after freeing everything it allocated.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/dtype.hpp"
#include "bench/result.hpp"

namespace gpuscout::bench {

inline constexpr int kMaxSize = 32768;

struct BenchOptions {
  bool full = false;
  bool run_cpu = true;
  bool run_gpu = true;
  std::optional<std::vector<Dtype>> dtypes;  ///< default: every precision each side supports
  std::optional<int> size;                   ///< one GEMM size instead of the ladder
  std::string plugin_install_dir;            ///< where an installed plugin lives (compile-time prefix)
  std::function<void(std::string_view)> progress;  ///< one short line per step; may be empty
};

/// "4096" -> 4096; throws UsageError for 0, negatives, junk and sizes above kMaxSize.
int parse_size(std::string_view text);
/// "cpu", "gpu", "all"; throws UsageError otherwise.
void apply_device(std::string_view device, BenchOptions& options);

/// CPU GEMM sizes for the mode (the classic 5000 always in the ladder).
std::vector<int> cpu_gemm_sizes(const BenchOptions& options, Dtype d);
std::vector<int> gpu_gemm_sizes(const BenchOptions& options, Dtype d);

BenchResult run_bench(const BenchOptions& options);

/// Fills result.speedup from the CPU and GPU GEMM records. Pure.
Speedup compute_speedup(const BenchResult& result);

}  // namespace gpuscout::bench
