// The one reader of saved bench files (bench --compare, report --bench/--compare): it gives back exactly what
// to_json wrote, and names the first wrong field of a damaged or hostile file by its path.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <functional>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "bench/report.hpp"
#include "test_support.hpp"

namespace gpuscout::bench {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const std::string kFakes = std::string(GPUSCOUT_SOURCE_DIR) + "/tests/fakes/bench/";

using gpuscout::test_support::read_file;


json gpu_fake() { return json::parse(read_file(kFakes + "rtx4090-fake-plugin.json")); }

TEST(BenchFile, SavedFilesComeBackExactlyAsWritten) {
  // The on-disk format is unchanged: reading a saved file and writing it again gives the same document.
  for (const char* name : {"cpu-only-zen5-vm.json", "rtx4090-fake-plugin.json", "cpu-prescott-rerun.json"}) {
    const auto r = load_bench_file(kFakes + name);
    ASSERT_TRUE(r.has_value()) << name << ": " << r.error().message;
    EXPECT_EQ(to_json(*r), nlohmann::ordered_json::parse(read_file(kFakes + name))) << name;
  }
  const auto rerun = load_bench_file(kFakes + "cpu-prescott-rerun.json").value();
  ASSERT_TRUE(rerun.cpu && rerun.cpu->kernel_rerun);
  EXPECT_EQ(rerun.cpu->blas.corename, "Prescott");
  EXPECT_FALSE(rerun.cpu->kernel_rerun->gemm.empty());
  EXPECT_EQ(rerun.speedup.cpu_coretype, rerun.cpu->kernel_rerun->coretype);
  const auto gpu = load_bench_file(kFakes + "rtx4090-fake-plugin.json").value();
  ASSERT_EQ(gpu.gpus.size(), 1u);
  EXPECT_FALSE(gpu.gpus[0].gemm.empty());
  ASSERT_TRUE(gpu.cpu.has_value());
  EXPECT_EQ(gpu.cpu->facts.model, "AMD EPYC");
}

TEST(BenchFile, AWrongTypeNamesTheFieldByItsPath) {
  struct Case {
    std::function<void(json&)> damage;
    std::string says;
  };
  const std::vector<Case> cases = {
      {[](json& d) { d["cpu"]["model"] = 5; }, "field cpu.model: expected a string, got 5"},
      {[](json& d) { d["gpus"][0]["gemm"][2]["tflops"] = "fast"; },
       "field gpus[0].gemm[2].tflops: expected a number, got a string"},
      {[](json& d) { d["gpus"][0]["gemm"][0]["n"] = -1; }, "field gpus[0].gemm[0].n: expected a whole number not below 0, got -1"},
      {[](json& d) { d["gpus"][0]["gemm"][0]["n"] = 1.5; }, "field gpus[0].gemm[0].n: expected a whole number not below 0, got 1.5"},
      {[](json& d) { d["gpus"][0]["sm_count"] = 1e12; }, "field gpus[0].sm_count"},
      {[](json& d) { d["gpus"][0]["gemm"][0]["dtype"] = "fp99"; }, "field gpus[0].gemm[0].dtype: 'fp99' is not a known precision"},
      {[](json& d) { d["gpus"][0]["gemm"][0]["status"] = "great"; }, "field gpus[0].gemm[0].status: 'great' is not a known status"},
      {[](json& d) { d["gpus"][0]["transfers"]["d2d"]["gbs"] = -3.0; },
       "field gpus[0].transfers.d2d.gbs: expected a number not below 0, got -3.0"},
      {[](json& d) { d["gpus"][0]["telemetry"]["throttle_reasons"] = {"bored"}; }, "'bored' is not a known throttle reason"},
      {[](json& d) { d["cpu"]["isas"] = {"sse2", 7}; }, "field cpu.isas[1]: expected the name of an instruction set, got 7"},
      {[](json& d) { d["speedup"] = json::array(); }, "field speedup: expected an object, got an array"},
      {[](json& d) { d["gpus"][0]["notes"] = "x"; }, "field gpus[0].notes: expected an array, got a string"},
      {[](json& d) { d["cpu"]["memory_gbs"]["copy"] = true; }, "field cpu.memory_gbs.copy: expected a number, got true or false"},
  };
  for (const auto& c : cases) {
    json doc = gpu_fake();
    c.damage(doc);
    const auto r = from_json(doc);
    ASSERT_FALSE(r.has_value()) << c.says;
    EXPECT_NE(r.error().message.find(c.says), std::string::npos) << r.error().message;
  }
}

TEST(BenchFile, TheFileIsNamedInEveryError) {
  json doc = gpu_fake();
  doc["gpus"][0]["name"] = 5;
  const std::string typed = gpuscout::test_support::write_temp("bench-report", "typed.json", doc.dump());
  const auto r = load_bench_file(typed);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, typed + ": field gpus[0].name: expected a string, got 5");

