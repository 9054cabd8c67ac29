// `gpuscout explain`, the glossary, in English and Chinese; and the pointer line under doctor's text.
#include <gtest/gtest.h>

#include <string>

#include "e2e_support.hpp"

namespace {

using e2e::merge;
using e2e::run_gpuscout;

/// No language from the developer's environment: English unless --lang says otherwise.
using e2e::kNoLocale;

using e2e::occurrences;

TEST(Explain, ChineseWordEnglishAnswer) {
  const auto r = run_gpuscout({"explain", "显存"}, kNoLocale);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("VRAM: ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("CUDA out of memory"), std::string::npos) << r.out;
}

TEST(Explain, EnglishWordAnyCase) {
  const auto upper = run_gpuscout({"explain", "VRAM"}, kNoLocale);
  const auto lower = run_gpuscout({"explain", "vram"}, kNoLocale);
  ASSERT_EQ(upper.exit_code, 0) << upper.err;
  EXPECT_EQ(upper.out, lower.out);
  const auto two_words = run_gpuscout({"explain", "kv", "cache"}, kNoLocale);
  ASSERT_EQ(two_words.exit_code, 0) << two_words.err;
  EXPECT_EQ(two_words.out.rfind("KV cache: ", 0), 0u) << two_words.out;
}

TEST(Explain, InChinese) {
  for (const auto& args : {std::vector<std::string>{"explain", "--lang", "zh", "vram"},
                           std::vector<std::string>{"--lang", "zh", "explain", "vram"}}) {
    const auto r = run_gpuscout(args, kNoLocale);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("显存：", 0) == 0 || r.out.rfind("显存: ", 0) == 0, true) << r.out;
    EXPECT_NE(r.out.find("经验法则"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("Rule of thumb"), std::string::npos) << r.out;
  }
  const auto env = run_gpuscout({"explain", "tensor core"}, merge({kNoLocale, {{"LANG", "zh_CN.UTF-8"}}}));
  ASSERT_EQ(env.exit_code, 0) << env.err;
  EXPECT_NE(env.out.find("张量核心"), std::string::npos) << env.out;
  const auto gpu = run_gpuscout({"--lang", "zh", "explain", "gpu"}, kNoLocale);
  EXPECT_NE(gpu.out.find("博士生"), std::string::npos) << gpu.out;
}

TEST(Explain, ListsEveryTerm) {
  const auto r = run_gpuscout({"explain"}, kNoLocale);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* key : {"cuda", "vram", "gpu-vs-cpu", "fp16", "bf16", "tensor-core", "compute-capability",
                          "kv-cache", "lora", "zero-fsdp", "rocm", "mps", "cuda-build-size"})
    EXPECT_NE(r.out.find(key), std::string::npos) << key;
  const auto zh = run_gpuscout({"--lang", "zh", "explain"}, kNoLocale);
  ASSERT_EQ(zh.exit_code, 0) << zh.err;
  EXPECT_NE(zh.out.find("显卡自带的内存"), std::string::npos) << zh.out;
}

TEST(Explain, UnknownTermIsAUsageError) {
  const auto r = run_gpuscout({"explain", "vrma"}, kNoLocale);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("'vrma'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("vram"), std::string::npos) << r.err;  // the closest term
  const auto json = run_gpuscout({"explain", "--json", "nothing-like-it-at-all"}, kNoLocale);
  EXPECT_EQ(json.exit_code, 2);
  EXPECT_EQ(json.out, "");
}

TEST(Explain, Json) {
  const auto one = run_gpuscout({"explain", "--json", "显存"}, kNoLocale);
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const auto doc = one.json();
  EXPECT_EQ(doc["schema"], "gpuscout.glossary/1");
  EXPECT_EQ(doc["language"], "en");
  ASSERT_EQ(doc["entries"].size(), 1u);
  EXPECT_EQ(doc["entries"][0]["key"], "vram");
  const auto all = run_gpuscout({"explain", "--json"}, kNoLocale).json();
  EXPECT_GE(all["entries"].size(), 20u);
  const auto zh = run_gpuscout({"--lang", "zh", "explain", "--json", "vram"}, kNoLocale).json();
  EXPECT_EQ(zh["language"], "zh");
  EXPECT_EQ(zh["entries"][0]["title"], "显存");
}

TEST(GlossaryPointer, OnceUnderDoctorTextNeverInJson) {
  const auto env = merge({kNoLocale, e2e::fake_driver_env("rtx4090"), e2e::sysroot_env("laptop-intel-nvidia")});
  const auto text = run_gpuscout({"doctor", "--no-python"}, env);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(occurrences(text.out, "gpuscout explain "), 1u) << text.out;
  EXPECT_EQ(occurrences(text.out, "Words used above: "), 1u) << text.out;
  const auto json = run_gpuscout({"doctor", "--no-python", "--json"}, env);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(json.out.find("gpuscout explain"), std::string::npos);
  EXPECT_FALSE(json.json().is_null());
  const auto zh = run_gpuscout({"--lang", "zh", "doctor", "--no-python"}, env);
  EXPECT_EQ(occurrences(zh.out, "上面用到的术语"), 1u) << zh.out;
}

TEST(GlossaryPointer, UnderFitText) {
  const auto r = run_gpuscout({"fit", "--params", "7B", "--vram", "24G"}, kNoLocale);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(occurrences(r.out, "gpuscout explain "), 1u) << r.out;
  const auto json = run_gpuscout({"fit", "--params", "7B", "--vram", "24G", "--json"}, kNoLocale);
  EXPECT_EQ(json.out.find("gpuscout explain"), std::string::npos);
}

}  // namespace
