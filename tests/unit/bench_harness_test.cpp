// Pure parts of the bench module plus small real runs (correctness, not speed).
#include <gtest/gtest.h>

#include "bench/cpu_gemm.hpp"
#include "bench/cpu_facts.hpp"
#include "bench/cpu_memory.hpp"
#include "bench/cpu_peak.hpp"
#include "bench/dtype.hpp"
#include "bench/gpu_bench.hpp"
#include "bench/harness.hpp"
#include "bench/nvml_sampler.hpp"
#include "bench/report.hpp"
#include "bench/run.hpp"
#include "catalog/gpu_match.hpp"
#include "core/error.hpp"
#include "probe/sources.hpp"

using namespace gpuscout;
using namespace gpuscout::bench;

TEST(BenchHarness, SummarizeOddEvenEmpty) {
  const std::vector<double> odd{3, 1, 2};
  auto s = summarize(odd);
  EXPECT_DOUBLE_EQ(s.median_s, 2);
  EXPECT_DOUBLE_EQ(s.min_s, 1);
  EXPECT_DOUBLE_EQ(s.max_s, 3);
  EXPECT_DOUBLE_EQ(s.spread_pct, 100);
  const std::vector<double> even{4, 1, 2, 3};
  EXPECT_DOUBLE_EQ(summarize(even).median_s, 2.5);
  EXPECT_DOUBLE_EQ(summarize(std::vector<double>{}).median_s, 0);
}

TEST(BenchHarness, MeasureHonoursWarmupAndRepeats) {
  int calls = 0;
  auto m = measure([&] { ++calls; }, Method{2, 5, 7, 0.0});
  EXPECT_EQ(m.warmups, 2);
  EXPECT_EQ(m.samples_s.size(), 5u);
  EXPECT_EQ(calls, 7);
  auto capped = measure([] {}, Method{0, 1, 3, 1e9});  // budget never reached: max_repeats stops it
  EXPECT_EQ(capped.samples_s.size(), 3u);
}

TEST(BenchHarness, StopFlagInterrupts) {
  stop_flag().store(true);
  EXPECT_THROW(measure([] {}, Method{}), Interrupted);
  stop_flag().store(false);
}

