// The architectures of 2025-26 that change the memory model: MLA (DeepSeek), sliding-window and chunked attention
// (Gemma 3, gpt-oss, Llama 4), MoE with shared experts and dense layers, MXFP4 experts, multimodal configs.
#include <gtest/gtest.h>

#include "plan/catalogue.hpp"
#include "plan/estimate.hpp"
#include "plan/hf_config.hpp"
#include "plan/model_shape.hpp"
#include "plan_catalogue_model.hpp"

using namespace gpuscout;
using namespace gpuscout::plan;

namespace {
ModelShape shape_of(const char* name) { return catalogue_model(name); }

Estimate infer(const char* name, uint64_t context, const char* dtype = "", uint64_t batch = 1) {
  Workload w;
  w.mode = Mode::infer;
  w.context_tokens = context;
  w.batch = batch;
  w.dtype = dtype;
  auto e = estimate(shape_of(name), w);
  EXPECT_TRUE(e.has_value()) << (e ? "" : e.error().message);
  return e ? *e : Estimate{};
}
}  // namespace

TEST(PlanArchitectures, DeepSeekV3CachesOneLatentPerTokenAndLayer) {
  const ModelShape s = shape_of("deepseek-v3");
  ASSERT_TRUE(s.mla.has_value());
  // 61 layers x (kv_lora_rank 512 + qk_rope_head_dim 64), no separate K and V, no head count.
  EXPECT_DOUBLE_EQ(kv_cache_elements(s, 1, 1), 61.0 * 576.0);
  EXPECT_DOUBLE_EQ(kv_cache_elements(s, 1000, 2), 61.0 * 576.0 * 2000.0);
}

