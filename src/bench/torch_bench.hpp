#pragma once
/// `bench --torch`: the lesson's `torch.randn(n, n) @ torch.randn(n, n)` measured properly in the user's own
/// PyTorch (warm-up, repeats, median; CUDA events and a synchronize on the GPU), beside what gpuscout's own OpenBLAS
/// and cuBLAS runs got on the same machine and the hardware's peak, with findings when PyTorch gets much less.
/// The interpreter runs a short script as a child process with an argument vector and a deadline; every case it
/// finishes is printed at once, so a run stopped at the deadline keeps what it measured.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/dtype.hpp"
#include "bench/harness.hpp"
#include "core/finding.hpp"
#include "core/json.hpp"
#include "inventory/inventory.hpp"

namespace gpuscout::bench {

struct BenchResult;
struct BenchOptions;

/// One matrix product in PyTorch: C = A @ B, all n x n, on one device in one precision.
struct TorchCase {
  std::string device;          ///< "cpu" or "cuda:N" (N in CUDA's numbering, as gpuscout's own GPU runs)
  Dtype dtype = Dtype::fp32;   ///< tf32: fp32 tensors with torch.backends.cuda.matmul.allow_tf32 = True
  int n = 0;
  Measurement m;               ///< seconds per product (CUDA events on the GPU)
  double gflops = 0;           ///< 2 n^3 / median; GPU cases too (shown as TFLOP/s)
  std::optional<double> rel_error;  ///< max |C - C64| / (|A| |B|) over sampled rows, as gpuscout's own GEMMs
  bool ok = false;             ///< measured and within rel_error_bound(dtype)
  std::string error;           ///< why it failed: PyTorch's own message ("OutOfMemoryError: CUDA out of memory...")
  /// Why it was not run: "deadline" (no time left), "needs-sm80" (TF32 and bf16 need compute capability 8.0),
  /// "tf32-rocm" (TF32 is a CUDA setting). "" when it ran.
  std::string skipped;
  /// gpuscout's own GEMM of the same device, precision and size in this run (OpenBLAS, cuBLAS), and the peak.
  std::optional<double> native_gflops;
  std::optional<double> peak_gflops;
  std::optional<double> of_native;  ///< gflops / native_gflops
  std::optional<double> of_peak;    ///< gflops / peak_gflops
};

struct TorchBench {
  std::string python;                 ///< the interpreter that ran it
  std::optional<std::string> version; ///< torch.__version__
  std::optional<std::string> cuda;    ///< torch.version.cuda
  std::optional<bool> debug;
  std::optional<int> num_threads;     ///< torch.get_num_threads() in that interpreter and environment
  std::optional<std::string> blas, cpu_capability;
  std::optional<int> usable_cpus;     ///< what num_threads is compared with (cpu_count.hpp)
  std::optional<bool> allow_tf32_default;  ///< torch.backends.cuda.matmul.allow_tf32 as the user's scripts get it
  std::vector<TorchCase> cases;
  std::string error;   ///< why there are no (or not all) results, in one line; "" when all ran
  bool timed_out = false;
  double seconds = 0;  ///< the child's wall time
  std::vector<Finding> findings;
};

/// What the script is asked to measure: the cases per device and the method.
struct TorchPlan {
  std::vector<std::pair<Dtype, int>> cpu;  ///< (precision, n)
  std::vector<std::pair<Dtype, int>> gpu;  ///< on every CUDA device torch sees
  Method method;
  double deadline_s = 120;                 ///< the script stops starting cases after this; the child is killed later
};

/// The cases for the options: CPU fp32 at the lesson's 5000 (or --size); on the GPU fp32 at 5000 and the fast
/// precisions (tf32, fp16, bf16) at the largest size of gpuscout's own ladder; --dtype filters. Pure.
TorchPlan torch_plan(const BenchOptions& options, int cuda_devices);

/// "cpu" or "cuda:N" with N of 1 to 4 digits: the only devices a case may name (the script's output and a saved
/// file are both checked with it).
bool is_torch_device(std::string_view device);

/// The script run with `python -c SCRIPT PLAN_JSON`.
std::string_view torch_bench_script();
std::string plan_json(const TorchPlan& plan);

/// Reads the script's output lines (GPUSCOUT_TORCH_INFO / _CASE / _ERROR / _DONE) into `out`. Every value is another
/// program's text: checked, bounded, cleaned; a line that is not what it claims is ignored. Returns whether the
/// script reached its end (_DONE, or _ERROR when torch did not import). Pure.
bool parse_torch_output(std::string_view output, TorchBench& out);

/// Fills of_native, of_peak from gpuscout's own results in the same run, then the findings. Pure.
void compare_with_native(TorchBench& torch, const BenchResult& result);

/// Runs the script in the interpreter the Inventory's Python probe found, which must have imported torch. Stops
/// (Interrupted) on Ctrl-C, killing the child. `timeout` bounds the child's whole run.
TorchBench run_torch_bench(const BenchOptions& options, const Inventory& inventory, std::chrono::milliseconds timeout);

/// The child's deadline when --timeout is not given: 2 minutes for a quick run, 10 for a full one, plus a minute per
/// CUDA device torch sees. Pure.
std::chrono::milliseconds default_torch_timeout(bool full, const Inventory& inventory);

/// The "torch" object of the bench JSON, and its lines in the text report (torch_report.cpp).
nlohmann::ordered_json torch_json(const TorchBench& torch);
void torch_text(const TorchBench& torch, std::string& out);

}  // namespace gpuscout::bench