TEST(BenchHarness, RandomDataIsNeitherZeroNorConstant) {
  std::vector<float> v(1000);
  fill_random(v, 42);
  int zeros = 0;
  float lo = 1, hi = -1;
  for (float x : v) {
    zeros += x == 0.0f;
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  EXPECT_EQ(zeros, 0);
  EXPECT_LT(lo, -0.9f);
  EXPECT_GT(hi, 0.9f);
  EXPECT_GE(lo, -1.0f);
  EXPECT_LT(hi, 1.0f);
}

TEST(BenchDtype, ParseAndErrors) {
  EXPECT_EQ(parse_dtype("BF16"), Dtype::bf16);
  EXPECT_EQ(parse_dtype("float32"), Dtype::fp32);
  EXPECT_FALSE(parse_dtype("int4"));
  auto list = parse_dtype_list("fp32, bf16,fp32");
  ASSERT_EQ(list.size(), 2u);
  EXPECT_THROW(parse_dtype_list("fp32,int4"), UsageError);
  EXPECT_THROW(parse_dtype_list(","), UsageError);
  EXPECT_LT(rel_error_bound(Dtype::fp32), rel_error_bound(Dtype::tf32));
  EXPECT_LT(rel_error_bound(Dtype::tf32), rel_error_bound(Dtype::bf16));
}

TEST(BenchRun, ParseSizeRejectsBadInput) {
  EXPECT_EQ(parse_size("4096"), 4096);
  EXPECT_THROW(parse_size("0"), UsageError);
  EXPECT_THROW(parse_size("-5"), UsageError);
  EXPECT_THROW(parse_size("abc"), UsageError);
  EXPECT_THROW(parse_size("99999999999"), UsageError);
  EXPECT_THROW(parse_size(std::to_string(kMaxSize + 1)), UsageError);
  BenchOptions o;
  EXPECT_THROW(apply_device("tpu", o), UsageError);
  apply_device("cpu", o);
  EXPECT_TRUE(o.run_cpu);
  EXPECT_FALSE(o.run_gpu);
}

TEST(BenchRun, LaddersIncludeTheClassicSize) {
  BenchOptions o;
  auto cpu = cpu_gemm_sizes(o, Dtype::fp32);
  EXPECT_NE(std::find(cpu.begin(), cpu.end(), 5000), cpu.end());
  auto gpu = gpu_gemm_sizes(o, Dtype::bf16);
  EXPECT_NE(std::find(gpu.begin(), gpu.end(), 5000), gpu.end());
  o.size = 300;
  EXPECT_EQ(cpu_gemm_sizes(o, Dtype::fp64), std::vector<int>{300});
}

TEST(BenchCpuFacts, IsasComeFromTheProbedFeatures) {
  // The probe's features already require the OS to save the registers (XGETBV): bench trusts them as they are.
  auto isas = usable_isas("x86_64", {"avx", "avx2", "fma"});
  EXPECT_NE(std::find(isas.begin(), isas.end(), Isa::avx2_fma), isas.end());
  EXPECT_EQ(std::find(isas.begin(), isas.end(), Isa::avx512f), isas.end());
  isas = usable_isas("x86_64", {"avx", "avx2", "fma", "avx512f"});
  EXPECT_NE(std::find(isas.begin(), isas.end(), Isa::avx512f), isas.end());
  isas = usable_isas("x86_64", {"avx2"});  // no fma: no AVX2 kernel
  EXPECT_EQ(isas, (std::vector<Isa>{Isa::scalar, Isa::sse2}));
  EXPECT_EQ(usable_isas("aarch64", {"neon", "sve"}), std::vector<Isa>{Isa::scalar});
}

TEST(BenchPeak, KernelsCountTheirFlopsAndRunHere) {
  const auto facts = cpu_facts(probe::probe_cpu());
  for (Isa isa : facts.isas) {
    double sink = 0;
    const uint64_t flops = fma_kernel(isa, Precision::fp32, 1000, &sink);
    EXPECT_EQ(flops, 1000ull * 12 * 2 * (isa == Isa::scalar ? 1 : isa_bits(isa) / 32)) << isa_name(isa);
    EXPECT_TRUE(std::isfinite(sink));
  }
  auto p = measure_peak(facts, Precision::fp64, 1, Method{0, 1, 1, 0}, 0.002);
  EXPECT_GT(p.all_cores_gflops, 0);
  EXPECT_EQ(flops_per_cycle(Isa::avx2_fma, Precision::fp32), 32);
}

TEST(BenchCpuGemm, SmallGemmsAreCorrect) {
  const auto blas = blas_info();
  set_blas_threads(2);
  for (Dtype d : {Dtype::fp32, Dtype::fp64, Dtype::bf16}) {
    if (!cpu_gemm_supports(d, blas)) continue;
    auto r = run_cpu_gemm(d, 96, Method{1, 2, 2, 0});
    EXPECT_TRUE(r.ok) << dtype_name(d) << " rel_error " << r.rel_error;
    EXPECT_GT(r.gflops, 0);
    EXPECT_EQ(r.checked, 64);
  }
  EXPECT_EQ(bf16_to_float(float_to_bf16(1.0f)), 1.0f);
  EXPECT_EQ(float_to_bf16(1.00390625f), float_to_bf16(1.0f));  // halfway rounds to even
}

TEST(BenchMemory, SmallRunVerifies) {
  auto r = run_memory(4 << 20, 2, Method{0, 2, 2, 0});
  EXPECT_TRUE(r.verified);
  EXPECT_GT(r.copy_gbs, 0);
  EXPECT_GT(r.triad_gbs, 0);
  EXPECT_EQ(memory_array_bytes(32 << 20, 64 << 20, 0), 128ull << 20);
  EXPECT_EQ(memory_array_bytes(32 << 20, 64 << 20, 512ull << 20), 64ull << 20);  // capped at available / 8
}

TEST(BenchGpu, PcieAndThrottleHelpers) {
  EXPECT_NEAR(*pcie_gbs(4, 16), 31.5, 0.1);
  EXPECT_NEAR(*pcie_gbs(3, 4), 3.94, 0.01);
  EXPECT_FALSE(pcie_gbs(0, 16));
  auto names = throttle_reason_names(0x4 | 0x40);
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0], "sw_power_cap");
}

