// The memory model term by term: weights, KV cache, activations, training states, strategies, fits.
#include <gtest/gtest.h>

#include "core/units.hpp"
#include "plan/catalogue.hpp"
#include "plan/estimate.hpp"
#include "plan/precision_choice.hpp"
#include "plan_catalogue_model.hpp"

using namespace gpuscout;
using namespace gpuscout::plan;

namespace {
ModelShape model(const char* name) { return catalogue_model(name); }
Estimate run(const ModelShape& s, const Workload& w) {
  auto e = estimate(s, w);
  EXPECT_TRUE(e.has_value()) << (e ? "" : e.error().message);
  return e ? *e : Estimate{};
}
Workload infer(uint64_t context, std::string dtype = "bf16") {
  Workload w;
  w.dtype = std::move(dtype);
  w.context_tokens = context;
  return w;
}
Workload train(Convention c = Convention::zero, std::string dtype = "bf16") {
  Workload w;
  w.mode = Mode::train;
  w.dtype = std::move(dtype);
  w.convention = c;
  w.context_tokens = 1024;
  return w;
}
}  // namespace

TEST(PlanEstimate, Llama3WeightsMatchVllm) {
  // vLLM reports 14.96 GiB of bf16 weights for Llama-3-8B.
  const auto e = run(model("llama-3-8b"), infer(4096));
  EXPECT_EQ(e.per_gpu.weights_bytes, 8'030'261'248ULL * 2);
  EXPECT_NEAR(double(e.per_gpu.weights_bytes) / double(units::GiB), 14.96, 0.01);
}

TEST(PlanEstimate, KvCacheFormulaCountsKvHeads) {
  // 2 x 32 layers x 8 kv heads x 128 x 2 bytes = 128 KiB per token (vLLM issue 12330).
  const auto one = run(model("llama-3-8b"), infer(1));
  EXPECT_EQ(one.per_gpu.kv_cache_bytes, 128u * 1024);
  Workload w = infer(4096);
  w.batch = 3;
  const auto e = run(model("llama-3-8b"), w);
  EXPECT_EQ(e.per_gpu.kv_cache_bytes, 2ULL * 32 * 8 * 128 * 4096 * 3 * 2);
  // Llama-2-7B has no grouped-query attention: 4x the cache per token.
  EXPECT_EQ(run(model("llama-2-7b"), infer(1)).per_gpu.kv_cache_bytes, 512u * 1024);
  // An fp8 cache halves it.
  Workload f = infer(1);
  f.kv_dtype = "fp8";
  EXPECT_EQ(run(model("llama-3-8b"), f).per_gpu.kv_cache_bytes, 64u * 1024);
}

TEST(PlanEstimate, BertFp32MatchesAccelerate) {
  // accelerate estimate-memory: bert-base-cased float32 413.68 MB (MiB).
  const auto e = run(model("bert-base-cased"), infer(512, "fp32"));
  EXPECT_EQ(e.per_gpu.weights_bytes, 108'310'272ULL * 4);
  EXPECT_EQ(e.per_gpu.kv_cache_bytes, 0u);  // an encoder keeps no cache
}

TEST(PlanEstimate, QuantisationShrinksOnlyLinearLayers) {
  const auto s = model("llama-3-8b");
  const auto c = count_params(s);
  const auto e = run(s, infer(1, "int4"));
  const double expect = double(c.linear) * 4.15625 / 8 + double(c.embedding + c.other) * 2;
  EXPECT_NEAR(double(e.per_gpu.weights_bytes), expect, 1.0);
  // GGUF quantises every tensor at its average bits per weight.
  const auto g = run(s, infer(1, "q4_k_m"));
  EXPECT_NEAR(double(g.per_gpu.weights_bytes), double(c.total) * 4.84 / 8, 1.0);
}

TEST(PlanEstimate, TrainingConventions) {
  const auto s = model("llama-2-7b");
  const double p = 6'738'415'616.0;
  struct Case {
    Convention c;
    const char* dtype;
    double w, g, o, total;
  };
  for (const auto& k : {Case{Convention::zero, "bf16", 2, 2, 12, 16}, Case{Convention::hf, "bf16", 6, 4, 8, 18},
                        Case{Convention::pure, "bf16", 2, 2, 4, 8}, Case{Convention::zero, "fp32", 4, 4, 8, 16}}) {
    const auto e = run(s, train(k.c, k.dtype));
    EXPECT_NEAR(double(e.per_gpu.weights_bytes), k.w * p, 1) << name(k.c);
    EXPECT_NEAR(double(e.per_gpu.gradients_bytes), k.g * p, 1) << name(k.c);
    EXPECT_NEAR(double(e.per_gpu.optimizer_bytes), k.o * p, 1) << name(k.c);
    EXPECT_EQ(e.state_bytes_per_param, k.total) << name(k.c);
    EXPECT_EQ(e.per_gpu.kv_cache_bytes, 0u);
  }
  Workload w8 = train();
  w8.optimizer = Optimizer::adamw8bit;
  EXPECT_NEAR(double(run(s, w8).per_gpu.optimizer_bytes), 6 * p, 1);  // master 4 + 8-bit m, v
}

TEST(PlanEstimate, AutoConventionFollowsTheStrategy) {
  const auto s = model("llama-2-7b");
  Workload w = train(Convention::automatic);
  EXPECT_EQ(run(s, w).workload.convention, Convention::hf) << "one GPU: torch.autocast";
  w.num_gpus = 4;
  w.strategy = Strategy::ddp;
  EXPECT_EQ(run(s, w).workload.convention, Convention::hf);
  for (Strategy st : {Strategy::zero1, Strategy::zero2, Strategy::zero3, Strategy::fsdp}) {
    w.strategy = st;
    EXPECT_EQ(run(s, w).workload.convention, Convention::zero) << name(st);
  }
}

// PyTorch's foreach AdamW: one temporary per trainable parameter, as wide as the states; none for fused optimizers
// (the ZeRO accounting), SGD or 8-bit AdamW; with expandable segments only what the freed memory does not cover.
TEST(PlanEstimate, OptimizerStepTemporaries) {
  const auto s = model("llama-2-7b");
  const double p = 6'738'415'616.0;
  EXPECT_NEAR(double(run(s, train(Convention::hf)).per_gpu.optimizer_step_bytes), 4 * p, 1);
  EXPECT_NEAR(double(run(s, train(Convention::pure)).per_gpu.optimizer_step_bytes), 2 * p, 1);
  EXPECT_NEAR(double(run(s, train(Convention::zero, "fp32")).per_gpu.optimizer_step_bytes), 4 * p, 1);
  EXPECT_EQ(run(s, train(Convention::zero)).per_gpu.optimizer_step_bytes, 0u);
  Workload sgd = train(Convention::hf);
  sgd.optimizer = Optimizer::sgd;
  EXPECT_EQ(run(s, sgd).per_gpu.optimizer_step_bytes, 0u);
  EXPECT_EQ(run(s, infer(4096)).per_gpu.optimizer_step_bytes, 0u);
  Workload expandable = train(Convention::hf);
  expandable.expandable_segments = true;
  const auto e = run(s, expandable);
  // 4 bytes per parameter against autocast's 2-byte copies and the activations: what is left, never below 0.
  EXPECT_NEAR(double(e.per_gpu.optimizer_step_bytes),
              std::max(0.0, 4 * p - 2 * p - double(e.per_gpu.activations_bytes)), 2);
  Workload lora = train(Convention::hf);
  lora.mode = Mode::lora;
  const auto l = run(s, lora);
  EXPECT_NEAR(double(l.per_gpu.optimizer_step_bytes), 4.0 * double(l.trainable_params), 1) << "adapters only";
}

// The CUDA context by architecture (data/cuda_context.csv): measured on Hopper, 512 MiB where nobody measured.
TEST(PlanEstimate, CudaContextByArchitecture) {
  const auto s = model("llama-2-7b");
  Workload w = infer(4096);
  EXPECT_EQ(run(s, w).per_gpu.cuda_context_bytes, 512 * units::MiB);
  w.gpu_architecture = "Hopper";
  EXPECT_EQ(run(s, w).per_gpu.cuda_context_bytes, 697 * units::MiB);
  Workload t = train(Convention::hf);
  t.gpu_architecture = "hopper";
  EXPECT_EQ(run(s, t).per_gpu.cuda_context_bytes, 773 * units::MiB);
  t.gpu_architecture = "Pascal";
  EXPECT_EQ(run(s, t).per_gpu.cuda_context_bytes, 512 * units::MiB);
}

TEST(PlanEstimate, ZeroPaperModelStatesPerGpu) {
  // ZeRO paper Fig. 1: 7.5B parameters, 64 GPUs, K = 12: 120 / 31.4 / 16.6 / 1.9 GB per GPU.
  const auto s = generic_shape(7'500'000'000ULL);
  Workload w = train();
  w.num_gpus = 64;
  const auto states = [&](Strategy st) {
    w.strategy = st;
    const auto e = run(s, w);
    return double(e.per_gpu.weights_bytes - e.gathered_weights_bytes + e.per_gpu.gradients_bytes +
                  e.per_gpu.optimizer_bytes) / 1e9;
  };
  EXPECT_NEAR(states(Strategy::ddp), 120.0, 0.5);
  EXPECT_NEAR(states(Strategy::zero1), 31.4, 0.1);
  EXPECT_NEAR(states(Strategy::zero2), 16.6, 0.1);
  EXPECT_NEAR(states(Strategy::zero3), 1.9, 0.05);
}

TEST(PlanEstimate, StrategiesDivideOnlyWhatTheyShard) {
  const auto s = model("llama-2-7b");
  Workload w = train();
  const auto one = run(s, w);
  w.num_gpus = 4;
  w.strategy = Strategy::ddp;
  const auto ddp = run(s, w);
  EXPECT_EQ(ddp.per_gpu.total_bytes(), one.per_gpu.total_bytes());  // never adds memory of GPUs together
  EXPECT_EQ(ddp.all_gpus_bytes, 4 * one.per_gpu.total_bytes());
  w.strategy = Strategy::zero1;
  const auto z1 = run(s, w);
  EXPECT_EQ(z1.per_gpu.weights_bytes, one.per_gpu.weights_bytes);
  EXPECT_EQ(z1.per_gpu.gradients_bytes, one.per_gpu.gradients_bytes);
  EXPECT_EQ(z1.per_gpu.optimizer_bytes, one.per_gpu.optimizer_bytes / 4);
  EXPECT_EQ(z1.per_gpu.activations_bytes, one.per_gpu.activations_bytes);
  w.strategy = Strategy::zero2;
  const auto z2 = run(s, w);
  EXPECT_EQ(z2.per_gpu.gradients_bytes, one.per_gpu.gradients_bytes / 4);
  EXPECT_EQ(z2.per_gpu.weights_bytes, one.per_gpu.weights_bytes);
  w.strategy = Strategy::zero3;
  const auto z3 = run(s, w);
  EXPECT_EQ(z3.per_gpu.weights_bytes - z3.gathered_weights_bytes, one.per_gpu.weights_bytes / 4);
  EXPECT_GT(z3.gathered_weights_bytes, 0u);
  EXPECT_EQ(z3.per_gpu.activations_bytes, one.per_gpu.activations_bytes);
  w.strategy = Strategy::tp;
  const auto tp = run(s, w);
  EXPECT_LT(tp.per_gpu.activations_bytes, one.per_gpu.activations_bytes / 3);
}

TEST(PlanEstimate, TensorParallelCannotSplitKvBeyondItsHeads) {
  Workload w = infer(4096);
  w.num_gpus = 16;
  w.strategy = Strategy::tp;
  const auto e = run(model("llama-3-8b"), w);  // 8 kv heads: at most 8 ways
  EXPECT_EQ(e.per_gpu.kv_cache_bytes, 512ULL * units::MiB / 8);
}

TEST(PlanEstimate, KorthikantiActivationsForGpt2Style) {
  // GPT-2 with FlashAttention and dropout: 34 x s x b x h bytes per layer (Korthikanti et al. 2022, no s^2 term)
  // plus 4 bytes x heads for the log-sum-exp; 2 x 2sbh around the blocks; fp32 logits 4 x tokens x vocab.
  const auto s = model("gpt2");
  Workload w = train();
  w.context_tokens = 1024;
  w.batch = 4;
  const auto e = run(s, w);
  const double t = 4096, h = 768;
  const double expect = 12 * t * (34 * h + 4 * 12) + 4 * h * t + 4 * t * 50257;
  EXPECT_NEAR(double(e.per_gpu.activations_bytes), expect, 2.0);
  // Checkpointing keeps one input per layer and one layer's full set.
  w.grad_checkpointing = true;
  const auto c = run(s, w);
  EXPECT_NEAR(double(c.per_gpu.activations_bytes), 12 * 2 * h * t + t * (34 * h + 48) + 4 * h * t + 4 * t * 50257, 2.0);
}

TEST(PlanEstimate, LoraCountsAdapters) {
  auto s = model("llama-2-70b");
  Workload w;
  w.mode = Mode::qlora;
  w.lora_rank = 16;
  w.context_tokens = 1024;
  const auto e = run(s, w);
  // r x (in + out) on q, k, v, o of 80 layers.
  EXPECT_EQ(e.trainable_params, 16ULL * 80 * ((8192 + 8192) * 2 + (8192 + 1024) * 2));
  EXPECT_EQ(e.per_gpu.adapters_bytes, e.trainable_params * 4);
  EXPECT_EQ(e.format.name, "nf4");
  w.lora_targets = {"all"};
  EXPECT_GT(run(s, w).trainable_params, e.trainable_params * 3);
  w.lora_targets = {"q", "attention"};
  EXPECT_FALSE(estimate(s, w).has_value());
}

TEST(PlanEstimate, RejectsImpossibleCombinations) {
  const auto s = model("llama-3-8b");
  Workload w = train();
  w.dtype = "int4";
  auto r = estimate(s, w);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("qlora"), std::string::npos);
  Workload q;
  q.mode = Mode::qlora;
  q.dtype = "bf16";
  EXPECT_FALSE(estimate(s, q).has_value());
  Workload b = infer(4096);
  b.batch = 0;  // not given: the model's default batch, 1 for a language model
  EXPECT_EQ(run(s, b).workload.batch, 1u);
  Workload g = infer(4096, "q4_k_m");
  g.mode = Mode::lora;
  EXPECT_FALSE(estimate(s, g).has_value());
}

TEST(PlanEstimate, WarnsWhenContextExceedsTheModel) {
  const auto e = run(model("llama-2-7b"), infer(8192));
  ASSERT_EQ(e.warnings.size(), 1u);
  EXPECT_NE(e.warnings[0].find("4096"), std::string::npos);
  EXPECT_TRUE(run(model("llama-2-7b"), infer(4096)).warnings.empty());
}

TEST(PlanEstimate, DefaultContextIsCappedByTheModel) {
  Workload w;
  const auto e = run(model("gpt2"), w);
  EXPECT_EQ(e.workload.context_tokens, 1024u);
  EXPECT_EQ(run(model("llama-3-8b"), w).workload.context_tokens, 4096u);
}

TEST(PlanFit, ChecksEachGpuAndSuggests) {
  const auto s = model("llama-3-8b");
  auto p = plan_fit(s, infer(4096), {{"big", 24 * units::GiB, "--vram"}});
  ASSERT_TRUE(p.has_value());
  ASSERT_TRUE(p->fits.has_value());
  EXPECT_TRUE(*p->fits);
  EXPECT_GT(p->gpus[0].headroom_bytes, 0);
  EXPECT_TRUE(p->suggestions.empty());

  auto small = plan_fit(s, infer(4096), {{"small", 8 * units::GiB, "--vram"}});
  ASSERT_TRUE(small.has_value());
  EXPECT_FALSE(*small->fits);
  EXPECT_LT(small->gpus[0].headroom_bytes, 0);
  bool int4_fits = false;
  for (const auto& sug : small->suggestions)
    if (sug.flags == "--dtype int4") int4_fits = sug.fits;
  EXPECT_TRUE(int4_fits);

  auto none = plan_fit(s, infer(4096), {});
  ASSERT_TRUE(none.has_value());
  EXPECT_FALSE(none->fits.has_value());
}

TEST(PlanFit, MixedCardsAreLimitedByTheSmallest) {
  const auto s = model("llama-3-8b");
  auto p = plan_fit(s, infer(4096), {{"a", 8 * units::GiB, "--vram"}, {"b", 32 * units::GiB, "--vram"}});
  ASSERT_TRUE(p.has_value());
  EXPECT_FALSE(*p->fits);  // an equal share (about 9 GiB) does not fit 8 GiB
  EXPECT_TRUE(p->gpus[1].fits);
  ASSERT_TRUE(p->layer_split.has_value());
  EXPECT_TRUE(p->layer_split->fits);  // but a split by memory does
  bool said = false;
  for (const auto& n : p->notes) said = said || n.find("smallest") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(PlanFit, TrainingSuggestsMoreGpusWithZero3) {
  const auto s = model("llama-2-13b");
  Workload w = train();
  w.grad_checkpointing = true;
  auto p = plan_fit(s, w, {{"a", 80 * units::GiB, "--vram"}});
  ASSERT_TRUE(p.has_value());
  EXPECT_FALSE(*p->fits);
  bool zero3 = false;
  for (const auto& sug : p->suggestions)
    if (sug.flags.find("--strategy zero3") != std::string::npos) zero3 = sug.fits;
  EXPECT_TRUE(zero3);
}

TEST(PlanMaxParams, TableIsOrderedAndBeatsNothingNaive) {
  Workload base;
  const auto t = max_params_table(24 * units::GiB, base);
  EXPECT_EQ(t.naive_fp16, 12 * units::GiB);
  EXPECT_LT(t.infer_fp16, t.naive_fp16);  // the real answer is below the rule of thumb
  EXPECT_LT(t.infer_fp16, t.infer_int8);
  EXPECT_LT(t.infer_int8, t.infer_int4);
  EXPECT_LT(t.train, t.lora);
  EXPECT_LT(t.lora, t.qlora);
  EXPECT_GT(t.train, 500'000'000u);
  EXPECT_LT(largest_model_that_fits(12 * units::GiB, base), largest_model_that_fits(24 * units::GiB, base));
  EXPECT_EQ(largest_model_that_fits(100 * units::MiB, base), 0u);
}

namespace {
GpuCapacity card(const char* name, const char* cc, uint64_t bytes = 16 * units::GiB) {
  return {name, bytes, "catalogue", catalog::precision_for({.vendor = "nvidia", .compute_capability = cc})};
}
}  // namespace

TEST(PlanPrecision, Bf16OnlyWhereEveryCardHasIt) {
  EXPECT_EQ(choose_sixteen_bit({card("Tesla T4", "7.5")}).dtype, "fp16");
  EXPECT_EQ(choose_sixteen_bit({card("Tesla V100", "7.0")}).dtype, "fp16");
  EXPECT_EQ(choose_sixteen_bit({card("GeForce GTX 1080", "6.1")}).dtype, "fp16");
  EXPECT_EQ(choose_sixteen_bit({card("GeForce RTX 4090", "8.9")}).dtype, "bf16");
  EXPECT_EQ(choose_sixteen_bit({card("GeForce RTX 4090", "8.9"), card("Tesla T4", "7.5")}).dtype, "fp16");
  const auto t4 = choose_sixteen_bit({card("Tesla T4", "7.5")});
  EXPECT_NE(t4.reason.find("Tesla T4"), std::string::npos) << t4.reason;
  EXPECT_TRUE(t4.from_card);
  EXPECT_NE(choose_sixteen_bit({card("GeForce GTX 1080", "6.1")}).reason.find("slow"), std::string::npos);
  const auto unnamed = choose_sixteen_bit({{"--vram 24 GiB", 24 * units::GiB, "--vram", std::nullopt}});
  EXPECT_EQ(unnamed.dtype, "bf16");
  EXPECT_FALSE(unnamed.from_card);
  EXPECT_NE(unnamed.reason.find("assumed"), std::string::npos);
}

TEST(PlanPrecision, TheWorkloadsSixteenBitIsTheDefaultFormat) {
  Workload w;
  w.mode = Mode::train;
  w.sixteen_bit = choose_sixteen_bit({card("Tesla T4", "7.5")});
  const auto e = run(model("gpt2"), w);
  EXPECT_EQ(e.format.name, "fp16");
  EXPECT_EQ(e.dtype_chosen_by, "gpu");
  EXPECT_NE(e.dtype_reason.find("loss scaling"), std::string::npos) << e.dtype_reason;
  w.dtype = "bf16";  // --dtype wins
  EXPECT_EQ(run(model("gpt2"), w).format.name, "bf16");
  EXPECT_EQ(run(model("gpt2"), w).dtype_chosen_by, "--dtype");
}

TEST(PlanFit, KeepsPartOfTheCardFree) {
  const auto s = model("llama-3-8b");
  auto p = plan_fit(s, infer(4096), {{"big", 24 * units::GiB, "--vram"}});
  ASSERT_TRUE(p.has_value());
  const auto& b = p->estimate.per_gpu;
  EXPECT_EQ(b.kept_free_bytes, kept_free_bytes(24 * units::GiB));
  EXPECT_GT(b.kept_free_bytes, units::GiB);
  EXPECT_EQ(p->gpus[0].need_bytes, b.total_bytes());
  EXPECT_EQ(run(s, infer(4096)).per_gpu.kept_free_bytes, 0u);  // no card, nothing to keep
}

TEST(PlanMaxParams, LoraRowsUseCheckpointingAndQloraReachesThePapers33B) {
  Workload base;  // checkpointing off for full training, as the CLI's default
  const auto t = max_params_table(24 * units::GiB, base);
  Workload lora;
  lora.mode = Mode::qlora;
  lora.dtype = "nf4";
  lora.context_tokens = 2048;
  lora.kept_free_bytes = kept_free_bytes(24 * units::GiB);
  const uint64_t without = largest_model_that_fits(24 * units::GiB, lora);
  EXPECT_GT(t.qlora, without);  // the table's row is the checkpointed one
  // Dettmers et al. 2023 fine-tune a 33B model on one 24 GB card.
  EXPECT_GE(t.qlora, 30'000'000'000u);
  EXPECT_LE(t.qlora, 45'000'000'000u);
  ASSERT_EQ(t.recipes.size(), 6u);
  EXPECT_NE(t.recipes[5].find("gradient checkpointing"), std::string::npos) << t.recipes[5];
  EXPECT_NE(t.recipes[4].find("gradient checkpointing"), std::string::npos) << t.recipes[4];
}

TEST(PlanMaxParams, InferenceLeavesTheReserveFree) {
  const auto t = max_params_table(24 * units::GiB, Workload{});
  Workload w = infer(4096, "bf16");
  const auto e = run(generic_shape(t.infer_fp16), w);
  EXPECT_LE(e.per_gpu.total_bytes(), 24 * units::GiB - kept_free_bytes(24 * units::GiB));
}

TEST(PlanCatalogue, VisionModelsHaveACoursesBatch) {
  for (const char* name : {"resnet-18", "resnet18", "resnet-50", "vit-b-16", "unet"}) {
    Workload w;
    w.mode = Mode::train;
    w.batch = 0;  // not given
    const auto e = run(model(name), w);
    EXPECT_GT(e.workload.batch, 1u) << name;
    EXPECT_GT(e.per_gpu.activations_bytes, 0u) << name;
  }
  EXPECT_EQ(count_params(model("resnet-18")).total, 11'689'512u);  // torchvision's count
}
