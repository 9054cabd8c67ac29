// bench --torch: what is asked of the user's PyTorch, how its answer is read (another program's output: checked and
// bounded), how it is set against gpuscout's own runs, and that the JSON reads back.
#include <gtest/gtest.h>

#include <algorithm>

#include <fmt/format.h>

#include "bench/report.hpp"
#include "bench/run.hpp"
#include "bench/torch_bench.hpp"

namespace gpuscout::bench {
namespace {

// One output line (the script prints each object on one line; the tests write them over several for reading).
std::string case_line(std::string body) {
  std::replace(body.begin(), body.end(), '\n', ' ');
  return "GPUSCOUT_TORCH_CASE " + body + "\n";
}

const std::string kDone = "GPUSCOUT_TORCH_DONE {\"seconds\": 3.5}\n";

TEST(TorchPlan, LessonSizeOnTheCpuFastPrecisionsOnTheGpu) {
  BenchOptions o;
  auto p = torch_plan(o, 1);
  ASSERT_EQ(p.cpu.size(), 1u);
  EXPECT_EQ(p.cpu[0], std::make_pair(Dtype::fp32, 5000));
  // fp32 at the lesson's 5000 and at the ladder's top; tf32, fp16, bf16 at the top.
  const std::vector<std::pair<Dtype, int>> gpu{
      {Dtype::fp32, 5000}, {Dtype::fp32, 8192}, {Dtype::tf32, 8192}, {Dtype::fp16, 8192}, {Dtype::bf16, 8192}};
  EXPECT_EQ(p.gpu, gpu);
  EXPECT_TRUE(torch_plan(o, 0).gpu.empty()) << "no CUDA device in torch: no GPU cases";
}

TEST(TorchPlan, SizeDtypeAndDeviceOptionsApply) {
  BenchOptions o;
  o.size = 1024;
  o.dtypes = std::vector<Dtype>{Dtype::bf16};
  auto p = torch_plan(o, 2);
  EXPECT_TRUE(p.cpu.empty()) << "bf16 only: no fp32 CPU case";
  const std::vector<std::pair<Dtype, int>> gpu{{Dtype::bf16, 1024}};
  EXPECT_EQ(p.gpu, gpu);
  o.dtypes.reset();
  apply_device("cpu", o);
  p = torch_plan(o, 2);
  EXPECT_TRUE(p.gpu.empty());
  EXPECT_EQ(p.cpu.size(), 1u);
  EXPECT_EQ(p.cpu[0].second, 1024);
  EXPECT_NE(plan_json(p).find("\"cpu\":[[\"fp32\",1024]]"), std::string::npos) << plan_json(p);
}

TEST(TorchOutput, ReadsCasesAndComputesTheRate) {
  TorchBench t;
  const std::string out = "torch printed this\nGPUSCOUT_TORCH_INFO {\"allow_tf32\": false}\n" +
                          case_line(R"({"device": "cpu", "dtype": "fp32", "n": 1000, "first_s": 0.5, "warmups": 1,
                                       "samples_s": [0.02, 0.01, 0.03], "rel_error": 1e-8})") +
                          kDone;
  ASSERT_TRUE(parse_torch_output(out, t));
  EXPECT_EQ(t.allow_tf32_default, false);
  ASSERT_EQ(t.cases.size(), 1u);
  const auto& c = t.cases[0];
  EXPECT_EQ(c.device, "cpu");
  EXPECT_DOUBLE_EQ(c.m.stats.median_s, 0.02);
  EXPECT_NEAR(c.gflops, 2e9 / 0.02 / 1e9, 1e-9);  // 2 n^3 / median
  EXPECT_TRUE(c.ok);
  EXPECT_TRUE(c.error.empty());
}

TEST(TorchOutput, AnswerAboveTheBoundIsNotOk) {
  TorchBench t;
  parse_torch_output(case_line(R"({"device": "cuda:0", "dtype": "fp16", "n": 512, "samples_s": [0.001],
                                   "rel_error": 0.5})") + kDone,
                     t);
  ASSERT_EQ(t.cases.size(), 1u);
  EXPECT_FALSE(t.cases[0].ok);
  EXPECT_TRUE(t.cases[0].error.empty());
}

TEST(TorchOutput, HostileLinesAreIgnoredOrBounded) {
  TorchBench t;
  const std::string out =
      case_line(R"({"device": "cuda:0; rm -rf /", "dtype": "fp32", "n": 100, "samples_s": [1]})") +
      case_line(R"({"device": "cpu", "dtype": "fp99", "n": 100, "samples_s": [1]})") +
      case_line(R"({"device": "cpu", "dtype": "fp32", "n": 99999999, "samples_s": [1]})") +
      case_line(R"({"device": "cpu", "dtype": "fp32", "n": -5, "samples_s": [1]})") +
      case_line("{not json") + case_line("[1, 2]") +
      case_line(R"({"device": "cpu", "dtype": "fp32", "n": 64, "samples_s": [-1, "x", null, 0.5],
                    "rel_error": -3, "error": ")" + std::string(5000, 'e') + "\"}");
  EXPECT_FALSE(parse_torch_output(out, t)) << "no _DONE line: the script did not finish";
  ASSERT_EQ(t.cases.size(), 1u);
  const auto& c = t.cases[0];
  EXPECT_EQ(c.m.samples_s, std::vector<double>{0.5});
  EXPECT_FALSE(c.rel_error) << "a negative error is not believed";
  EXPECT_LE(c.error.size(), 300u);
  EXPECT_FALSE(c.ok);
}

