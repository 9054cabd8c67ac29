// Every JSON input gpuscout reads, nested 200,000 levels deep (issue 30: 50,000-200,000 levels crashed `--from`,
// fleet, `fit --config` with a stack overflow in nlohmann::json). Each must give an error naming the depth, not crash.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "bench/gpu_wire.hpp"
#include "bench/report.hpp"
#include "bench/torch_bench.hpp"
#include "core/json_position.hpp"
#include "fleet/gather.hpp"
#include "inventory/json.hpp"
#include "plan/hf_config.hpp"
#include "plan/safetensors.hpp"
#include "probe/sources.hpp"
#include "test_support.hpp"

namespace {

using namespace gpuscout;

const std::string kDeep(200'000, '[');

bool says_too_deep(const std::string& message) { return message.find("nested more than 128 levels deep") != std::string::npos; }

TEST(JsonDepth, TooDeepFindsTheFirstBracketPastTheLimit) {
  EXPECT_FALSE(core::too_deep(std::string(128, '[')));
  const auto at = core::too_deep("{\"a\":\n" + std::string(200, '['));
  ASSERT_TRUE(at);
  EXPECT_EQ(at->line, 2u);
  EXPECT_EQ(at->column, 128u);  // "{" is level 1 on line 1, so the 128th "[" is level 129
}

TEST(JsonDepth, BracketsInsideStringsAreNotNesting) {
  EXPECT_FALSE(core::too_deep("{\"a\": \"" + kDeep + "\"}"));
  EXPECT_FALSE(core::too_deep("{\"a\": \"\\\"" + kDeep + "\"}"));  // an escaped quote does not end the string
  EXPECT_TRUE(core::too_deep("{\"a\": \"\\\\\"" + kDeep));          // an escaped backslash does
}

TEST(JsonDepth, TheOneReaderRefusesWithPosition) {
  const auto r = core::parse_json("{\"os\": " + kDeep);
  ASSERT_FALSE(r);
  EXPECT_TRUE(says_too_deep(r.error().message)) << r.error().message;
  EXPECT_NE(r.error().message.find("line 1 column 135"), std::string::npos) << r.error().message;
  // Its own documents nest far less: 128 levels still parse.
  EXPECT_TRUE(core::parse_json(std::string(128, '[') + std::string(128, ']')));
}

TEST(JsonDepth, SavedInventoryAndBenchmarkNameTheFile) {
  const auto inv = test_support::write_temp("json-depth", "inv.json", "{\"schema\": \"gpuscout.inventory/1\", \"os\": " + kDeep);
  const auto a = load_inventory_file(inv);
  ASSERT_FALSE(a);
  EXPECT_TRUE(says_too_deep(a.error().message)) << a.error().message;
  EXPECT_NE(a.error().message.find(inv), std::string::npos);

  const auto bench = test_support::write_temp("json-depth", "bench.json", "{\"schema\": \"gpuscout.bench/1\", \"x\": " + kDeep);
  const auto b = bench::load_bench_file(bench);
  ASSERT_FALSE(b);
  EXPECT_TRUE(says_too_deep(b.error().message)) << b.error().message;
}

TEST(JsonDepth, ModelConfigAndSafetensorsHeaders) {
  const auto c = plan::parse_hf_config("{\"model_type\": \"llama\", \"x\": " + kDeep, "config.json");
  ASSERT_FALSE(c);
  EXPECT_TRUE(says_too_deep(c.error().message)) << c.error().message;
  const auto h = plan::parse_safetensors_header("{\"w\": " + kDeep, "model.safetensors");
  ASSERT_FALSE(h);
  EXPECT_TRUE(says_too_deep(h.error().message)) << h.error().message;
  const auto i = plan::parse_safetensors_index("{\"metadata\": " + kDeep, "model.safetensors.index.json");
  ASSERT_FALSE(i);
  EXPECT_TRUE(says_too_deep(i.error().message)) << i.error().message;
}

TEST(JsonDepth, ChildrensAnswers) {
  PythonInfo python;
  std::optional<TorchInfo> torch;
  probe::parse_python_probe_output("GPUSCOUT_PROBE {\"python\": " + kDeep, python, torch);
  ASSERT_TRUE(python.error);
  EXPECT_TRUE(says_too_deep(python.error->message)) << python.error->message;

  bench::TorchBench out;
  EXPECT_FALSE(bench::parse_torch_output("GPUSCOUT_TORCH_CASE " + kDeep + "\n", out));
  EXPECT_TRUE(out.cases.empty());

  const auto wire = bench::gpu_section_from_wire(kDeep);
  ASSERT_FALSE(wire);
  EXPECT_TRUE(says_too_deep(wire.error().message)) << wire.error().message;

  const auto toolkit = probe::parse_toolkit_version_json("{\"cuda\": " + kDeep);
  ASSERT_FALSE(toolkit);
  EXPECT_TRUE(says_too_deep(toolkit.error().message)) << toolkit.error().message;
}

TEST(JsonDepth, OneDeepNodeAnswerIsThatNodesProblemOnly) {
  const std::string good = R"({"schema": "gpuscout.inventory/1", "hostname": "good"})";
  const auto machines = fleet::machines_from_answers("bad: {\"os\": " + kDeep + "\ngood: " + good + "\n", "pdsh");
  ASSERT_EQ(machines.size(), 2u);
  for (const auto& m : machines) {
    if (m.name == "bad") {
      EXPECT_FALSE(m.inventory);
      EXPECT_TRUE(says_too_deep(m.problem)) << m.problem;
    }
  }
}

}  // namespace
