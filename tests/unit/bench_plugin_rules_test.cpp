// The CUDA plugin's arithmetic (plugins/cuda/plugin_rules.h), checked without a GPU: the out-of-memory fallback
// asks for less memory on every try, a sample holds enough back-to-back calls, the minor-version rule, and the
// note that says why n shrank.
#include <gtest/gtest.h>

#include <vector>

#include "../../plugins/cuda/plugin_rules.h"

using namespace gpuscout_plugin;

namespace {

// A GPU with `limit` bytes left for the GEMM: each try allocates C and `sets` pairs (A, B) of `elements` each.
struct FakeDevice {
  size_t limit;
  size_t in_size, out_size;
  std::vector<size_t> asked;  // bytes each try wanted
  bool operator()(size_t elements, int sets) {
    const size_t bytes = static_cast<size_t>(sets) * 2 * elements * in_size + elements * out_size;
    asked.push_back(bytes);
    return bytes <= limit;
  }
};

}  // namespace

TEST(PluginRules, OutOfMemoryFallbackRunsSmaller) {
  // A GPU shared with another process: the free memory seen at planning time is gone at allocation time.
  GemmShape shape = plan_gemm(8192, false, size_t{80} << 30, size_t{50} << 20, 2, 2);
  EXPECT_EQ(shape.n, 8192);
  FakeDevice dev{size_t{100} << 20, 2, 2, {}};  // 100 MiB really free
  ASSERT_TRUE(allocate_gemm(shape, false, std::ref(dev)));
  EXPECT_LT(shape.n, 8192);
  EXPECT_GE(shape.n, 256);
  EXPECT_EQ(shape.n % 256, 0);
  EXPECT_EQ(shape.sets, 1);
  for (size_t i = 1; i < dev.asked.size(); ++i) EXPECT_LT(dev.asked[i], dev.asked[i - 1]) << "try " << i;
  EXPECT_LE(dev.asked.back(), dev.limit);
}

TEST(PluginRules, OutOfMemoryFallbackGivesUpBelow256) {
  GemmShape shape{1024, 1};
  FakeDevice dev{1000, 4, 4, {}};
  EXPECT_FALSE(allocate_gemm(shape, false, std::ref(dev)));
  EXPECT_EQ(shape.n, 256);
  EXPECT_EQ(dev.asked.back(), size_t{3} * 256 * 256 * 4);
}

TEST(PluginRules, Fp8FallbackKeepsMultiplesOf16) {
  GemmShape shape = plan_gemm(5000, true, size_t{80} << 30, 0, 1, 2);
  EXPECT_EQ(shape.n, 4992);
  FakeDevice dev{size_t{30} << 20, 1, 2, {}};
  ASSERT_TRUE(allocate_gemm(shape, true, std::ref(dev)));
  EXPECT_EQ(shape.n % 16, 0);
  EXPECT_LT(shape.n, 4992);
}

TEST(PluginRules, PlanShrinksToFreeMemoryAndRotatesSetsForSmallProblems) {
  const GemmShape big = plan_gemm(16384, false, size_t{2} << 30, size_t{50} << 20, 4, 4);
  EXPECT_LT(big.n, 16384);
  EXPECT_LE(gemm_bytes(big.n, big.sets, 4, 4), (size_t{2} << 30) / 10 * 9);
  const GemmShape small = plan_gemm(1024, false, size_t{80} << 30, size_t{50} << 20, 2, 2);
  EXPECT_EQ(small.n, 1024);
  EXPECT_EQ(small.sets, 8);  // as many input sets as allowed: a 2 MiB matrix would stay in a 50 MiB L2
}

