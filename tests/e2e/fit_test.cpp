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
                           "CUDA context", "allocator slack", "optimizer step", "total", "18 bytes/param", "does NOT fit",
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
      {{"fit", "--model", "llama-3-8b", "--vram", "0G"}, "greater than zero"},
      {{"fit", "--params", "0", "--vram", "24G"}, "'0'"},
      {{"fit", "--model", "no-such-model", "--vram", "24G"}, "unknown model"},
      {{"fit", "--config", kCorpus + "malformed.json", "--vram", "24G"}, "malformed.json: line 5 column 3: not valid JSON"},
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

// Issue 11, "bf16 on cards without bf16": the Colab T4 the tool recommends has no bf16.
TEST(Fit, ColabT4TrainingPlansFp16WithLossScaling) {
  const auto env = e2e::merge({e2e::sysroot_env("colab-t4"), e2e::fake_driver_env("colab-t4")});
  const auto r = e2e::run_gpuscout({"fit", "--model", "gpt2", "--mode", "train", "--json"}, env);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["workload"]["dtype"], "fp16");
  EXPECT_EQ(j["precision"]["chosen_by"], "gpu");
  const std::string reason = j["precision"]["reason"].get<std::string>();
  EXPECT_NE(reason.find("no bf16"), std::string::npos) << reason;
  EXPECT_NE(reason.find("loss scaling"), std::string::npos) << reason;
  const auto text = e2e::run_gpuscout({"fit", "--model", "gpt2", "--mode", "train"}, env);
  EXPECT_NE(text.out.find("train, fp16"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("bf16 mixed"), std::string::npos) << text.out;
  // A card with bf16 keeps it, and --dtype always wins.
  const auto a100 = e2e::run_gpuscout({"fit", "--model", "gpt2", "--mode", "train", "--gpu", "A100 80GB", "--json"});
  EXPECT_EQ(a100.json()["workload"]["dtype"], "bf16") << a100.err;
  const auto forced =
      e2e::run_gpuscout({"fit", "--model", "gpt2", "--mode", "train", "--dtype", "bf16", "--json"}, env);
  EXPECT_EQ(forced.json()["precision"]["chosen_by"], "--dtype") << forced.err;
}

