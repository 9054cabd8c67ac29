// `gpuscout bench` end to end: a small real CPU run, bad input, --save all-or-nothing, --compare, and the
// GPU part with no driver and with a fake plugin.
#include <sys/stat.h>

#include <fstream>

#include <gtest/gtest.h>

#include "e2e_support.hpp"

namespace {
const std::vector<std::string> kSmall{"bench", "--quick", "--size", "256", "--dtype", "fp32,fp64"};
const std::vector<std::string> kSmallCpu{"bench", "--device", "cpu", "--quick", "--size", "256", "--dtype", "fp32,fp64"};

std::vector<std::string> with(std::vector<std::string> args, std::initializer_list<std::string> more) {
  args.insert(args.end(), more);
  return args;
}
std::string fake_plugin(const std::string& kind) {
  return std::string(GPUSCOUT_BINARY_DIR) + "/tests/bench_plugins/libfake_plugin_" + kind + ".so";
}
}  // namespace

TEST(BenchE2E, SmallCpuRunJson) {
  auto r = e2e::run_gpuscout(with(kSmallCpu, {"--json"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["schema"], "gpuscout.bench/1");
  EXPECT_GE(j["cpu"]["threads"].get<int>(), 1);
  EXPECT_GT(j["cpu"]["peak_gflops"]["fp32"].get<double>(), 0);
  ASSERT_EQ(j["cpu"]["gemm"].size(), 2u);
  for (const auto& g : j["cpu"]["gemm"]) {
    EXPECT_EQ(g["n"], 256);
    EXPECT_TRUE(g["ok"].get<bool>());
    EXPECT_GT(g["gflops"].get<double>(), 0);
  }
  EXPECT_GT(j["cpu"]["memory_gbs"]["copy"].get<double>(), 0);
  EXPECT_TRUE(j["gpus"].empty());
  EXPECT_TRUE(r.err.empty()) << "progress must stay off when stderr is not a terminal: " << r.err;
}

TEST(BenchE2E, BadInputExitsTwo) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"bench", "--size", "0"},
                                                                 {"bench", "--size=-3"},
                                                                 {"bench", "--size", "1000000"},
                                                                 {"bench", "--size", "big"},
                                                                 {"bench", "--dtype", "int4"},
                                                                 {"bench", "--device", "tpu"},
                                                                 {"bench", "--compare", "/nonexistent/a.json", "/nonexistent/b.json"}}) {
    auto r = e2e::run_gpuscout(args);
    EXPECT_EQ(r.exit_code, 2) << args[1] << " " << args.back() << ": " << r.err;
    EXPECT_NE(r.err.find("error"), std::string::npos) << r.err;
  }
}

TEST(BenchE2E, SaveIsAllOrNothingAndCompareWorks) {
  const std::string dir = e2e::temp_dir();
  auto bad = e2e::run_gpuscout(with(kSmallCpu, {"--save", dir + "/missing-dir/out.json"}));
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  struct stat st{};
  EXPECT_NE(::stat((dir + "/missing-dir/out.json").c_str(), &st), 0);
  const std::string a = dir + "/a.json", b = dir + "/b.json";
  ASSERT_EQ(e2e::run_gpuscout(with(kSmallCpu, {"--save", a})).exit_code, 0);
  ASSERT_EQ(e2e::run_gpuscout(with(kSmallCpu, {"--save", b, "--json"})).exit_code, 0);
  auto c = e2e::run_gpuscout({"bench", "--compare", a, b, "--json"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const auto j = c.json();
  EXPECT_EQ(j["schema"], "gpuscout.bench-compare/1");
  EXPECT_FALSE(j["rows"].empty());
  auto text = e2e::run_gpuscout({"bench", "--compare", a, b});
  EXPECT_NE(text.out.find("B / A"), std::string::npos);
  std::ofstream(dir + "/broken.json") << "{\"schema\": \"gpuscout.bench/1\", ";
  EXPECT_EQ(e2e::run_gpuscout({"bench", "--compare", a, dir + "/broken.json"}).exit_code, 2);
}

TEST(BenchE2E, GpuWithoutDriverStillRunsCpu) {
  auto r = e2e::run_gpuscout(with(kSmall, {"--device", "all", "--json"}),
                             {{"GPUSCOUT_CUDA_LIBRARY", "/nonexistent/libcuda.so.1"}, {"GPUSCOUT_CUDA_PLUGIN", "<unset>"}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_FALSE(j["gpu_status"]["available"].get<bool>());
  EXPECT_NE(j["gpu_status"]["message"].get<std::string>().find("driver"), std::string::npos);
  EXPECT_EQ(j["cpu"]["gemm"].size(), 2u);
  auto text = e2e::run_gpuscout(with(kSmall, {"--device", "all"}),
                                {{"GPUSCOUT_CUDA_LIBRARY", "/nonexistent/libcuda.so.1"}, {"GPUSCOUT_CUDA_PLUGIN", "<unset>"}});
  EXPECT_NE(text.out.find("GPU  no NVIDIA driver"), std::string::npos) << text.out;
}

TEST(BenchE2E, FakePluginGivesGpuSectionAndSpeedup) {
  auto r = e2e::run_gpuscout({"bench", "--device", "all", "--size", "256", "--dtype", "fp32,bf16", "--json"},
                             {{"GPUSCOUT_CUDA_PLUGIN", fake_plugin("ok")}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  ASSERT_EQ(j["gpus"].size(), 1u);
  EXPECT_EQ(j["gpus"][0]["name"], "NVIDIA GeForce RTX 4090");
  EXPECT_EQ(j["gpus"][0]["gemm"].size(), 2u);
  EXPECT_TRUE(j["speedup"]["fp32"].is_number());
  auto wrong = e2e::run_gpuscout({"bench", "--device", "gpu", "--size", "256", "--json"},
                                 {{"GPUSCOUT_CUDA_PLUGIN", fake_plugin("wrong_version")}});
  EXPECT_EQ(wrong.exit_code, 0);
  EXPECT_NE(wrong.json()["gpu_status"]["message"].get<std::string>().find("interface version"), std::string::npos);
}
