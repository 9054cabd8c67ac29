#pragma once
/// The bench result model: what was measured, how (warm-ups, every sample, median, spread), against
/// which peak, and with which library versions. Renderers (text, JSON, --compare) only format it.
/// Rates: CPU in GFLOP/s, GPU in TFLOP/s, bandwidth in GB/s (1e9 bytes/s); times in seconds.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench/cpu_gemm.hpp"
#include "bench/cpu_facts.hpp"
#include "bench/cpu_memory.hpp"
#include "bench/cpu_peak.hpp"
#include "bench/harness.hpp"
#include "bench/torch_bench.hpp"

namespace gpuscout::bench {

inline constexpr const char* kBenchSchema = "gpuscout.bench/1";

struct CpuGemmRecord {
  GemmRun run;
  std::optional<double> efficiency;  ///< gflops / measured all-core FMA peak of the same precision
};

/// The fp32 GEMMs run again in a fresh process with OPENBLAS_CORETYPE set to the best kernel set this OpenBLAS has
/// for the CPU, when OpenBLAS chose a lower one itself (an older release that does not know a newer CPU). The
/// speed-up uses the faster of the two runs.
struct KernelRerun {
  std::string coretype;              ///< the OPENBLAS_CORETYPE given ("Cooperlake")
  std::string corename;              ///< the kernel set OpenBLAS then said it used ("" when the run failed)
  std::vector<CpuGemmRecord> gemm;   ///< fp32, the sizes of the first run
  std::string error;                 ///< why there are no figures, for the user ("" when there are)
};

struct CpuResult {
  CpuFacts facts;
  int threads = 1;                   ///< threads for BLAS, the peak and the memory test (one per core)
  BlasInfo blas;
  std::optional<KernelRerun> kernel_rerun;
  std::optional<PeakResult> peak_fp32;
  std::optional<PeakResult> peak_fp64;
  std::vector<CpuGemmRecord> gemm;
  std::optional<MemoryRun> memory;
  std::vector<std::string> notes;
};

/// Every CPU GEMM of `c` with the OPENBLAS_CORETYPE it ran under: OpenBLAS's own choice ("") first, then the rerun.
template <typename F>
void for_each_cpu_gemm(const CpuResult& c, F f) {
  for (const auto& g : c.gemm) f(g, std::string());
  if (c.kernel_rerun)
    for (const auto& g : c.kernel_rerun->gemm) f(g, c.kernel_rerun->coretype);
}

struct GpuGemmRecord {
  Dtype dtype = Dtype::fp32;
  int n = 0;
  int status = 0;                    ///< gpuscout_status
  Measurement m;
  double tflops = 0;
  double rel_error = 0;
  int checked = 0;
  bool ok = false;
  std::optional<double> peak_datasheet_tflops;  ///< data/gpus.csv dense figure
  std::optional<double> peak_computed_tflops;   ///< SMs x observed clock x per-SM rate
  std::optional<double> efficiency;             ///< tflops / datasheet (else computed) peak
  std::optional<int> sm_clock_mhz_median;       ///< NVML, during this GEMM
  std::string note;
};

struct TransferRecord {
  std::string kind;     ///< "d2d", "h2d_pinned", ...
  int status = 0;
  uint64_t size_bytes = 0;
  Measurement m;
  double gbs = 0;       ///< d2d counts read + write
  bool verified = false;
  std::string note;
};

struct GpuTelemetry {
  int samples = 0;
  std::optional<int> sm_clock_mhz_min, sm_clock_mhz_max;
  std::optional<double> power_w_max;
  std::string power_method;          ///< "instant" (NVML_FI_DEV_POWER_INSTANT) or "one-second average"; "" unknown
  std::optional<double> power_limit_w;
  std::optional<int> temperature_c_max;
  uint64_t throttle_reasons = 0;     ///< union over samples taken under load
  std::optional<int> pcie_gen_under_load, pcie_width_under_load;  ///< highest seen during transfers
  std::optional<int> pcie_gen_max, pcie_gpu_gen_max, pcie_width_max;
};

struct GpuResult {
  int index = 0;
  std::string name;
  std::string pci_bus_id;
  std::string compute_capability;
  int sm_count = 0;
  int clock_sm_mhz_max = 0;
  uint64_t memory_total_bytes = 0;
  uint64_t memory_free_bytes = 0;
  uint64_t l2_bytes = 0;
  std::string driver_cuda_version, runtime_version, cublas_version;
  std::optional<std::string> catalog_name;     ///< matched data/gpus.csv row
  std::optional<double> memory_bandwidth_gbs;  ///< datasheet
  std::vector<GpuGemmRecord> gemm;
  std::optional<TransferRecord> copy, h2d_pinned, h2d_pageable, d2h_pinned, d2h_pageable;
  std::optional<double> pcie_expected_gbs;     ///< per direction, for the link seen under load
  bool pcie_below_max = false;
  GpuTelemetry telemetry;
  bool throttled = false;      ///< a thermal or hardware slowdown (a fault), never the power cap alone
  bool power_capped = false;   ///< ran at the power limit (expected under full load)
  bool host_cpus_bound = false;  ///< host transfers ran on the CPUs near the GPU (nvmlDeviceSetCpuAffinity)
  std::vector<std::string> notes;
};

/// One NCCL all-reduce size over all the machine's GPUs (bench --nccl).
struct AllReduceRecord {
  int status = 0;              ///< the plugin's gpuscout_status (1 = not run here, note says why)
  uint64_t size_bytes = 0;     ///< bytes per rank
  Measurement m;
  double algbw_gbs = 0;        ///< bytes / median time
  double busbw_gbs = 0;        ///< algbw x 2(n-1)/n (nccl-tests' bus bandwidth)
  bool verified = false;       ///< every rank's result was the sum of the ranks' inputs
  std::string note;
};

struct NcclResult {
  int ranks = 0;
  std::string nccl_version;    ///< "2.27.3", or "" when NCCL was not loaded
  std::string status;          ///< why nothing was measured ("NCCL not found", "1 GPU"), or ""
  std::vector<AllReduceRecord> sizes;
  std::vector<std::string> notes;
};

struct GpuStatus {
  bool requested = false;
  bool available = false;
  std::optional<std::string> plugin_path;
  std::string plugin_version;
  std::string message;  ///< why there are no GPU results, in one line
};

/// "The classic question": 5000 x 5000 fp32 matmul on CPU and GPU.
struct Speedup {
  int n = 5000;
  std::optional<double> cpu_fp32_ms;
  std::optional<double> gpu_fp32_ms;
  std::optional<double> gpu_bf16_ms;
  std::optional<double> fp32_speedup;
  std::optional<double> bf16_speedup;     ///< GPU bf16 vs CPU fp32
  std::optional<double> eight_hours_minutes;  ///< an 8-hour GEMM-bound CPU job, on the GPU at bf16 (else fp32)
  /// Copying A and B to the GPU and C back (3 n x n fp32 matrices) at the measured pageable rates (else pinned),
  /// as a learner's own code pays for it; and the fp32 GEMM with those copies.
  std::optional<double> transfer_ms;
  std::optional<double> gpu_fp32_with_transfers_ms;
  std::optional<double> fp32_with_transfers_speedup;
  /// Without a measured GPU: the same GEMM on a Tesla T4 (the free Colab and Kaggle GPU) at its datasheet fp32 peak
  /// (data/gpus.csv), an estimate and a lower bound on the time, never a measurement.
  std::optional<std::string> estimate_gpu;
  std::optional<double> estimate_gpu_fp32_ms;
  std::optional<double> estimate_fp32_speedup;
  std::string basis;                      ///< "measured at n=5000" or "from the rates at n=..."
  /// The OPENBLAS_CORETYPE of the CPU figure used when the rerun with the CPU's best kernels was faster (CpuResult::
  /// kernel_rerun), else "": OpenBLAS's own choice.
  std::string cpu_coretype;
};

struct BenchResult {
  std::string schema = kBenchSchema;
  std::string gpuscout_version;
  std::string collected_at;
  std::string mode = "quick";
  std::string device = "all";
  std::optional<CpuResult> cpu;
  GpuStatus gpu_status;
  std::vector<GpuResult> gpus;
  std::optional<NcclResult> nccl;  ///< bench --nccl: all-reduce over every GPU of this machine
  Speedup speedup;
  std::optional<TorchBench> torch;  ///< bench --torch: the same products in the user's PyTorch
  std::vector<std::string> notes;
};

}  // namespace gpuscout::bench
