// Findings (diagnose) and fit's plan text in Chinese with --lang zh or a zh_CN locale; English without one.
#include <gtest/gtest.h>

#include <string>

#include "e2e_support.hpp"

namespace {

using e2e::merge;
using e2e::run_gpuscout;

using e2e::kNoLocale;

TEST(ZhFindings, NoGpuInChineseNamesChinasFreePlatformFirst) {
  // Colab and Kaggle need Google, which mainland China cannot reach: in Chinese, AI Studio leads the list.
  const auto env = merge({kNoLocale, e2e::sysroot_env("no-gpu-vm")});
  const auto zh = run_gpuscout({"--lang", "zh", "doctor", "--no-python", "--json"}, env);
  const auto zh_doc = zh.json();
  const auto* f = e2e::finding(zh_doc, "no-gpu");
  ASSERT_NE(f, nullptr) << zh.out;
  const std::string fix = (*f)["fix"];
  ASSERT_NE(fix.find("AI Studio"), std::string::npos) << fix;
  EXPECT_LT(fix.find("AI Studio"), fix.find("Colab")) << fix;
  EXPECT_NE(fix.find("；"), std::string::npos) << fix;
  const auto en = run_gpuscout({"doctor", "--no-python", "--json"}, env);
  const auto en_doc = en.json();
  const auto* g = e2e::finding(en_doc, "no-gpu");
  ASSERT_NE(g, nullptr) << en.out;
  const std::string en_fix = (*g)["fix"];
  EXPECT_LT(en_fix.find("Colab"), en_fix.size()) << en_fix;
  EXPECT_EQ(en_fix.find("；"), std::string::npos) << en_fix;
}

TEST(ZhFindings, NouveauFindingInChineseWithTheCommandKept) {
  const auto env = merge({kNoLocale, e2e::sysroot_env("desktop-nouveau")});
  const auto zh = run_gpuscout({"--lang", "zh", "doctor", "--no-python", "--json"}, env);
  ASSERT_EQ(zh.exit_code, 0) << zh.err;
  const auto doc = zh.json();
  const auto* f = e2e::finding(doc, "nouveau-driver");
  ASSERT_NE(f, nullptr) << zh.out;
  const std::string message = (*f)["message"], fix = (*f)["fix"];
  EXPECT_NE(message.find("nouveau 驱动"), std::string::npos) << message;
  // Debian 12 (the recorded machine): its own package, whose 535 driver the chosen wheel runs; the command kept.
  EXPECT_NE(fix.find("sudo apt install nvidia-driver firmware-misc-nonfree"), std::string::npos) << fix;
  EXPECT_NE(fix.find("535.247.01"), std::string::npos) << fix;
  EXPECT_NE(fix.find("发行版"), std::string::npos) << fix;  // the driver phrase from the context, translated too

  const auto en = run_gpuscout({"doctor", "--no-python", "--json"}, env);
  const auto en_doc = en.json();
  const auto* g = e2e::finding(en_doc, "nouveau-driver");
  ASSERT_NE(g, nullptr) << en.out;
  EXPECT_EQ(std::string((*g)["message"]).rfind("The open-source nouveau driver", 0), 0u);
}

TEST(ZhFindings, LocaleChoosesChineseForTheText) {
  const auto env = merge({kNoLocale, e2e::sysroot_env("desktop-amd"), {{"LANG", "zh_CN.UTF-8"}}});
  const auto r = run_gpuscout({"doctor", "--no-python"}, env);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("不是 NVIDIA 显卡"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("is not an NVIDIA GPU"), std::string::npos) << r.out;
}

TEST(ZhFindings, FitErrorsAndNotes) {
  const std::vector<std::string> bad = {"fit", "--params", "7B", "--vram", "8G", "--mode", "qlora", "--dtype", "fp16"};
  auto zh_args = bad;
  zh_args.insert(zh_args.begin(), {"--lang", "zh"});
  const auto zh = run_gpuscout(zh_args, kNoLocale);
  EXPECT_EQ(zh.exit_code, 2);
  EXPECT_NE(zh.err.find("量化的基础模型"), std::string::npos) << zh.err;
  EXPECT_NE(zh.err.find("--mode lora"), std::string::npos) << zh.err;
  const auto en = run_gpuscout(bad, kNoLocale);
  EXPECT_EQ(en.exit_code, 2);
  EXPECT_NE(en.err.find("QLoRA trains adapters"), std::string::npos) << en.err;

  const auto plan = run_gpuscout({"--lang", "zh", "fit", "--params", "7B", "--vram", "8G"}, kNoLocale);
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_NE(plan.out.find("4 位权重（GPTQ/AWQ）"), std::string::npos) << plan.out;  // an option's name
  EXPECT_NE(plan.out.find("KV 缓存按"), std::string::npos) << plan.out;             // a note
}

TEST(ZhFindings, OneEnglishWordTwoChineseSenses) {
  // "no" as a yes/no value is 否 (the report's debug-build row), never 不行 ("does not fit"); both come from one
  // msgid in English, told apart by msgctxt.
  const auto env = merge({kNoLocale, e2e::sysroot_env("desktop-amd")});
  auto doc = run_gpuscout({"info", "--no-python", "--json"}, env).json();
  doc["torch"] = {{"version", "2.7.1+cpu"}, {"cuda", nullptr}, {"cuda_available", false}, {"device_count", 0},
                  {"debug", false}};
  const auto path = e2e::write_temp_file("debug-false.json", doc.dump());
  const auto zh = run_gpuscout({"--lang", "zh", "report", "--markdown", "--from", path}, env);
  ASSERT_EQ(zh.exit_code, 0) << zh.err;
  EXPECT_TRUE(e2e::contains(zh.out, "| PyTorch 调试版 | 否 |")) << zh.out;
  EXPECT_FALSE(e2e::contains(zh.out, "不行")) << zh.out;
  const auto en = run_gpuscout({"report", "--markdown", "--from", path}, env);
  EXPECT_TRUE(e2e::contains(en.out, "| PyTorch debug build | no |")) << en.out;
}

}  // namespace