TEST(BenchGpu, InterpretSetsPeaksEfficiencyAndPcieVerdict) {
  catalog::GpuSpec spec;
  spec.name = "GeForce RTX 4090";
  spec.bf16_tensor_tflops = 165.15;
  spec.sms = 128;
  spec.boost_clock_mhz = 2520;
  GpuResult gpu;
  gpu.sm_count = 128;
  gpu.clock_sm_mhz_max = 2520;
  GpuGemmRecord g;
  g.dtype = Dtype::bf16;
  g.tflops = 150;
  g.sm_clock_mhz_median = 1260;  // half clock: computed peak halves
  gpu.gemm.push_back(g);
  gpu.telemetry.pcie_gen_under_load = 4;
  gpu.telemetry.pcie_width_under_load = 4;
  gpu.telemetry.pcie_gen_max = 4;
  gpu.telemetry.pcie_width_max = 16;
  gpu.telemetry.throttle_reasons = 0x1 | 0x40;  // idle + hardware thermal slowdown
  interpret_gpu(gpu, catalog::GpuMatch{.spec = &spec});
  EXPECT_EQ(gpu.catalog_name, "GeForce RTX 4090");
  EXPECT_NEAR(*gpu.gemm[0].efficiency, 150 / 165.15, 1e-9);
  EXPECT_NEAR(*gpu.gemm[0].peak_computed_tflops, 165.15 / 2, 1e-6);
  EXPECT_TRUE(gpu.pcie_below_max);
  EXPECT_TRUE(gpu.throttled);
  EXPECT_FALSE(gpu.notes.empty());
}

// An H200 at its 700 W limit sets the software power-cap reason under every dense GEMM: expected, not a fault.
// Thermal and hardware slowdowns are the faults.
TEST(BenchGpu, PowerCapIsNotThrottling) {
  struct Case {
    uint64_t reasons;
    bool throttled, capped;
  };
  for (const Case& c : {Case{0x4, false, true}, Case{0x1 | 0x4, false, true}, Case{0x4 | 0x20, true, true},
                        Case{0x8, true, false}, Case{0x40, true, false}, Case{0x80, true, false}, Case{0x0, false, false},
                        Case{0x1 | 0x2 | 0x10 | 0x100, false, false}}) {
    GpuResult gpu;
    gpu.telemetry.throttle_reasons = c.reasons;
    interpret_gpu(gpu, std::nullopt);
    EXPECT_EQ(gpu.throttled, c.throttled) << std::hex << c.reasons;
    EXPECT_EQ(gpu.power_capped, c.capped) << std::hex << c.reasons;
    bool says_limit = false;
    for (const auto& n : gpu.notes) says_limit |= n.find("power limit") != std::string::npos;
    EXPECT_EQ(says_limit, c.capped && !c.throttled) << std::hex << c.reasons;
  }
}

namespace {

GpuResult one_bf16_gemm(const std::string& name, int sm_count) {
  GpuResult gpu;
  gpu.name = name;
  gpu.sm_count = sm_count;
  gpu.clock_sm_mhz_max = 1980;
  GpuGemmRecord g;
  g.dtype = Dtype::bf16;
  g.tflops = 600;
  gpu.gemm.push_back(g);
  return gpu;
}

bool has_note(const GpuResult& gpu, std::string_view words) {
  for (const auto& n : gpu.notes)
    if (n.find(words) != std::string::npos) return true;
  return false;
}

}  // namespace

// Bench's datasheet row comes from catalog::match_gpu, as the device names it.
TEST(BenchGpu, DatasheetRowForTheDeviceName) {
  auto h200 = one_bf16_gemm("NVIDIA H200", 132);
  interpret_gpu(h200, catalog::match_gpu({.name = h200.name}));
  EXPECT_EQ(h200.catalog_name, "H200 SXM 141GB");
  ASSERT_TRUE(h200.gemm[0].peak_datasheet_tflops);
  EXPECT_NEAR(*h200.gemm[0].efficiency, 600 / *h200.gemm[0].peak_datasheet_tflops, 1e-9);
  EXPECT_TRUE(h200.memory_bandwidth_gbs);
  // Products whose names contain "H200" are compared with their own rows, never the H200 SXM's.
  for (const auto& [other, row] : {std::pair{"NVIDIA H200 NVL", "H200 NVL"}, std::pair{"NVIDIA GH200 480GB", "GH200 480GB"}}) {
    auto gpu = one_bf16_gemm(other, 132);
    const auto match = catalog::match_gpu({.name = gpu.name});
    interpret_gpu(gpu, match);
    EXPECT_EQ(gpu.catalog_name, row) << other;
    ASSERT_TRUE(gpu.gemm[0].peak_datasheet_tflops) << other;
    EXPECT_EQ(*gpu.gemm[0].peak_datasheet_tflops, *match->spec->bf16_tensor_tflops) << other;
    EXPECT_EQ(gpu.memory_bandwidth_gbs, match->spec->memory_bandwidth_gbs) << other;
  }
  // A name the catalogue does not know has no datasheet: no efficiency, a note says why.
  auto unknown = one_bf16_gemm("NVIDIA H100 CNX", 132);
  interpret_gpu(unknown, catalog::match_gpu({.name = unknown.name}));
  EXPECT_FALSE(unknown.catalog_name);
  EXPECT_FALSE(unknown.gemm[0].peak_datasheet_tflops);
  EXPECT_FALSE(unknown.gemm[0].efficiency);
  EXPECT_FALSE(unknown.memory_bandwidth_gbs);
  EXPECT_TRUE(has_note(unknown, "not in the GPU catalogue"));
}