TEST(Fit, TheNoModelTableFollowsTheCardsPrecision) {
  const auto r = e2e::run_gpuscout({"fit", "--gpu", "Tesla V100-SXM2-16GB", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["sixteen_bit"], "fp16");
  const auto text = e2e::run_gpuscout({"fit", "--gpu", "GTX 1080"});
  EXPECT_NE(text.out.find("inference, fp16"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("slow"), std::string::npos) << text.out;  // fp16 math is slow on sm_61
}

// Issue 11, "fit tables that mislead": QLoRA on 24 GiB with gradient checkpointing, as PEFT sets it up.
TEST(Fit, QloraRowOn24GiBUsesCheckpointingAndNearsThePapers33B) {
  const auto r = e2e::run_gpuscout({"fit", "--vram", "24G", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  const uint64_t qlora = j["max_params"]["qlora"].get<uint64_t>();
  EXPECT_GE(qlora, 30'000'000'000u);  // was 13.3B without checkpointing
  EXPECT_LE(qlora, 45'000'000'000u);
  const std::string recipe = j["recipes"]["qlora"].get<std::string>();
  EXPECT_NE(recipe.find("gradient checkpointing"), std::string::npos) << recipe;
  EXPECT_NE(j["recipes"]["lora"].get<std::string>().find("gradient checkpointing"), std::string::npos);
  const auto text = e2e::run_gpuscout({"fit", "--vram", "24G"});
  EXPECT_NE(text.out.find("frozen nf4 base"), std::string::npos) << text.out;
}

// The 16-bit inference row leaves realistic headroom: planning the row's own size keeps the reserve free.
TEST(Fit, InferenceRowLeavesTheReserveFree) {
  const auto table = e2e::run_gpuscout({"fit", "--vram", "24G", "--json"});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  const uint64_t params = table.json()["max_params"]["infer"]["fp16"].get<uint64_t>();
  const uint64_t kept = table.json()["kept_free_bytes"].get<uint64_t>();
  EXPECT_GE(kept, (24ULL << 30) / 10);
  const auto r = e2e::run_gpuscout({"fit", "--params", std::to_string(params), "--vram", "24G", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["breakdown"]["kept_free_bytes"].get<uint64_t>(), kept);
  const uint64_t used = j["total_bytes"].get<uint64_t>() - kept;
  EXPECT_GE((24ULL << 30) - used, kept) << "the model may use at most the card minus the reserve";
  const auto text = e2e::run_gpuscout({"fit", "--params", std::to_string(params), "--vram", "24G"});
  EXPECT_NE(text.out.find("left free"), std::string::npos) << text.out;
}

TEST(Fit, BareVramIsAnErrorThatSuggestsAUnit) {
  const auto r = e2e::run_gpuscout({"fit", "--vram", "16"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.err.find("16G"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--vram"), std::string::npos) << r.err;
  const auto need = e2e::run_gpuscout({"advise", "--need-vram", "12", "--no-probe"});
  EXPECT_EQ(need.exit_code, 2) << need.out;
  EXPECT_NE(need.err.find("12G"), std::string::npos) << need.err;
}

TEST(Fit, GBAndGiBAreBothReadAndSaid) {
  const auto gb = e2e::run_gpuscout({"fit", "--vram", "16GB", "--json"});
  const auto g = e2e::run_gpuscout({"fit", "--vram", "16G", "--json"});
  ASSERT_EQ(gb.exit_code, 0) << gb.err;
  ASSERT_EQ(g.exit_code, 0) << g.err;
  EXPECT_EQ(gb.json()["capacity_bytes"].get<uint64_t>(), 16'000'000'000u);
  EXPECT_EQ(g.json()["capacity_bytes"].get<uint64_t>(), 16ULL << 30);
  const auto text_gb = e2e::run_gpuscout({"fit", "--vram", "16GB"});
  const auto text_g = e2e::run_gpuscout({"fit", "--vram", "16G"});
  EXPECT_NE(text_gb.out.find("16 GB = 14.9 GiB"), std::string::npos) << text_gb.out;
  EXPECT_NE(text_g.out.find("16 GiB"), std::string::npos) << text_g.out;
}

TEST(Fit, BeginnerVisionModels) {
  const auto r = e2e::run_gpuscout({"fit", "--model", "resnet18", "--mode", "train", "--vram", "8G", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["params"], 11689512u);  // torchvision's count
  EXPECT_EQ(j["workload"]["batch"], 32u);  // torchvision's references/classification default
  EXPECT_GT(j["breakdown"]["activations_bytes"].get<uint64_t>(), 0u);
  for (const char* m : {"resnet-50", "vit-b-16", "unet"}) {
    const auto x = e2e::run_gpuscout({"fit", "--model", m, "--mode", "train", "--vram", "16G", "--json"});
    EXPECT_EQ(x.exit_code, 0) << m << x.err;
  }
  const auto list = e2e::run_gpuscout({"fit", "--list-models"});
  for (const char* m : {"resnet-18", "resnet-50", "vit-b-16", "unet"})
    EXPECT_NE(list.out.find(m), std::string::npos) << m;
}

// Issue 11: with no GPU, fit plans for the free T4 instead of exit 2.
TEST(Fit, NoGpuPlansForTheFreeT4) {
  const auto env = e2e::merge({e2e::sysroot_env("no-gpu-vm"), e2e::fake_driver_env("no-device")});
  const auto r = e2e::run_gpuscout({"fit", "--json"}, env);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["gpus"][0]["name"], "Tesla T4");
  EXPECT_EQ(j["sixteen_bit"], "fp16");
  bool said = false;
  for (const auto& n : j["notes"]) said = said || n.get<std::string>().find("free Tesla T4") != std::string::npos;
  EXPECT_TRUE(said) << j["notes"].dump();
  const auto model = e2e::run_gpuscout({"fit", "--model", "llama-3.2-1b"}, env);
  ASSERT_EQ(model.exit_code, 0) << model.err;
  EXPECT_NE(model.out.find("Tesla T4"), std::string::npos) << model.out;
}