TEST(TorchOutput, SkippedCasesKeepTheirReason) {
  TorchBench t;
  parse_torch_output(case_line(R"({"device": "cuda:1", "dtype": "bf16", "n": 8192, "skipped": "needs-sm80"})") +
                         case_line(R"({"device": "cuda:1", "dtype": "fp16", "n": 8192})") + kDone,
                     t);
  ASSERT_EQ(t.cases.size(), 2u);
  EXPECT_EQ(t.cases[0].skipped, "needs-sm80");
  EXPECT_EQ(t.cases[1].skipped, "deadline") << "no samples and no error: it ran out of time";
  EXPECT_FALSE(t.cases[0].ok);
}

TEST(TorchOutput, ImportErrorEndsTheRun) {
  TorchBench t;
  EXPECT_TRUE(parse_torch_output("GPUSCOUT_TORCH_ERROR {\"error\": \"ImportError: libcudnn.so.9\"}\n", t));
  EXPECT_EQ(t.error, "ImportError: libcudnn.so.9");
  EXPECT_TRUE(t.cases.empty());
}

// A result of gpuscout's own: OpenBLAS fp32 at n=5000 100 GFLOP/s, peak 200; cuBLAS on GPU 0.
BenchResult native() {
  BenchResult r;
  r.cpu.emplace();
  r.cpu->blas.name = "OpenBLAS";
  CpuGemmRecord g;
  g.run.dtype = Dtype::fp32;
  g.run.n = 5000;
  g.run.gflops = 100;
  g.run.ok = true;
  r.cpu->gemm.push_back(g);
  r.cpu->peak_fp32.emplace();
  r.cpu->peak_fp32->all_cores_gflops = 200;
  GpuResult gpu;
  gpu.index = 0;
  for (auto [d, tflops] : {std::pair{Dtype::fp32, 80.0}, {Dtype::tf32, 160.0}}) {
    GpuGemmRecord e;
    e.dtype = d;
    e.n = 8192;
    e.tflops = tflops;
    e.ok = true;
    e.peak_datasheet_tflops = tflops * 1.25;
    gpu.gemm.push_back(e);
  }
  r.gpus.push_back(gpu);
  return r;
}

TorchCase measured(const std::string& device, Dtype d, int n, double gflops) {
  TorchCase c;
  c.device = device;
  c.dtype = d;
  c.n = n;
  c.gflops = gflops;
  c.m.samples_s = {1};
  c.rel_error = 1e-9;
  c.ok = true;
  return c;
}

const Finding* find(const TorchBench& t, const std::string& code) {
  for (const auto& f : t.findings)
    if (f.code == code) return &f;
  return nullptr;
}

TEST(TorchCompare, SharesOfNativeAndPeak) {
  TorchBench t;
  t.cases = {measured("cpu", Dtype::fp32, 5000, 90), measured("cuda:0", Dtype::fp32, 8192, 72000),
             measured("cpu", Dtype::fp32, 4096, 90)};
  compare_with_native(t, native());
  EXPECT_NEAR(*t.cases[0].of_native, 0.9, 1e-12);
  EXPECT_NEAR(*t.cases[0].of_peak, 0.45, 1e-12);
  EXPECT_NEAR(*t.cases[1].of_native, 0.9, 1e-12);
  EXPECT_NEAR(*t.cases[1].of_peak, 72.0 / 100.0, 1e-12);
  EXPECT_FALSE(t.cases[2].of_native) << "no native run at n=4096: no share";
  EXPECT_TRUE(t.cases[2].of_peak) << "the peak does not depend on n";
  EXPECT_TRUE(t.findings.empty());
}

TEST(TorchCompare, SlowCpuNamesTheThreadsAndTheDebugBuild) {
  TorchBench t;
  t.num_threads = 1;
  t.usable_cpus = 8;
  t.debug = true;
  t.cases = {measured("cpu", Dtype::fp32, 5000, 30)};
  compare_with_native(t, native());
  const auto* f = find(t, "torch-matmul-cpu-slow");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, "warning");
  EXPECT_NE(f->message.find("30%"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("OpenBLAS"), std::string::npos) << f->message;
  EXPECT_NE(f->fix.find("torch.set_num_threads(8)"), std::string::npos) << f->fix;
  EXPECT_NE(f->fix.find("debug build"), std::string::npos) << f->fix;
  t.num_threads = 8;
  t.debug = false;
  t.cases[0].gflops = 60;
  compare_with_native(t, native());
  EXPECT_EQ(find(t, "torch-matmul-cpu-slow"), nullptr) << "60% is within what BLAS libraries differ by";
}