  const std::string huge = gpuscout::test_support::write_temp("bench-report", "huge.json", R"({"schema": "gpuscout.bench/1", "notes": [], "x": 1e999})");
  const auto h = load_bench_file(huge);
  ASSERT_FALSE(h);
  EXPECT_NE(h.error().message.find(huge + ": line 1 column "), std::string::npos) << h.error().message;
  EXPECT_NE(h.error().message.find("the number 1e999 is too large"), std::string::npos) << h.error().message;

  for (const char* text : {"[]", R"({"schema": 5})", R"({"schema": "gpuscout.inventory/1"})"}) {
    const auto o = load_bench_file(gpuscout::test_support::write_temp("bench-report", "other.json", text));
    ASSERT_FALSE(o) << text;
    EXPECT_NE(o.error().message.find("not a `gpuscout bench --json` file"), std::string::npos) << o.error().message;
  }
  const auto future = from_json(json::parse(R"({"schema": "gpuscout.bench/9"})"));
  ASSERT_FALSE(future);
  EXPECT_NE(future.error().message.find("gpuscout.bench/9 is not supported"), std::string::npos);
}

TEST(BenchFile, AbsentFieldsKeepTheirDefaultsAndSummariesAreRead) {
  const auto r = from_json(json::parse(R"({"schema": "gpuscout.bench/1",
      "cpu": {"peak_gflops": {"fp32": 100.0, "fp64": null}, "memory_gbs": {"copy": 20.0, "triad": 18.0}},
      "gpus": [{"index": 1, "copy_gbs": 900.0, "h2d_gbs": {"pinned": 25.0, "pageable": null}}]})"));
  ASSERT_TRUE(r.has_value()) << r.error().message;
  ASSERT_TRUE(r->cpu && r->cpu->peak_fp32);
  EXPECT_DOUBLE_EQ(r->cpu->peak_fp32->all_cores_gflops, 100.0);
  EXPECT_FALSE(r->cpu->peak_fp64);
  ASSERT_TRUE(r->cpu->memory);
  EXPECT_DOUBLE_EQ(r->cpu->memory->copy_gbs, 20.0);
  ASSERT_EQ(r->gpus.size(), 1u);
  ASSERT_TRUE(r->gpus[0].copy && r->gpus[0].h2d_pinned);
  EXPECT_DOUBLE_EQ(r->gpus[0].copy->gbs, 900.0);
  EXPECT_DOUBLE_EQ(r->gpus[0].h2d_pinned->gbs, 25.0);
  EXPECT_FALSE(r->gpus[0].h2d_pageable);
  EXPECT_EQ(r->speedup.n, 5000);
  EXPECT_EQ(r->mode, "quick");
}

TEST(BenchFile, CompareReadsTheTypedResults) {
  const auto cpu = load_bench_file(kFakes + "cpu-only-zen5-vm.json").value();
  const auto gpu = load_bench_file(kFakes + "rtx4090-fake-plugin.json").value();
  const auto c = compare_json(cpu, gpu, "a.json", "b.json");
  EXPECT_EQ(c["a"]["collected_at"], cpu.collected_at);
  bool gpu_row = false, cpu_peak = false;
  for (const auto& row : c["rows"]) {
    if (row["label"].get<std::string>().rfind("GPU 0 GEMM", 0) == 0) gpu_row = row["a"].is_null() && row["b"].is_number();
    if (row["label"] == "CPU FMA peak fp32") cpu_peak = row["a"].is_number() && row["b"].is_number();
  }
  EXPECT_TRUE(gpu_row);
  EXPECT_TRUE(cpu_peak);
  EXPECT_NE(render_compare(c).find("device copy"), std::string::npos);
}

}  // namespace
}  // namespace gpuscout::bench
