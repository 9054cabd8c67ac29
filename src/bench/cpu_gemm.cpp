#include "bench/cpu_gemm.hpp"


#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "bench/blas_library.hpp"

namespace gpuscout::bench {
namespace {

// Looked up at run time: not every OpenBLAS exports them (Debian's 0.3.21 has no cblas_sbgemm), and
// another BLAS behind libblas.so.3 has none of them.
using SetThreadsFn = vendor::cblas::SetThreads;
using GetStringFn = vendor::cblas::GetString;
using SbgemmFn = vendor::cblas::Sbgemm;
constexpr int CblasRowMajor = vendor::cblas::kRowMajor;
constexpr int CblasNoTrans = vendor::cblas::kNoTrans;

template <typename Fn>
Fn lookup(const char* name) {
  const auto& blas = blas_library();
  return blas.lookup ? reinterpret_cast<Fn>(blas.lookup(name)) : nullptr;
}

// Sampled entries (i, j) from a fixed seed; reference dot product in fp64 over the inputs as stored.
template <typename GetA, typename GetB, typename GetC>
void check(int n, GetA a, GetB b, GetC c, GemmRun& run) {
  uint64_t state = 0x5eed;
  auto next = [&state](int mod) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int>((state >> 33) % static_cast<uint64_t>(mod));
  };
  const int samples = std::min(64, n * n);
  double worst = 0;
  for (int s = 0; s < samples; ++s) {
    const int i = next(n), j = next(n);
    double ref = 0, mag = 0;
    for (int k = 0; k < n; ++k) {
      const double p = a(i, k) * b(k, j);
      ref += p;
      mag += std::fabs(p);
    }
    const double err = std::fabs(c(i, j) - ref) / std::max(mag, 1e-300);
    worst = std::max(worst, std::isfinite(err) ? err : INFINITY);
  }
  run.rel_error = worst;
  run.checked = samples;
  run.ok = worst <= rel_error_bound(run.dtype);
}

}  // namespace

uint16_t float_to_bf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(u >> 16);
}

float bf16_to_float(uint16_t b) {
  const uint32_t u = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

BlasInfo blas_info() {
  BlasInfo info;
  info.available = blas_library().sgemm && blas_library().dgemm;
  info.missing = blas_library().missing;
  if (auto cfg = lookup<GetStringFn>("openblas_get_config")) {
    info.name = "OpenBLAS";
    if (const char* s = cfg()) info.config = s;
  }
  if (auto core = lookup<GetStringFn>("openblas_get_corename"))
    if (const char* s = core()) info.corename = s;
  info.has_bf16 = lookup<SbgemmFn>("cblas_sbgemm") != nullptr;
  info.threads_settable = lookup<SetThreadsFn>("openblas_set_num_threads") != nullptr;
  return info;
}

bool set_blas_threads(int threads) {
  auto fn = lookup<SetThreadsFn>("openblas_set_num_threads");
  if (!fn) return false;
  fn(std::max(1, threads));
  return true;
}

bool cpu_gemm_supports(Dtype d, const BlasInfo& blas) {
  if (!blas.available) return false;
  return d == Dtype::fp32 || d == Dtype::fp64 || (d == Dtype::bf16 && blas.has_bf16);
}

uint64_t cpu_gemm_bytes(Dtype d, int n) {
  const uint64_t nn = static_cast<uint64_t>(n) * static_cast<uint64_t>(n);
  switch (d) {
    case Dtype::fp64: return 3 * nn * 8;
    case Dtype::bf16: return 2 * nn * 2 + nn * 4;
    default: return 3 * nn * 4;
  }
}

GemmRun run_cpu_gemm(Dtype d, int n, const Method& method) {
  GemmRun run;
  run.dtype = d;
  run.n = n;
  const size_t nn = static_cast<size_t>(n) * static_cast<size_t>(n);
  const auto at = [n](int i, int j) { return static_cast<size_t>(i) * static_cast<size_t>(n) + static_cast<size_t>(j); };
  if (!blas_library().sgemm || !blas_library().dgemm) return run;
  if (d == Dtype::fp64) {
    std::vector<double> a(nn), b(nn), c(nn);
    fill_random(a, 1);
    fill_random(b, 2);
    fill_random(c, 3);  // beta = 0 overwrites it; random so a kernel that skips the write fails the check
    run.m = measure([&] { blas_library().dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a.data(), n, b.data(),
                                      n, 0.0, c.data(), n); }, method);
    check(n, [&](int i, int k) { return a[at(i, k)]; }, [&](int k, int j) { return b[at(k, j)]; },
          [&](int i, int j) { return c[at(i, j)]; }, run);
  } else if (d == Dtype::fp32) {
    std::vector<float> a(nn), b(nn), c(nn);
    fill_random(a, 1);
    fill_random(b, 2);
    fill_random(c, 3);
    run.m = measure([&] { blas_library().sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(),
                                      n, 0.0f, c.data(), n); }, method);
    check(n, [&](int i, int k) { return double{a[at(i, k)]}; }, [&](int k, int j) { return double{b[at(k, j)]}; },
          [&](int i, int j) { return double{c[at(i, j)]}; }, run);
  } else if (d == Dtype::bf16) {
    auto sbgemm = lookup<SbgemmFn>("cblas_sbgemm");
    if (!sbgemm) return run;
    std::vector<float> tmp(nn);
    std::vector<uint16_t> a(nn), b(nn);
    fill_random(tmp, 1);
    std::transform(tmp.begin(), tmp.end(), a.begin(), float_to_bf16);
    fill_random(tmp, 2);
    std::transform(tmp.begin(), tmp.end(), b.begin(), float_to_bf16);
    std::vector<float> c(nn);
    fill_random(c, 3);
    run.m = measure([&] { sbgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(), n,
                                 0.0f, c.data(), n); }, method);
    check(n, [&](int i, int k) { return double{bf16_to_float(a[at(i, k)])}; },
          [&](int k, int j) { return double{bf16_to_float(b[at(k, j)])}; },
          [&](int i, int j) { return double{c[at(i, j)]}; }, run);
  } else {
    return run;
  }
  const double flops = 2.0 * n * static_cast<double>(n) * n;
  run.gflops = run.m.stats.median_s > 0 ? flops / run.m.stats.median_s / 1e9 : 0;
  return run;
}

}  // namespace gpuscout::bench