TEST(BenchGpu, MigSliceIsNotComparedWithTheWholeCard) {
  auto slice = one_bf16_gemm("NVIDIA H200 MIG 1g.18gb", 16);
  interpret_gpu(slice, catalog::match_gpu({.name = slice.name, .memory_bytes = 16ull << 30}));
  EXPECT_EQ(slice.catalog_name, "H200 SXM 141GB");
  const auto* whole = catalog::match_gpu({.name = "NVIDIA H200"})->spec;
  // Its share of the card's datasheet: 1 of 7 compute slices, 1 of 8 memory slices (and their bandwidth).
  ASSERT_TRUE(slice.gemm[0].peak_datasheet_tflops);
  EXPECT_NEAR(*slice.gemm[0].peak_datasheet_tflops, *whole->bf16_tensor_tflops / 7, 1e-9);
  ASSERT_TRUE(slice.memory_bandwidth_gbs);
  EXPECT_NEAR(*slice.memory_bandwidth_gbs, *whole->memory_bandwidth_gbs / 8, 1e-9);
  EXPECT_TRUE(has_note(slice, "MIG slice (1g.18gb)"));
  EXPECT_TRUE(has_note(slice, "1/7 of the compute, 1/8 of the memory bandwidth"));
  // Never the ~9% "efficiency" of a slice against the whole card.
  ASSERT_TRUE(slice.gemm[0].efficiency);
  EXPECT_NEAR(*slice.gemm[0].efficiency, 600 / *slice.gemm[0].peak_computed_tflops, 1e-9);
  // Its own peak: the card's per-SM rate times the slice's 16 SMs, so efficiency is against the slice.
  ASSERT_TRUE(slice.gemm[0].peak_computed_tflops);
  const auto* card = catalog::match_gpu({.name = "NVIDIA H200"})->spec;
  ASSERT_TRUE(card->sms && card->boost_clock_mhz && card->bf16_tensor_tflops);
  EXPECT_NEAR(*slice.gemm[0].peak_computed_tflops,
              *card->bf16_tensor_tflops / *card->sms / *card->boost_clock_mhz * 16 * 1980, 1e-6);
  EXPECT_LT(*slice.gemm[0].peak_computed_tflops, *card->bf16_tensor_tflops / 4);
}

TEST(BenchReport, SpeedupJsonAndCompare) {
  BenchResult r;
  CpuResult cpu;
  CpuGemmRecord rec;
  rec.run.dtype = Dtype::fp32;
  rec.run.n = 5000;
  rec.run.gflops = 200;
  rec.run.ok = true;
  cpu.gemm.push_back(rec);
  r.cpu = cpu;
  GpuResult gpu;
  GpuGemmRecord g;
  g.dtype = Dtype::bf16;
  g.n = 5000;
  g.tflops = 200;
  g.ok = true;
  gpu.gemm.push_back(g);
  r.gpus.push_back(gpu);
  r.speedup = compute_speedup(r);
  ASSERT_TRUE(r.speedup.bf16_speedup);
  EXPECT_NEAR(*r.speedup.bf16_speedup, 1000, 1e-6);
  EXPECT_NEAR(*r.speedup.eight_hours_minutes, 0.48, 1e-9);
  EXPECT_FALSE(r.speedup.fp32_speedup);
  const auto j = to_json(r);
  for (const char* key : {"schema", "cpu", "gpus", "speedup", "notes"}) EXPECT_TRUE(j.contains(key)) << key;
  for (const char* key : {"threads", "peak_gflops", "gemm", "memory_gbs"}) EXPECT_TRUE(j["cpu"].contains(key)) << key;
  EXPECT_EQ(j["cpu"]["gemm"][0]["dtype"], "fp32");
  for (const char* key : {"gflops", "seconds_median", "rel_error", "n"}) EXPECT_TRUE(j["cpu"]["gemm"][0].contains(key));
  for (const char* key : {"index", "name", "gemm", "copy_gbs", "h2d_gbs", "d2h_gbs", "throttled"})
    EXPECT_TRUE(j["gpus"][0].contains(key)) << key;
  EXPECT_TRUE(j["gpus"][0]["h2d_gbs"].contains("pinned"));
  const nlohmann::json a = nlohmann::json::parse(j.dump());
  nlohmann::json b = a;
  b["cpu"]["gemm"][0]["gflops"] = 400.0;
  const auto c = compare_json(from_json(a).value(), from_json(b).value(), "a.json", "b.json");
  bool found = false;
  for (const auto& row : c["rows"])
    if (row["label"] == "CPU GEMM fp32 n=5000") {
      found = true;
      EXPECT_DOUBLE_EQ(row["ratio_b_over_a"].get<double>(), 2.0);
    }
  EXPECT_TRUE(found);
  EXPECT_NE(render_compare(c).find("2.00 x"), std::string::npos);
  EXPECT_NE(render_text(r).find("at bf16 the GPU does 1000 x"), std::string::npos) << render_text(r);
}

