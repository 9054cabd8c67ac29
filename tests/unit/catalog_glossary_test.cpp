// The glossary behind `gpuscout explain` (data/glossary.csv through catalog/glossary) and the pointer line.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "catalog/glossary.hpp"
#include "report/glossary_render.hpp"

namespace {

using gpuscout::catalog::closest_terms;
using gpuscout::catalog::find_term;
using gpuscout::catalog::glossary;
using gpuscout::catalog::GlossaryEntry;
using gpuscout::catalog::terms_in_text;

std::string key_of(const GlossaryEntry* e) { return e ? e->key : "(none)"; }

std::vector<std::string> keys(const std::vector<const GlossaryEntry*>& entries) {
  std::vector<std::string> out;
  for (const auto* e : entries) out.push_back(e->key);
  return out;
}

TEST(Glossary, Loads) {
  EXPECT_EQ(gpuscout::catalog::glossary_load_error(), "");
  EXPECT_GE(glossary().size(), 20u);
}

TEST(Glossary, MatchesWithOrWithoutCaseSpacesAndDashes) {
  for (const char* w : {"VRAM", "vram", "Vram", " vram ", "video memory", "GPU memory", "gpu-memory", "GPU_Memory"})
    EXPECT_EQ(key_of(find_term(w)), "vram") << w;
  for (const char* w : {"tensor core", "Tensor Cores", "TENSOR-CORE", "tensorcore"})
    EXPECT_EQ(key_of(find_term(w)), "tensor-core") << w;
  for (const char* w : {"kv cache", "KV-Cache", "kvcache", "kv-cache"}) EXPECT_EQ(key_of(find_term(w)), "kv-cache") << w;
}

TEST(Glossary, MatchesChinese) {
  EXPECT_EQ(key_of(find_term("显存")), "vram");
  EXPECT_EQ(key_of(find_term("张量核心")), "tensor-core");
  EXPECT_EQ(key_of(find_term("计算能力")), "compute-capability");
  EXPECT_EQ(key_of(find_term("半精度")), "fp16");
  EXPECT_EQ(key_of(find_term("驱动")), "driver-toolkit-cudnn");
  EXPECT_EQ(key_of(find_term("算力")), "flops-bandwidth");
}

TEST(Glossary, MatchesAliases) {
  EXPECT_EQ(key_of(find_term("sm")), "compute-capability");
  EXPECT_EQ(key_of(find_term("matmul")), "gemm");
  EXPECT_EQ(key_of(find_term("bfloat16")), "bf16");
  EXPECT_EQ(key_of(find_term("QLoRA")), "lora");
  EXPECT_EQ(key_of(find_term("fsdp")), "zero-fsdp");
  EXPECT_EQ(key_of(find_term("cudnn")), "driver-toolkit-cudnn");
  EXPECT_EQ(key_of(find_term("cpu")), "gpu-vs-cpu");
  EXPECT_EQ(key_of(find_term("arch list")), "compute-capability");
  EXPECT_EQ(key_of(find_term("cuBLAS")), "cuda-build-size");
}

// Every term issue 13 asks for is findable, each number format on its own.
TEST(Glossary, EveryTermTheIssueNames) {
  for (const char* w : {"CUDA", "显存", "VRAM", "GPU vs CPU", "fp32", "fp16", "bf16", "fp8", "int8", "int4",
                        "Tensor Core", "compute capability", "driver", "CUDA toolkit", "cuDNN", "GEMM", "matmul",
                        "FLOP/s", "memory bandwidth", "PCIe", "KV cache", "LoRA", "QLoRA", "ZeRO", "FSDP", "ROCm",
                        "MPS", "CUDA build"})
    EXPECT_NE(find_term(w), nullptr) << w;
  for (const char* f : {"fp32", "fp16", "bf16", "fp8", "int8", "int4"}) EXPECT_EQ(key_of(find_term(f)), f);
}

TEST(Glossary, UnknownTermsAndTheirNearestNames) {
  EXPECT_EQ(find_term("vrma"), nullptr);
  EXPECT_EQ(find_term(""), nullptr);
  EXPECT_EQ(find_term("   "), nullptr);
  ASSERT_FALSE(closest_terms("vrma").empty());
  EXPECT_EQ(closest_terms("vrma").front()->key, "vram");
  ASSERT_FALSE(closest_terms("tensorcor").empty());
  EXPECT_EQ(closest_terms("tensorcor").front()->key, "tensor-core");
  EXPECT_LE(closest_terms("显").size(), 3u);
  EXPECT_TRUE(closest_terms("qqqqqqqqqqqq").empty());
  EXPECT_LE(closest_terms("f", 2).size(), 2u);
  // A huge or broken word is bounded, never a crash.
  EXPECT_EQ(find_term(std::string(100000, 'x')), nullptr);
  (void)closest_terms(std::string(100000, 'x') + "\xff\xfe");
}

TEST(Glossary, TermsInTextAsWholeWordsInOrder) {
  EXPECT_EQ(keys(terms_in_text("Train in bf16; the KV cache grows.")), (std::vector<std::string>{"bf16", "kv-cache"}));
  EXPECT_EQ(keys(terms_in_text("KV cache first, then bf16")), (std::vector<std::string>{"kv-cache", "bf16"}));
  EXPECT_EQ(keys(terms_in_text("显存不足：请换一张卡")), (std::vector<std::string>{"vram"}));
  EXPECT_EQ(keys(terms_in_text("compute capability 8.6")), (std::vector<std::string>{"compute-capability"}));
  // Not inside another word, and case matters: "zero" is not ZeRO, avx512_bf16 is a CPU flag.
  EXPECT_TRUE(terms_in_text("zero GPUs; flags avx512_bf16 bf16x; PCIex").empty());
  // Names too common to flag (lookup_only) are not spotted.
  EXPECT_TRUE(terms_in_text("the gpu and the cpu and the driver").empty());
  EXPECT_TRUE(terms_in_text("").empty());
}

TEST(GlossaryPointer, OneLineNamingTheTermsUsed) {
  const std::string line = gpuscout::report::glossary_pointer("Load it in bf16 with a KV cache of 2 GiB");
  EXPECT_NE(line.find("bf16"), std::string::npos) << line;
  EXPECT_NE(line.find("KV cache"), std::string::npos) << line;
  EXPECT_NE(line.find("gpuscout explain bf16"), std::string::npos) << line;
  EXPECT_EQ(line.find('\n'), line.size() - 1) << line;
  EXPECT_EQ(gpuscout::report::glossary_pointer("nothing to explain here"), "");
}

TEST(GlossaryRender, EntryAndListText) {
  const auto* vram = find_term("vram");
  ASSERT_NE(vram, nullptr);
  const std::string text = gpuscout::report::render_glossary_entry_text(*vram);
  EXPECT_EQ(text.rfind("VRAM: ", 0), 0u) << text;
  EXPECT_NE(text.find(vram->explanation.substr(0, 20)), std::string::npos) << text;
  EXPECT_NE(text.find("显存"), std::string::npos) << text;  // among the other names
  const std::string list = gpuscout::report::render_glossary_list_text();
  for (const auto& e : glossary()) EXPECT_NE(list.find(e.key), std::string::npos) << e.key;
  const auto json = gpuscout::report::glossary_json({vram});
  EXPECT_EQ(json["schema"], "gpuscout.glossary/1");
  EXPECT_EQ(json["entries"][0]["key"], "vram");
}

}  // namespace
