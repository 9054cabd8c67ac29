// `gpuscout fit` end to end: the real binary, its JSON contract and its exit codes.
#include <gtest/gtest.h>

#include "e2e_support.hpp"

namespace {
const std::string kCorpus = std::string(GPUSCOUT_SOURCE_DIR) + "/fuzz/corpus/fit_config/";
}

TEST(Fit, CatalogueModelOnAGivenCard) {
  const auto r = e2e::run_gpuscout({"fit", "--model", "llama-3-8b", "--vram", "24G", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["params"], 8030261248ULL);
  EXPECT_EQ(j["breakdown"]["weights_bytes"], 16060522496ULL);
  EXPECT_EQ(j["breakdown"]["kv_cache_bytes"], 4096ULL * 131072);
  for (const char* k : {"weights_bytes", "kv_cache_bytes", "activations_bytes", "gradients_bytes", "optimizer_bytes",
                        "adapters_bytes", "overhead_bytes"})
    EXPECT_TRUE(j["breakdown"].contains(k)) << k;
  uint64_t sum = 0;
  for (const auto& [k, v] : j["breakdown"].items()) sum += v.get<uint64_t>();
  EXPECT_EQ(j["total_bytes"].get<uint64_t>(), sum);
  ASSERT_TRUE(j["fits"].is_array());
  EXPECT_EQ(j["fits"][0]["fits"], true);
  EXPECT_TRUE(j["per_gpu_bytes"].is_null());
}

TEST(Fit, TextOutputHasOneLinePerTerm) {
  const auto r = e2e::run_gpuscout({"fit", "--model", "llama-2-7b", "--mode", "train", "--vram", "24G"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* term : {"weights", "KV cache", "activations", "gradients", "optimizer states", "LoRA adapters",
                           "CUDA context", "allocator slack", "total", "16 bytes/param", "does NOT fit",
                           "--mode qlora"})
    EXPECT_NE(r.out.find(term), std::string::npos) << term << "\n" << r.out;
}

TEST(Fit, ReadsAConfigJson) {
  const auto r = e2e::run_gpuscout({"fit", "--config", kCorpus + "qwen2.5-7b.json", "--vram", "8G,32G", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["params"], 7615616512ULL);
  ASSERT_TRUE(j["per_gpu_bytes"].is_array());
  EXPECT_EQ(j["per_gpu_bytes"].size(), 2u);
  EXPECT_EQ(j["fits"][0]["fits"], false);  // the 8G card limits an equal split
  EXPECT_TRUE(j["layer_split"].is_object());
}

TEST(Fit, NoModelPrintsTheMaxParamsTable) {
  const auto r = e2e::run_gpuscout({"fit", "--vram", "24G", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  const auto& m = j["max_params"];
  for (const char* k : {"fp16", "int8", "int4"}) EXPECT_GT(m["infer"][k].get<uint64_t>(), 0u) << k;
  EXPECT_GT(m["train"].get<uint64_t>(), 0u);
  EXPECT_GT(m["lora"].get<uint64_t>(), m["train"].get<uint64_t>());
  EXPECT_GT(m["qlora"].get<uint64_t>(), m["lora"].get<uint64_t>());
  EXPECT_LT(m["infer"]["fp16"].get<uint64_t>(), j["naive_fp16_params"].get<uint64_t>());
}

TEST(Fit, GpuFromTheCatalogue) {
  const auto r = e2e::run_gpuscout({"fit", "--gpu", "RTX 4090", "--model", "mistral-7b", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["fits"][0]["capacity_bytes"], 24ULL << 30);
}

TEST(Fit, LongContextWarns) {
  const auto r = e2e::run_gpuscout({"fit", "--model", "llama-2-7b", "--context", "16k", "--vram", "80G", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("warning"), std::string::npos);
  EXPECT_EQ(r.json()["warnings"].size(), 1u);
}

TEST(Fit, BadInputExitsTwoWithAMessage) {
  struct Case {
    std::vector<std::string> args;
    const char* says;
  };
  const std::vector<Case> cases = {
      {{"fit", "--model", "llama-3-8b", "--vram", "24X"}, "24X"},
      {{"fit", "--model", "llama-3-8b", "--vram", "-8G"}, "-8G"},
      {{"fit", "--model", "llama-3-8b", "--vram", "0"}, "greater than zero"},
      {{"fit", "--params", "0", "--vram", "24G"}, "'0'"},
      {{"fit", "--model", "no-such-model", "--vram", "24G"}, "unknown model"},
      {{"fit", "--config", kCorpus + "malformed.json", "--vram", "24G"}, "malformed.json:5:"},
      {{"fit", "--config", kCorpus + "unknown-type.json", "--vram", "24G"}, "--params"},
      {{"fit", "--config", "/nonexistent/config.json", "--vram", "24G"}, "/nonexistent/config.json"},
      {{"fit", "--model", "llama-3-8b", "--mode", "train", "--dtype", "int4", "--vram", "24G"}, "qlora"},
      {{"fit", "--model", "llama-3-8b", "--dtype", "int3", "--vram", "24G"}, "int3"},
      {{"fit", "--model", "llama-3-8b", "--context", "-5", "--vram", "24G"}, "--context"},
      {{"fit", "--model", "llama-3-8b", "--batch", "0", "--vram", "24G"}, "--batch"},
      {{"fit", "--model", "llama-3-8b", "--gpu", "RTX 9999"}, "RTX 9999"},
      {{"fit", "--model", "llama-3-8b", "--params", "7B", "--vram", "24G"}, "only one"},
  };
  for (const auto& c : cases) {
    const auto r = e2e::run_gpuscout(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args.back() << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.says << " not in: " << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  }
}