// A learner's own code copies A and B to the GPU and C back: the speed-up is shown with those copies too, at the
// measured pageable rates (tensors made on the CPU are pageable), else the pinned ones.
TEST(BenchReport, SpeedupWithTransfers) {
  BenchResult r;
  CpuResult cpu;
  CpuGemmRecord rec;
  rec.run.dtype = Dtype::fp32;
  rec.run.n = 5000;
  rec.run.gflops = 250;  // 1000 ms
  rec.run.ok = true;
  cpu.gemm.push_back(rec);
  r.cpu = cpu;
  GpuResult gpu;
  GpuGemmRecord g;
  g.dtype = Dtype::fp32;
  g.n = 5000;
  g.tflops = 50;  // 5 ms
  g.ok = true;
  gpu.gemm.push_back(g);
  gpu.h2d_pinned = TransferRecord{"h2d_pinned", 0, 1 << 28, {}, 50.0, true, ""};
  gpu.h2d_pageable = TransferRecord{"h2d_pageable", 0, 1 << 28, {}, 20.0, true, ""};
  gpu.d2h_pinned = TransferRecord{"d2h_pinned", 0, 1 << 28, {}, 40.0, true, ""};
  r.gpus.push_back(gpu);
  r.speedup = compute_speedup(r);
  const double matrix = 4.0 * 5000 * 5000;
  ASSERT_TRUE(r.speedup.transfer_ms);
  EXPECT_NEAR(*r.speedup.transfer_ms, (2 * matrix / 20e9 + matrix / 40e9) * 1e3, 1e-9);  // pageable up, pinned down
  EXPECT_NEAR(*r.speedup.gpu_fp32_with_transfers_ms, 5 + *r.speedup.transfer_ms, 1e-9);
  EXPECT_NEAR(*r.speedup.fp32_with_transfers_speedup, 1000 / (5 + *r.speedup.transfer_ms), 1e-9);
  EXPECT_LT(*r.speedup.fp32_with_transfers_speedup, *r.speedup.fp32_speedup);
  EXPECT_FALSE(r.speedup.estimate_gpu_fp32_ms);  // measured: no estimate
  const auto j = to_json(r);
  EXPECT_TRUE(j["speedup"]["fp32_with_transfers"].is_number());
  EXPECT_NE(render_text(r).find("With the copies to the GPU and back"), std::string::npos) << render_text(r);
  const auto back = from_json(nlohmann::json::parse(j.dump()));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->speedup.transfer_ms, r.speedup.transfer_ms);
}

// Without a GPU, the classic question still gets an answer: a Tesla T4 from the catalogue, said to be an estimate.
TEST(BenchReport, NoGpuEstimatesATeslaT4) {
  BenchResult r;
  CpuResult cpu;
  CpuGemmRecord rec;
  rec.run.dtype = Dtype::fp32;
  rec.run.n = 5000;
  rec.run.gflops = 250;
  rec.run.ok = true;
  cpu.gemm.push_back(rec);
  r.cpu = cpu;
  r.speedup = compute_speedup(r);
  const auto* t4 = catalog::match_gpu({.name = "Tesla T4"})->spec;
  ASSERT_TRUE(r.speedup.estimate_gpu_fp32_ms);
  EXPECT_EQ(r.speedup.estimate_gpu, t4->name);
  EXPECT_NEAR(*r.speedup.estimate_gpu_fp32_ms, 2.0 * 5000 * 5000 * 5000 / (*t4->fp32_tflops * 1e12) * 1e3, 1e-9);
  EXPECT_NEAR(*r.speedup.estimate_fp32_speedup, 1000 / *r.speedup.estimate_gpu_fp32_ms, 1e-9);
  EXPECT_FALSE(r.speedup.gpu_fp32_ms);
  const auto text = render_text(r);
  EXPECT_NE(text.find("Estimate: on a Tesla T4"), std::string::npos) << text;
  EXPECT_TRUE(to_json(r)["speedup"]["estimate_gpu_fp32_ms"].is_number());
}
