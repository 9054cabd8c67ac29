// Hugging Face config.json and safetensors readers: real configs (fuzz/corpus/fit_config) and bad input.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include <gtest/gtest.h>

#include "plan/hf_config.hpp"
#include "plan/safetensors.hpp"
#include "test_support.hpp"

using namespace gpuscout;
using namespace gpuscout::plan;

namespace {
const std::string kCorpus = std::string(GPUSCOUT_SOURCE_DIR) + "/fuzz/corpus/";

using gpuscout::test_support::read_file;

ConfigRead read_config(const std::string& file) {
  auto r = load_hf_config(kCorpus + "fit_config/" + file);
  EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().message);
  return r ? *r : ConfigRead{};
}
}  // namespace

TEST(PlanConfig, ReadsRealConfigsToExactCounts) {
  EXPECT_EQ(count_params(read_config("llama-3-8b.json").shape).total, 8'030'261'248ULL);
  EXPECT_EQ(count_params(read_config("qwen2.5-7b.json").shape).total, 7'615'616'512ULL);
  EXPECT_EQ(count_params(read_config("gpt2.json").shape).total, 124'439'808ULL);
  EXPECT_EQ(count_params(read_config("bert-base-cased.json").shape).total, 108'310'272ULL);
  EXPECT_EQ(count_params(read_config("mixtral-8x7b.json").shape).total, 46'702'792'704ULL);
  EXPECT_EQ(count_params(read_config("gemma-2-9b.json").shape).total, 9'241'705'984ULL);
  EXPECT_EQ(count_params(read_config("phi-2.json").shape).total, 2'779'683'840ULL);
  EXPECT_EQ(count_params(read_config("vit-base-patch16-224.json").shape).total, 86'567'656ULL);
  EXPECT_EQ(count_params(read_config("llama-2-70b-bnb-4bit.json").shape).total, 68'976'648'192ULL);
}

TEST(PlanConfig, ReadsGroupedQueryAttentionAndDtype) {
  const auto s = read_config("llama-3-8b.json").shape;
  EXPECT_EQ(s.num_kv_heads, 8u);
  EXPECT_EQ(s.head_dim, 128u);
  EXPECT_EQ(s.max_position_embeddings, 8192u);
  EXPECT_EQ(s.torch_dtype, "bf16");
  EXPECT_FALSE(s.quantization.has_value());
}

TEST(PlanConfig, ReadsQuantizationConfig) {
  const auto s = read_config("llama-2-70b-bnb-4bit.json").shape;
  ASSERT_TRUE(s.quantization.has_value());
  EXPECT_EQ(s.quantization->format, "nf4");
  EXPECT_EQ(s.quantization->method, "bitsandbytes");
  auto gptq = parse_hf_config(R"({"model_type":"mistral","hidden_size":4096,"intermediate_size":14336,
      "num_hidden_layers":32,"num_attention_heads":32,"num_key_value_heads":8,"vocab_size":32000,
      "quantization_config":{"quant_method":"gptq","bits":4,"group_size":128}})", "gptq.json");
  ASSERT_TRUE(gptq.has_value()) << gptq.error().message;
  EXPECT_EQ(gptq->shape.quantization->format, "int4");
}

TEST(PlanConfig, MalformedJsonNamesFileLineAndColumn) {
  auto r = load_hf_config(kCorpus + "fit_config/malformed.json");
  ASSERT_FALSE(r.has_value());
  // The missing comma after "num_hidden_layers": 32 is found at the start of line 5.
  EXPECT_NE(r.error().message.find("malformed.json: line 5 column 3:"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("not valid JSON"), std::string::npos);
}

TEST(PlanConfig, UnknownTypeListsMissingFieldsAndMentionsParams) {
  auto r = load_hf_config(kCorpus + "fit_config/unknown-type.json");
  ASSERT_FALSE(r.has_value());
  const auto& m = r.error().message;
  EXPECT_NE(m.find("mamba"), std::string::npos) << m;
  EXPECT_NE(m.find("num_attention_heads"), std::string::npos) << m;
  EXPECT_NE(m.find("intermediate_size"), std::string::npos) << m;
  EXPECT_NE(m.find("--params"), std::string::npos) << m;
}

TEST(PlanConfig, UnknownTypeWithAllFieldsIsReadLlamaStyleWithAWarning) {
  auto r = parse_hf_config(R"({"model_type":"olmo2","hidden_size":4096,"intermediate_size":11008,
      "num_hidden_layers":32,"num_attention_heads":32,"vocab_size":100352})", "c.json");
  ASSERT_TRUE(r.has_value()) << r.error().message;
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_NE(r->warnings[0].find("olmo2"), std::string::npos);
}

TEST(PlanConfig, RejectsZeroNegativeAndNonNumericSizes) {
  for (const char* bad : {R"({"model_type":"llama","hidden_size":0,"intermediate_size":1,"num_hidden_layers":1,"num_attention_heads":1,"vocab_size":1})",
                          R"({"model_type":"llama","hidden_size":-4096,"intermediate_size":1,"num_hidden_layers":1,"num_attention_heads":1,"vocab_size":1})",
                          R"({"model_type":"llama","hidden_size":"big","intermediate_size":1,"num_hidden_layers":1,"num_attention_heads":1,"vocab_size":1})",
                          R"({"model_type":"llama","hidden_size":4096.5,"intermediate_size":1,"num_hidden_layers":1,"num_attention_heads":1,"vocab_size":1})"}) {
    auto r = parse_hf_config(bad, "bad.json");
    ASSERT_FALSE(r.has_value()) << bad;
    EXPECT_NE(r.error().message.find("hidden_size"), std::string::npos) << r.error().message;
  }
}

TEST(PlanConfig, RejectsInconsistentHeadsAndHugeSizes) {
  EXPECT_FALSE(parse_hf_config(R"({"model_type":"llama","hidden_size":4096,"intermediate_size":1,"num_hidden_layers":1,
      "num_attention_heads":32,"num_key_value_heads":5,"vocab_size":1})", "x").has_value());
  EXPECT_FALSE(parse_hf_config(R"({"model_type":"llama","hidden_size":4096,"intermediate_size":1,"num_hidden_layers":1,
      "num_attention_heads":8192,"vocab_size":1})", "x").has_value());
  EXPECT_FALSE(parse_hf_config(R"({"model_type":"llama","hidden_size":999999999999,"intermediate_size":1,
      "num_hidden_layers":1,"num_attention_heads":1,"vocab_size":1})", "x").has_value());
  EXPECT_FALSE(parse_hf_config("[1,2,3]", "x").has_value());
  EXPECT_FALSE(parse_hf_config("", "x").has_value());
}

TEST(PlanConfig, MissingFileAndFolderWithoutConfig) {
  auto r = load_hf_config("/nonexistent/config.json");
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("/nonexistent/config.json"), std::string::npos);
  auto d = load_hf_config(kCorpus + "fit_units");
  ASSERT_FALSE(d.has_value());
  EXPECT_NE(d.error().message.find("no config.json"), std::string::npos);
}

TEST(PlanSafetensors, ParsesHeaderTotals) {
  auto t = parse_safetensors_prefix(read_file(kCorpus + "safetensors/tiny.safetensors"), "tiny");
  ASSERT_TRUE(t.has_value()) << t.error().message;
  EXPECT_EQ(t->tensors, 2u);
  EXPECT_EQ(t->elements, 32u * 16 + 16);
  EXPECT_EQ(t->bytes, 32u * 16 * 2 + 16 * 4);
  EXPECT_EQ(t->bytes_by_dtype.at("BF16"), 1024u);
}

TEST(PlanSafetensors, RejectsBadHeaders) {
  EXPECT_FALSE(parse_safetensors_prefix("short", "x").has_value());
  EXPECT_FALSE(parse_safetensors_prefix(std::string("\xff\xff\xff\xff\xff\xff\xff\xff{}", 10), "x").has_value());
  EXPECT_FALSE(parse_safetensors_header(R"({"w":{"dtype":"Q9","shape":[1]}})", "x").has_value());
  EXPECT_FALSE(parse_safetensors_header(R"({"w":{"dtype":"F32","shape":[-1]}})", "x").has_value());
  EXPECT_FALSE(parse_safetensors_header(
                   R"({"w":{"dtype":"F32","shape":[4294967296,4294967296,4294967296]}})", "x")
                   .has_value());
}

TEST(PlanSafetensors, ReadsIndexTotalSize) {
  auto t = parse_safetensors_index(R"({"metadata":{"total_size":16060522496},"weight_map":{}})", "index");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(*t, 16'060'522'496ULL);
  EXPECT_FALSE(parse_safetensors_index(R"({"weight_map":{}})", "index").has_value());
  EXPECT_FALSE(parse_safetensors_index(R"({"metadata":{"total_size":-1}})", "index").has_value());
}

TEST(PlanSafetensors, ModelFolderGivesExactBytes) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("gpuscout-plan-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::copy_file(kCorpus + "fit_config/llama-3-8b.json", dir / "config.json", fs::copy_options::overwrite_existing);
  fs::copy_file(kCorpus + "safetensors/tiny.safetensors", dir / "model.safetensors",
                fs::copy_options::overwrite_existing);
  auto r = load_hf_config(dir.string());
  fs::remove_all(dir);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->shape.checkpoint_bytes, 1088u);
  EXPECT_FALSE(r->shape.checkpoint_dtype.has_value());  // mixed BF16 and F32
}

TEST(PlanConfig, FuzzFindingsAreErrorsNotCrashes) {
  // Found by scripts/fuzz-fit: a number beyond double range throws out_of_range, not parse_error.
  auto big = parse_hf_config(R"({"model_type":"phi","layer_norm_eps":1e605})", "big.json");
  ASSERT_FALSE(big.has_value());
  EXPECT_NE(big.error().message.find("big.json"), std::string::npos);
  // Wrong types inside quantization_config are ignored with a warning, never thrown.
  auto q = parse_hf_config(R"({"model_type":"mistral","hidden_size":4096,"intermediate_size":14336,
      "num_hidden_layers":32,"num_attention_heads":32,"vocab_size":32000,
      "quantization_config":{"quant_method":7,"load_in_4bit":"yes","bits":"four"}})", "q.json");
  ASSERT_TRUE(q.has_value()) << q.error().message;
  EXPECT_FALSE(q->shape.quantization.has_value());
}