TEST(TorchCompare, FasterCpuIsSaidWithTheSpeedupAgainstIt) {
  // The H200 host of 2026-12-04: OpenBLAS on SSE3 kernels, PyTorch's MKL 5.8x as fast on the same CPU.
  auto result = native();
  result.gpus[0].gemm[0].n = 5000;
  TorchBench t;
  t.cases = {measured("cpu", Dtype::fp32, 5000, 580)};
  compare_with_native(t, result);
  const auto* f = find(t, "torch-matmul-cpu-faster");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, "info");
  EXPECT_NE(f->message.find("580 GFLOP/s, 5.8 x the 100 GFLOP/s"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("speed-up at n=5000 is 138 x, not 800 x"), std::string::npos) << f->message;
  // A rerun on the CPU's best OpenBLAS kernels is gpuscout's figure when it is faster.
  result.cpu->kernel_rerun = KernelRerun{"Cooperlake", "Cooperlake", {result.cpu->gemm[0]}, ""};
  result.cpu->kernel_rerun->gemm[0].run.gflops = 550;
  compare_with_native(t, result);
  EXPECT_NEAR(*t.cases[0].native_gflops, 550, 1e-9);
  EXPECT_EQ(find(t, "torch-matmul-cpu-faster"), nullptr) << "5% apart is noise and tuning";
}

TEST(TorchCompare, SlowGpuWrongResultAndTf32) {
  TorchBench t;
  t.allow_tf32_default = false;
  t.cases = {measured("cuda:0", Dtype::fp32, 8192, 20000), measured("cuda:0", Dtype::tf32, 8192, 150000)};
  compare_with_native(t, native());
  EXPECT_NE(find(t, "torch-matmul-gpu-slow"), nullptr) << "fp32 at 25% of cuBLAS";
  const auto* tf32 = find(t, "torch-tf32-off");
  ASSERT_NE(tf32, nullptr);
  EXPECT_NE(tf32->fix.find("set_float32_matmul_precision"), std::string::npos);
  t.allow_tf32_default = true;  // PyTorch 1.7 to 1.11: TF32 was on already
  compare_with_native(t, native());
  EXPECT_EQ(find(t, "torch-tf32-off"), nullptr);
  t.cases = {measured("cuda:0", Dtype::tf32, 8192, 150000)};
  t.cases[0].rel_error = 0.1;
  t.cases[0].ok = false;
  compare_with_native(t, native());
  EXPECT_NE(find(t, "torch-matmul-wrong"), nullptr);
  EXPECT_FALSE(t.cases[0].of_native) << "a wrong answer has no speed worth comparing";
}

TEST(TorchJson, WritesAndReadsBack) {
  BenchResult r = native();
  r.torch.emplace();
  auto& t = *r.torch;
  t.python = "/usr/bin/python3";
  t.version = "2.5.1+cu121";
  t.num_threads = 4;
  t.usable_cpus = 8;
  t.allow_tf32_default = false;
  t.cases = {measured("cpu", Dtype::fp32, 5000, 40)};
  t.cases.push_back(TorchCase{});
  t.cases.back().device = "cuda:0";
  t.cases.back().dtype = Dtype::bf16;
  t.cases.back().n = 8192;
  t.cases.back().skipped = "needs-sm80";
  compare_with_native(t, r);
  const auto doc = to_json(r);
  auto back = from_json(nlohmann::json::parse(doc.dump()));
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_TRUE(back->torch);
  EXPECT_EQ(to_json(*back).dump(), doc.dump());
  EXPECT_EQ(back->torch->findings.size(), t.findings.size());
  const std::string text = render_text(r);
  EXPECT_NE(text.find("PyTorch 2.5.1+cu121 (/usr/bin/python3): 4 CPU thread(s) of 8"), std::string::npos) << text;
  EXPECT_NE(text.find("needs compute capability 8.0"), std::string::npos) << text;
  EXPECT_NE(text.find("torch-matmul-cpu-slow"), std::string::npos) << text;
}

TEST(TorchRun, NoTorchSaysSoWithoutRunningAnything) {
  Inventory inv;
  inv.python.executable = "/usr/bin/python3";
  const auto t = run_torch_bench(BenchOptions{}, inv, std::chrono::seconds(5));
  EXPECT_TRUE(t.cases.empty());
  EXPECT_NE(t.error.find("not installed for /usr/bin/python3"), std::string::npos) << t.error;
  EXPECT_NE(t.error.find("gpuscout doctor"), std::string::npos) << t.error;
}

}  // namespace
}  // namespace gpuscout::bench

namespace gpuscout::bench {
namespace {

TEST(TorchJson, ASavedFileWithAnUnknownDeviceIsRefused) {
  BenchResult r;
  r.torch.emplace();
  r.torch->cases.push_back(TorchCase{});
  r.torch->cases.back().device = "cuda:0";
  auto doc = nlohmann::json::parse(to_json(r).dump());
  ASSERT_TRUE(from_json(doc));
  doc["torch"]["cases"][0]["device"] = "cuda:12345678";
  const auto bad = from_json(doc);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("torch.cases[0].device"), std::string::npos) << bad.error().message;
}

}  // namespace
}  // namespace gpuscout::bench
