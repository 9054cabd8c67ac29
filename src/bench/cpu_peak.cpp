#include "bench/cpu_peak.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include <fmt/format.h>

#include "core/i18n.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace gpuscout::bench {
namespace {

// 12 independent accumulators: enough to cover a 4-5 cycle FMA latency on 2 pipes, and with the two
// constants they fit in the 16 registers of AVX2. Each step is acc = acc * m + a, which converges to
// a / (1 - m) and so never overflows or goes denormal.
constexpr int kChains = 12;

template <typename T>
uint64_t scalar_kernel(uint64_t iterations, double* sink) {
  T acc[kChains];
  for (int j = 0; j < kChains; ++j) acc[j] = static_cast<T>(j) * static_cast<T>(0.001);
  const T m = static_cast<T>(0.999999), a = static_cast<T>(1e-6);
  for (uint64_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 12
    for (int j = 0; j < kChains; ++j) acc[j] = acc[j] * m + a;
  }
  T s = 0;
  for (int j = 0; j < kChains; ++j) s += acc[j];
  *sink += static_cast<double>(s);
  return iterations * kChains * 2;
}

#if defined(__x86_64__)
__attribute__((target("sse2"))) uint64_t sse2_f32(uint64_t iterations, double* sink) {
  __m128 acc[kChains];
  for (int j = 0; j < kChains; ++j) acc[j] = _mm_set1_ps(0.001f * static_cast<float>(j));
  const __m128 m = _mm_set1_ps(0.999999f), a = _mm_set1_ps(1e-6f);
  for (uint64_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 12
    for (int j = 0; j < kChains; ++j) acc[j] = _mm_add_ps(_mm_mul_ps(acc[j], m), a);
  }
  __m128 s = acc[0];
  for (int j = 1; j < kChains; ++j) s = _mm_add_ps(s, acc[j]);
  *sink += static_cast<double>(_mm_cvtss_f32(s));
  return iterations * kChains * 4 * 2;
}

__attribute__((target("sse2"))) uint64_t sse2_f64(uint64_t iterations, double* sink) {
  __m128d acc[kChains];
  for (int j = 0; j < kChains; ++j) acc[j] = _mm_set1_pd(0.001 * j);
  const __m128d m = _mm_set1_pd(0.999999), a = _mm_set1_pd(1e-6);
  for (uint64_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 12
    for (int j = 0; j < kChains; ++j) acc[j] = _mm_add_pd(_mm_mul_pd(acc[j], m), a);
  }
  __m128d s = acc[0];
  for (int j = 1; j < kChains; ++j) s = _mm_add_pd(s, acc[j]);
  *sink += _mm_cvtsd_f64(s);
  return iterations * kChains * 2 * 2;
}

__attribute__((target("avx2,fma"))) uint64_t avx2_f32(uint64_t iterations, double* sink) {
  __m256 acc[kChains];
  for (int j = 0; j < kChains; ++j) acc[j] = _mm256_set1_ps(0.001f * static_cast<float>(j));
  const __m256 m = _mm256_set1_ps(0.999999f), a = _mm256_set1_ps(1e-6f);
  for (uint64_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 12
    for (int j = 0; j < kChains; ++j) acc[j] = _mm256_fmadd_ps(acc[j], m, a);
  }
  __m256 s = acc[0];
  for (int j = 1; j < kChains; ++j) s = _mm256_add_ps(s, acc[j]);
  *sink += static_cast<double>(_mm256_cvtss_f32(s));
  return iterations * kChains * 8 * 2;
}

__attribute__((target("avx2,fma"))) uint64_t avx2_f64(uint64_t iterations, double* sink) {
  __m256d acc[kChains];
  for (int j = 0; j < kChains; ++j) acc[j] = _mm256_set1_pd(0.001 * j);
  const __m256d m = _mm256_set1_pd(0.999999), a = _mm256_set1_pd(1e-6);
  for (uint64_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 12
    for (int j = 0; j < kChains; ++j) acc[j] = _mm256_fmadd_pd(acc[j], m, a);
  }
  __m256d s = acc[0];
  for (int j = 1; j < kChains; ++j) s = _mm256_add_pd(s, acc[j]);
  *sink += _mm256_cvtsd_f64(s);
  return iterations * kChains * 4 * 2;
}

__attribute__((target("avx512f,fma"))) uint64_t avx512_f32(uint64_t iterations, double* sink) {
  __m512 acc[kChains];
  for (int j = 0; j < kChains; ++j) acc[j] = _mm512_set1_ps(0.001f * static_cast<float>(j));
  const __m512 m = _mm512_set1_ps(0.999999f), a = _mm512_set1_ps(1e-6f);
  for (uint64_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 12
    for (int j = 0; j < kChains; ++j) acc[j] = _mm512_fmadd_ps(acc[j], m, a);
  }
  __m512 s = acc[0];
  for (int j = 1; j < kChains; ++j) s = _mm512_add_ps(s, acc[j]);
  alignas(64) float lanes[16];  // not _mm512_reduce_add_ps: GCC 12's version trips -Wuninitialized
  _mm512_store_ps(lanes, s);
  for (float x : lanes) *sink += static_cast<double>(x);
  return iterations * kChains * 16 * 2;
}

__attribute__((target("avx512f,fma"))) uint64_t avx512_f64(uint64_t iterations, double* sink) {
  __m512d acc[kChains];
  for (int j = 0; j < kChains; ++j) acc[j] = _mm512_set1_pd(0.001 * j);
  const __m512d m = _mm512_set1_pd(0.999999), a = _mm512_set1_pd(1e-6);
  for (uint64_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 12
    for (int j = 0; j < kChains; ++j) acc[j] = _mm512_fmadd_pd(acc[j], m, a);
  }
  __m512d s = acc[0];
  for (int j = 1; j < kChains; ++j) s = _mm512_add_pd(s, acc[j]);
  alignas(64) double lanes[8];
  _mm512_store_pd(lanes, s);
  for (double x : lanes) *sink += x;
  return iterations * kChains * 8 * 2;
}
#endif

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

uint64_t fma_kernel(Isa isa, Precision p, uint64_t iterations, double* sink) {
  const bool f32 = p == Precision::fp32;
#if defined(__x86_64__)
  switch (isa) {
    case Isa::sse2: return f32 ? sse2_f32(iterations, sink) : sse2_f64(iterations, sink);
    case Isa::avx2_fma: return f32 ? avx2_f32(iterations, sink) : avx2_f64(iterations, sink);
    case Isa::avx512f: return f32 ? avx512_f32(iterations, sink) : avx512_f64(iterations, sink);
    case Isa::scalar: break;
  }
#else
  (void)isa;
#endif
  return f32 ? scalar_kernel<float>(iterations, sink) : scalar_kernel<double>(iterations, sink);
}

int flops_per_cycle(Isa isa, Precision p) {
  const int lanes = isa_bits(isa) / (p == Precision::fp32 ? 32 : 64);
  return 2 /* FMA pipes */ * std::max(1, lanes) * 2 /* multiply + add */;
}

namespace {

// Runs the kernel on `threads` threads released together; the sample is the wall time until all end.
double run_parallel(Isa isa, Precision p, uint64_t iterations, int threads) {
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> pool;
  std::vector<double> sinks(static_cast<size_t>(threads), 0.0);
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      ready.fetch_add(1);
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      fma_kernel(isa, p, iterations, &sinks[static_cast<size_t>(t)]);
    });
  }
  while (ready.load() < threads) std::this_thread::yield();
  const auto t0 = std::chrono::steady_clock::now();
  go.store(true, std::memory_order_release);
  for (auto& th : pool) th.join();
  return seconds_since(t0);
}

