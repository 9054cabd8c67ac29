#pragma once
/// `gpuscout bench` as a library call: options and the machine's Inventory in, BenchResult out. The CPU's
/// description (cores, clock, caches, SIMD features) and the memory available come from the Inventory; the GPU
/// part runs in a child process with a deadline, so a hung or crashing driver becomes a GPU error and the CPU
/// results stand. Throws UsageError for bad options and Interrupted when stop_requested() (Ctrl-C, SIGTERM),
/// after freeing everything it allocated and killing the GPU child.
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/dtype.hpp"
#include "bench/result.hpp"
#include "inventory/inventory.hpp"

namespace gpuscout::bench {

inline constexpr int kMaxSize = 32768;

struct BenchOptions {
  bool full = false;
  bool run_cpu = true;
  bool run_gpu = true;
  bool nccl = false;                         ///< --nccl: also NCCL all-reduce over every GPU of this machine
  std::optional<std::vector<Dtype>> dtypes;  ///< default: every precision each side supports
  std::optional<int> size;                   ///< one GEMM size instead of the ladder
  std::string plugin_install_dir;            ///< where an installed plugin lives (compile-time prefix)
  std::function<void(std::string_view)> progress;  ///< one short line per step; may be empty
  /// The longest the GPU child may run before it is killed (--timeout); default_gpu_timeout() when unset.
  std::optional<std::chrono::milliseconds> gpu_timeout;
};

/// "4096" -> 4096; throws UsageError for 0, negatives, junk and sizes above kMaxSize.
int parse_size(std::string_view text);
/// --timeout: seconds, a finite number from 0.1 to 86400 (a day) ("90", "2.5"); throws UsageError otherwise
/// (nan, inf, 0, negatives, junk, an empty value).
std::chrono::milliseconds parse_timeout(std::string_view text);
/// "cpu", "gpu", "all"; throws UsageError otherwise.
void apply_device(std::string_view device, BenchOptions& options);

/// CPU GEMM sizes for the mode (the classic 5000 always in the ladder).
std::vector<int> cpu_gemm_sizes(const BenchOptions& options, Dtype d);
std::vector<int> gpu_gemm_sizes(const BenchOptions& options, Dtype d);
/// --nccl's per-rank all-reduce sizes, smallest first: latency-bound to link-bound, 256 MiB the largest (the plugin
/// shrinks one that does not fit); none without --nccl.
std::vector<uint64_t> allreduce_sizes(const BenchOptions& options);

/// The memory a benchmark may take: MemAvailable, capped by a container's limit. Pure.
std::optional<uint64_t> memory_available_bytes(const MemoryInfo& memory);
/// Why the GPU part is not even started, from what the probes found: a driver that hung when probed (its
/// plugin would hang too) or no libcuda.so.1 (unless a plugin is named in GPUSCOUT_CUDA_PLUGIN). Pure.
std::optional<std::string> gpu_skip_reason(const Inventory& inventory, bool plugin_given);

/// The GPU child's deadline when --timeout is not given: 3 minutes for a quick run, 10 for a full one, per
/// NVIDIA GPU the inventory lists (each is measured in turn). Pure.
std::chrono::milliseconds default_gpu_timeout(bool full, const Inventory& inventory);

BenchResult run_bench(const BenchOptions& options, const Inventory& inventory);

/// Fills result.speedup from the CPU and GPU GEMM records. Pure.
Speedup compute_speedup(const BenchResult& result);

}  // namespace gpuscout::bench
