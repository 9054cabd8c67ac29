// The CUDA plugin loader against fake plugins (tests/bench_plugins): missing, wrong interface version,
// not a plugin, failing initialisation, and a working one driven through run_gpus().
#include <gtest/gtest.h>
#include <stdlib.h>

#include "bench/gpu_bench.hpp"
#include "bench/gpu_plugin.hpp"
#include "bench_fake_plugin.hpp"

using namespace gpuscout::bench;

namespace {
using test::fake_plugin;
int never_stop() { return 0; }
}  // namespace

TEST(BenchPlugin, CandidatesOrder) {
  auto c = plugin_candidates(std::nullopt, "/opt/g/bin", "/usr/local/lib/gpuscout");
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0], "/opt/g/bin/../lib/gpuscout/libgpuscout-cuda.so");
  EXPECT_EQ(c[1], "/usr/local/lib/gpuscout/libgpuscout-cuda.so");
  EXPECT_EQ(plugin_candidates(std::string("/x/p.so"), "/opt/g/bin", "/y"), std::vector<std::string>{"/x/p.so"});
}

TEST(BenchPlugin, MissingPlugin) {
  auto p = CudaPlugin::load("/nonexistent/libgpuscout-cuda.so");
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find("cannot be loaded"), std::string::npos) << p.error().message;
}

TEST(BenchPlugin, WrongInterfaceVersion) {
  auto p = CudaPlugin::load(fake_plugin("wrong_version"));
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find("interface version 999"), std::string::npos) << p.error().message;
}

TEST(BenchPlugin, NotAPlugin) {
  auto p = CudaPlugin::load(fake_plugin("not_a_plugin"));
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find("not a gpuscout CUDA plugin"), std::string::npos) << p.error().message;
}

// The NCCL table is optional: a plugin from before it still loads, without the step.
TEST(BenchPlugin, NcclTableIsOptional) {
  auto with = CudaPlugin::load(fake_plugin("ok"));
  ASSERT_TRUE(with) << with.error().message;
  ASSERT_NE(with->nccl(), nullptr);
  EXPECT_EQ(with->nccl()->abi_version, GPUSCOUT_CUDA_NCCL_ABI);
  auto without = CudaPlugin::load(fake_plugin("no_nccl_table"));
  ASSERT_TRUE(without) << without.error().message;
  EXPECT_EQ(without->nccl(), nullptr);
}

TEST(BenchPlugin, InitialisationFails) {
  auto p = CudaPlugin::load(fake_plugin("init_fails"));
  ASSERT_TRUE(p) << p.error().message;
  auto ok = p->init(never_stop);
  ASSERT_FALSE(ok);
  EXPECT_NE(ok.error().message.find("insufficient"), std::string::npos);
}

TEST(BenchPlugin, RunGpusReportsEachFailureInOneLine) {
  GpuPlan plan;
  plan.gemms = {{Dtype::bf16, 1024}};
  for (const char* kind : {"wrong_version", "init_fails"}) {
    ::setenv("GPUSCOUT_CUDA_PLUGIN", fake_plugin(kind).c_str(), 1);
    auto s = run_gpus(plan);
    EXPECT_FALSE(s.status.available) << kind;
    EXPECT_FALSE(s.status.message.empty()) << kind;
    EXPECT_TRUE(s.gpus.empty());
  }
  ::unsetenv("GPUSCOUT_CUDA_PLUGIN");
}

TEST(BenchPlugin, WorkingFakePluginFillsTheResult) {
  ::setenv("GPUSCOUT_CUDA_PLUGIN", fake_plugin("ok").c_str(), 1);
  ::setenv("GPUSCOUT_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
  GpuPlan plan;
  plan.gemms = {{Dtype::fp32, 5000}, {Dtype::bf16, 8192}, {Dtype::fp64, 1024}};
  plan.method = Method{1, 3, 10, 0.0};
  auto s = run_gpus(plan);
  ::unsetenv("GPUSCOUT_CUDA_PLUGIN");
  ::unsetenv("GPUSCOUT_NVML_LIBRARY");
  ASSERT_TRUE(s.status.available) << s.status.message;
  ASSERT_EQ(s.gpus.size(), 1u);
  const auto& g = s.gpus[0];
  EXPECT_EQ(g.pci_bus_id, "0000:01:00.0");
  ASSERT_EQ(g.gemm.size(), 2u);  // fp64 has no GPU GEMM
  EXPECT_NEAR(g.gemm[0].tflops, 80, 1.5);
  EXPECT_TRUE(g.gemm[1].ok);
  ASSERT_TRUE(g.copy);
  EXPECT_NEAR(g.copy->gbs, 900, 10);
  ASSERT_TRUE(g.h2d_pinned);
  EXPECT_NEAR(g.h2d_pinned->gbs, 25, 0.5 + 25 * 0.02);
  EXPECT_FALSE(g.notes.empty());  // NVML missing is said
}