TEST(PluginRules, SizeNoteBlamesMemoryOnlyForMemory) {
  char note[256];
  size_note(note, sizeof note, 4992, 5000, true);
  EXPECT_STREQ(note, "ran n=4992 instead of 5000: fp8 GEMMs need a multiple of 16");
  size_note(note, sizeof note, 2048, 5000, true);
  EXPECT_NE(std::string(note).find("not enough free GPU memory"), std::string::npos);
  size_note(note, sizeof note, 4096, 8192, false);
  EXPECT_NE(std::string(note).find("not enough free GPU memory"), std::string::npos);
  size_note(note, sizeof note, 8192, 8192, false);
  EXPECT_STREQ(note, "");
}

TEST(PluginRules, CallsPerSampleKeepsLaunchCostSmall) {
  EXPECT_EQ(calls_per_sample(0.005, 0.01, 128), 2);
  EXPECT_EQ(calls_per_sample(0.02, 0.01, 128), 1);
  EXPECT_EQ(calls_per_sample(25e-6, 0.01, 128), 128);  // --full n=2048 on an H200: capped
  EXPECT_EQ(calls_per_sample(0.003, 0.01, 128), 4);
  EXPECT_EQ(calls_per_sample(0, 0.01, 128), 1);
  EXPECT_EQ(calls_per_sample(-1, 0.01, 128), 1);
}

TEST(PluginRules, MinorVersionCompatibility) {
  EXPECT_TRUE(driver_runs_runtime(13000, 13000));
  EXPECT_TRUE(driver_runs_runtime(13000, 13010));  // a 13.1 build on an R580 (13.0) driver
  EXPECT_TRUE(driver_runs_runtime(13020, 13010));
  EXPECT_TRUE(driver_runs_runtime(14000, 13010));
  EXPECT_FALSE(driver_runs_runtime(12090, 13000));  // a 12.9 driver cannot run a CUDA 13 build
  EXPECT_FALSE(driver_runs_runtime(0, 13000));
}

TEST(PluginRules, AllReduceBusBandwidthIsNcclTestsDefinition) {
  // 1 GB in 10 ms: algbw 100 GB/s; busbw x 2(n-1)/n (nccl-tests doc/PERFORMANCE.md).
  EXPECT_DOUBLE_EQ(allreduce_bus_gbs(1e9, 0.01, 2), 100.0);
  EXPECT_DOUBLE_EQ(allreduce_bus_gbs(1e9, 0.01, 4), 150.0);
  EXPECT_DOUBLE_EQ(allreduce_bus_gbs(1e9, 0.01, 8), 175.0);
  EXPECT_EQ(allreduce_bus_gbs(1e9, 0.01, 1), 0.0);  // one rank moves nothing
  EXPECT_EQ(allreduce_bus_gbs(1e9, 0.0, 8), 0.0);
  EXPECT_EQ(allreduce_bus_gbs(0, 0.01, 8), 0.0);
}

TEST(PluginRules, AllReduceCheckValueIsTheSumOfTheRanks) {
  float sum = 0;
  for (int r = 0; r < 8; ++r) sum += allreduce_input(r);
  EXPECT_EQ(sum, allreduce_expected(8));
  EXPECT_EQ(allreduce_expected(8), 36.0f);
  EXPECT_NE(allreduce_expected(8), allreduce_expected(7));  // a missing rank shows
}

TEST(PluginRules, AllReduceSizeFitsTheSmallestFreeMemory) {
  EXPECT_EQ(allreduce_bytes(256u << 20, size_t{80} << 30), size_t{256} << 20);
  // send + receive must fit in half the free memory: 1 GiB free allows 2 x 256 MiB.
  EXPECT_EQ(allreduce_bytes(256u << 20, size_t{1} << 30), size_t{256} << 20);
  EXPECT_EQ(allreduce_bytes(256u << 20, size_t{512} << 20), size_t{128} << 20);
  EXPECT_EQ(allreduce_bytes(256u << 20, 0), size_t{1} << 20);  // never below 1 MiB
  EXPECT_EQ(allreduce_bytes(1001, size_t{1} << 30) % 4, 0u);   // whole float32 elements
}
