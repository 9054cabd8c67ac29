#pragma once
/// CPU GEMM through the BLAS the binary links (OpenBLAS): C = A x B, n x n, row-major, random inputs,
/// one thread per physical core, result checked in fp64 on sampled entries.
#include <optional>
#include <string>

#include "bench/dtype.hpp"
#include "bench/harness.hpp"

namespace gpuscout::bench {

struct BlasInfo {
  std::string name = "BLAS";      ///< "OpenBLAS" when its symbols are present
  std::string config;              ///< openblas_get_config()
  std::string corename;            ///< openblas_get_corename(): the kernel set OpenBLAS chose
  bool has_bf16 = false;           ///< cblas_sbgemm is exported by this build
  bool threads_settable = false;   ///< openblas_set_num_threads is present
  bool available = true;           ///< a BLAS with cblas_sgemm and cblas_dgemm is there (Windows: maybe not)
  std::string missing;             ///< why not, for the user
};

BlasInfo blas_info();
/// Sets the BLAS thread count (OpenBLAS); false when the library offers no way to.
bool set_blas_threads(int threads);

struct GemmRun {
  Dtype dtype = Dtype::fp32;
  int n = 0;
  Measurement m;
  double gflops = 0;      ///< 2 n^3 / median
  double rel_error = 0;   ///< max |C - ref| / sum_k |A_ik B_kj| over `checked` sampled entries
  int checked = 0;
  bool ok = false;        ///< rel_error within rel_error_bound(dtype)
};

/// Dtypes this BLAS can run: fp32, fp64, and bf16 with cblas_sbgemm.
bool cpu_gemm_supports(Dtype d, const BlasInfo& blas);
/// Bytes the three matrices need.
uint64_t cpu_gemm_bytes(Dtype d, int n);
/// Runs one size. Precondition: cpu_gemm_supports(d).
GemmRun run_cpu_gemm(Dtype d, int n, const Method& method);

/// fp32 -> bf16 with round-to-nearest-even (NaN kept quiet), and back.
uint16_t float_to_bf16(float f);
float bf16_to_float(uint16_t b);

}  // namespace gpuscout::bench
