#pragma once
/// Measured FMA peak: independent chains of fused multiply-adds (enough to hide the FMA latency on
/// two pipes) in registers, per SIMD width, compiled with per-function target attributes and chosen at
/// run time. Reported beside the computed peak (cores x clock x FLOPs per cycle) because in a VM the
/// reported clock can be far from the real one.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench/cpu_facts.hpp"
#include "bench/harness.hpp"

namespace gpuscout::bench {

enum class Precision { fp32, fp64 };

/// Runs `iterations` of the unrolled FMA loop on one thread; returns the FLOPs done. `sink` defeats
/// dead-code elimination. Exposed for tests and the bench/ scripts.
uint64_t fma_kernel(Isa isa, Precision p, uint64_t iterations, double* sink);

struct IsaPeak {
  Isa isa = Isa::scalar;
  double single_core_gflops = 0;
};

struct PeakResult {
  Precision precision = Precision::fp32;
  Isa isa = Isa::scalar;               ///< the fastest kernel, used for all cores
  std::vector<IsaPeak> per_isa;        ///< single-core figure of each usable kernel
  double single_core_gflops = 0;
  double all_cores_gflops = 0;
  int threads = 1;
  Measurement single_core;             ///< seconds per timed run (flops_per_run over each)
  Measurement all_cores;
  uint64_t flops_per_thread_run = 0;
  std::optional<double> computed_gflops;  ///< cores x clock x FLOPs/cycle
  std::string computed_from;              ///< how computed_gflops was obtained, in words
};

/// FLOPs per cycle per core assumed for the computed peak: 2 FMA pipes x lanes x 2.
int flops_per_cycle(Isa isa, Precision p);

/// Measures single-core for every usable ISA, then all `threads` cores with the best one.
PeakResult measure_peak(const CpuFacts& cpu, Precision p, int threads, const Method& method, double target_run_s);

}  // namespace gpuscout::bench