TEST(PlanArchitectures, DeepSeekV3ActiveParametersAreTheRoutedEightPlusTheSharedExpert) {
  const ParamCounts c = count_params(shape_of("deepseek-v3"));
  EXPECT_EQ(c.total, 671'026'419'200ULL);  // the main model; the checkpoint's MTP layer is not loaded
  // DeepSeek's report: 37B activated per token.
  EXPECT_GT(c.active, 36'500'000'000ULL);
  EXPECT_LT(c.active, 38'000'000'000ULL);
  // 58 routed layers of 256 experts x 3 x 7168 x 2048.
  EXPECT_EQ(c.expert_linear, 58ULL * 256 * 3 * 7168 * 2048);
}

TEST(PlanArchitectures, SlidingLayersKeepOnlyTheWindow) {
  const ModelShape gemma = shape_of("gemma-3-27b");
  EXPECT_EQ(gemma.sliding_window, 1024u);
  EXPECT_EQ(gemma.sliding_layers, 62u - 62u / 6u);  // every 6th layer is global
  const double per = 2.0 * 16 * 128;                // K and V of 16 heads of 128
  EXPECT_DOUBLE_EQ(kv_cache_elements(gemma, 32768, 1), per * (10.0 * 32768 + 52.0 * 1024));
  // A context inside the window: every layer keeps every token.
  EXPECT_DOUBLE_EQ(kv_cache_elements(gemma, 512, 1), per * 62 * 512);

  const ModelShape oss = shape_of("gpt-oss-120b");
  EXPECT_EQ(oss.sliding_window, 128u);
  EXPECT_EQ(oss.sliding_layers, 18u);
}

TEST(PlanArchitectures, Llama4ChunkedLayersAndInterleavedExperts) {
  const ModelShape scout = shape_of("llama-4-scout");
  EXPECT_EQ(scout.sliding_window, 8192u);
  EXPECT_EQ(scout.sliding_layers, 36u);  // 3 of every 4 layers use chunked attention
  EXPECT_EQ(scout.dense_layers, 0u);
  EXPECT_EQ(scout.shared_intermediate_size, 8192u);
  const ModelShape maverick = shape_of("llama-4-maverick");
  EXPECT_EQ(maverick.dense_layers, 24u);  // MoE every other layer
  EXPECT_EQ(maverick.dense_intermediate_size, 16384u);
}

TEST(PlanArchitectures, Mxfp4ShrinksOnlyTheExperts) {
  // gpt-oss-20b: 19.11B expert weights at 4.25 bits, the other 1.80B parameters in bf16 (the published checkpoint
  // is 13.8 GB).
  const Estimate e = infer("gpt-oss-20b", 1);
  EXPECT_EQ(e.format.name, "mxfp4");  // from the checkpoint's quantization_config
  EXPECT_NEAR(double(e.per_gpu.weights_bytes), 19'110'297'600.0 * 4.25 / 8 + 1'804'459'584.0 * 2, 1e6);
  // A dense model stays 16-bit under MXFP4, and says so.
  const Estimate dense = infer("llama-3-8b", 1, "mxfp4");
  const Estimate bf16 = infer("llama-3-8b", 1, "bf16");
  EXPECT_EQ(dense.per_gpu.weights_bytes, bf16.per_gpu.weights_bytes);
  EXPECT_FALSE(dense.warnings.empty());
}

TEST(PlanArchitectures, QwenThreeHasPerHeadNorms) {
  const ModelShape s = shape_of("qwen3-8b");
  EXPECT_TRUE(s.qk_norm);
  const ModelShape m = shape_of("qwen3-30b-a3b");
  EXPECT_EQ(m.num_experts, 128u);
  EXPECT_EQ(m.intermediate_size, 768u);  // moe_intermediate_size: the experts' width
  EXPECT_EQ(m.shared_intermediate_size, 0u);
}

TEST(PlanArchitectures, MultimodalConfigReadsTheTextModelAndCountsTheVisionTower) {
  const char* config = R"({"model_type": "gemma3", "text_config": {"model_type": "gemma3_text", "hidden_size": 2560, "intermediate_size": 10240, "num_hidden_layers": 34, "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256, "vocab_size": 262208, "sliding_window": 1024}, "vision_config": {"hidden_size": 1152, "intermediate_size": 4304, "num_hidden_layers": 27, "patch_size": 14, "image_size": 896}})";
  auto read = parse_hf_config(config, "config.json");
  ASSERT_TRUE(read.has_value()) << read.error().message;
  EXPECT_EQ(read->shape.model_type, "gemma3_text");
  EXPECT_EQ(count_params(read->shape).total, count_params(shape_of("gemma-3-4b")).total);
  EXPECT_EQ(read->shape.vision_params, 416'866'032ULL + 1152ULL * 2560 + 1152);  // SigLIP + projector
  EXPECT_TRUE(read->warnings.empty());
}

TEST(PlanArchitectures, MlaConfigNeedsEveryLatentSize) {
  const char* config = R"({"model_type": "deepseek_v3", "hidden_size": 1024, "intermediate_size": 2048, "num_hidden_layers": 2, "num_attention_heads": 8, "vocab_size": 1000, "kv_lora_rank": 128, "qk_rope_head_dim": 32})";
  auto read = parse_hf_config(config, "config.json");
  ASSERT_FALSE(read.has_value());
  EXPECT_NE(read.error().message.find("qk_nope_head_dim"), std::string::npos) << read.error().message;
}

TEST(PlanArchitectures, MlaCacheIsReplicatedUnderTensorParallelism) {
  Workload w;
  w.mode = Mode::infer;
  w.context_tokens = 4096;
  w.num_gpus = 8;
  w.strategy = Strategy::tp;
  Workload single;
  single.mode = Mode::infer;
  single.context_tokens = 4096;
  auto one = estimate(shape_of("deepseek-v3"), single);
  auto eight = estimate(shape_of("deepseek-v3"), w);
  ASSERT_TRUE(one && eight);
  EXPECT_EQ(one->per_gpu.kv_cache_bytes, eight->per_gpu.kv_cache_bytes);
}