// Iterations for one run of about target_s on one thread.
uint64_t calibrate(Isa isa, Precision p, double target_s) {
  uint64_t iterations = 1 << 16;
  double sink = 0;
  for (;;) {
    const auto t0 = std::chrono::steady_clock::now();
    fma_kernel(isa, p, iterations, &sink);
    const double dt = seconds_since(t0);
    if (dt >= target_s / 8 || iterations >= (1ULL << 40)) {
      const double scale = target_s / std::max(dt, 1e-9);
      return std::max<uint64_t>(1024, static_cast<uint64_t>(static_cast<double>(iterations) * scale));
    }
    iterations *= 4;
  }
}

}  // namespace

PeakResult measure_peak(const CpuFacts& cpu, Precision p, int threads, const Method& method, double target_run_s) {
  PeakResult r;
  r.precision = p;
  r.threads = std::max(1, threads);
  double sink = 0;
  for (Isa isa : cpu.isas) {
    if (isa == Isa::scalar && cpu.isas.size() > 1) continue;  // a vector kernel always beats it
    throw_if_stopped();
    const uint64_t iterations = calibrate(isa, p, target_run_s);
    uint64_t flops = 0;
    Measurement m = measure([&] { flops = fma_kernel(isa, p, iterations, &sink); }, method);
    const double gflops = static_cast<double>(flops) / m.stats.median_s / 1e9;
    r.per_isa.push_back({isa, gflops});
    if (gflops > r.single_core_gflops) {
      r.single_core_gflops = gflops;
      r.isa = isa;
      r.single_core = std::move(m);
      r.flops_per_thread_run = flops;
    }
  }
  const uint64_t iterations = calibrate(r.isa, p, target_run_s);
  const uint64_t flops = fma_kernel(r.isa, p, 1, &sink) * iterations;
  r.all_cores = measure_self_timed([&] { return run_parallel(r.isa, p, iterations, r.threads); }, method);
  r.all_cores_gflops = static_cast<double>(flops) * r.threads / r.all_cores.stats.median_s / 1e9;
  if (cpu.max_mhz) {
    const int fpc = flops_per_cycle(r.isa, p);
    r.computed_gflops = r.threads * *cpu.max_mhz * 1e6 * fpc / 1e9;
    r.computed_from = trf("{} cores x {:.0f} MHz ({}) x {} FLOP/cycle ({}: 2 FMA pipes x {} lanes x 2)", r.threads,
                          *cpu.max_mhz, cpu.clock_source, fpc, isa_name(r.isa), fpc / 4);
  }
  (void)sink;
  return r;
}

}  // namespace gpuscout::bench
