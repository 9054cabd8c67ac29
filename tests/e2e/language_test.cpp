// The output's language and the first screen: `--lang zh` (and the locale) turns doctor, info, fit, report and
// --help into Chinese while --lang en and no language stay English; plain `gpuscout` opens with the verdict and the
// next step, leaves the libraries' raw errors and the CPU's detail to `info`, and wraps long fixes.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/text.hpp"
#include "e2e_support.hpp"

namespace {

using e2e::merge;

using e2e::contains;

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  for (auto line : gpuscout::text::split(text, '\n')) out.emplace_back(line);
  return out;
}

// A machine without a GPU whose driver libraries are missing: the no-GPU fix is long, the dlopen errors are raw.
std::map<std::string, std::string> no_gpu() { return e2e::sysroot_env("no-gpu-vm"); }

TEST(FirstScreen, DoctorOpensWithTheVerdictAndTheNextStep) {
  const auto run = e2e::run_gpuscout({"--lang", "en", "--no-python"}, no_gpu());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto all = lines(run.out);
  ASSERT_FALSE(all.empty());
  // Three lines at most before any detail: plain words first (no code names), then the one command to copy.
  EXPECT_EQ(all.front().rfind("No: this machine has no GPU PyTorch can use", 0), 0u) << run.out;
  ASSERT_GT(all.size(), 3u);
  EXPECT_EQ(all[1], "  gpuscout platforms") << run.out;
  EXPECT_EQ(all[2], "") << run.out;
  EXPECT_EQ(all[3].rfind("Verdict: cpu-only", 0), 0u) << run.out;
  EXPECT_TRUE(contains(all.size() > 4 ? all[4] : "", "[")) << "a finding follows the verdict:\n" << run.out;
  EXPECT_LT(run.out.find("fix:"), run.out.find("CPU\n")) << "the fix comes before the inventory:\n" << run.out;
}

TEST(FirstScreen, RawLibraryErrorsAndCpuDetailAreLeftToInfo) {
  const auto doctor = e2e::run_gpuscout({"doctor", "--no-python"}, no_gpu());
  const auto info = e2e::run_gpuscout({"info", "--no-python"}, no_gpu());
  ASSERT_EQ(doctor.exit_code, 0) << doctor.err;
  ASSERT_EQ(info.exit_code, 0) << info.err;
  // The harness points the driver libraries at /nonexistent: dlopen's own words name that path.
  EXPECT_TRUE(contains(info.out, "/nonexistent/")) << info.out;
  EXPECT_FALSE(contains(doctor.out, "/nonexistent/")) << doctor.out;
  EXPECT_TRUE(contains(info.out, "SIMD")) << info.out;
  EXPECT_FALSE(contains(doctor.out, "SIMD")) << doctor.out;
  EXPECT_TRUE(contains(doctor.out, "gpuscout info")) << "doctor says where the detail is:\n" << doctor.out;
}

TEST(FirstScreen, LongFixesWrapToOneHundredColumns) {
  for (const char* lang : {"en", "zh"}) {
    const auto run = e2e::run_gpuscout({"--lang", lang, "doctor", "--no-python"}, no_gpu());
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const size_t start = run.out.find("\n\n") + 2;  // after the first screen
    const std::string verdict = run.out.substr(start, run.out.find("\n\n", start) - start);
    size_t fix_lines = 0;
    for (const auto& line : lines(verdict)) {
      if (contains(line, "pip install")) continue;  // the install command stays one line, to copy whole
      EXPECT_LE(gpuscout::text::display_width(line), 100u) << lang << ": " << line;
      fix_lines += line.rfind("        ", 0) == 0 ? 1 : 0;
    }
    EXPECT_GT(fix_lines, 0u) << lang << ": the long no-GPU fix continues on indented lines:\n" << verdict;
  }
}

TEST(Language, DoctorInfoAndFitSpeakChinese) {
  const auto doctor = e2e::run_gpuscout({"--lang", "zh", "--no-python"}, no_gpu());
  ASSERT_EQ(doctor.exit_code, 0) << doctor.err;
  EXPECT_TRUE(contains(doctor.out, "结论：")) << doctor.out;
  EXPECT_TRUE(contains(doctor.out, "解决：")) << doctor.out;
  EXPECT_FALSE(contains(doctor.out, "Verdict:")) << doctor.out;
  const auto info = e2e::run_gpuscout({"--lang", "zh", "info", "--no-python"}, no_gpu());
  EXPECT_TRUE(contains(info.out, "内存")) << info.out;
  const auto fit = e2e::run_gpuscout({"--lang", "zh", "fit", "--model", "llama-3.1-8b", "--vram", "24G"});
  ASSERT_EQ(fit.exit_code, 0) << fit.err;
  EXPECT_TRUE(contains(fit.out, "权重")) << fit.out;
  EXPECT_TRUE(contains(fit.out, "装得下")) << fit.out;
}

TEST(Language, TheLocaleChoosesChineseAndEnglishStaysEnglish) {
  const auto by_locale = e2e::run_gpuscout({"fit", "--vram", "24G"}, {{"LANG", "zh_CN.UTF-8"}, {"LANGUAGE", "<unset>"},
                                                                       {"LC_ALL", "<unset>"}, {"LC_MESSAGES", "<unset>"}});
  ASSERT_EQ(by_locale.exit_code, 0) << by_locale.err;
  EXPECT_TRUE(contains(by_locale.out, "能装下的最大模型")) << by_locale.out;
  const auto english = e2e::run_gpuscout({"--lang", "en", "fit", "--vram", "24G"}, {{"LANG", "zh_CN.UTF-8"}});
  EXPECT_TRUE(contains(english.out, "Largest model that fits")) << english.out;
  const auto plain = e2e::run_gpuscout({"fit", "--vram", "24G"}, {{"LANG", "C.UTF-8"}, {"LANGUAGE", "<unset>"},
                                                                  {"LC_ALL", "<unset>"}, {"LC_MESSAGES", "<unset>"}});
  EXPECT_TRUE(contains(plain.out, "Largest model that fits")) << plain.out;
}

TEST(Language, HelpAndErrorsSpeakChinese) {
  const auto help = e2e::run_gpuscout({"--lang", "zh", "fit", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_TRUE(contains(help.out, "用法")) << help.out;
  EXPECT_TRUE(contains(help.out, "显示本帮助并退出")) << help.out;
  EXPECT_TRUE(contains(help.out, "模型能不能装进我的 GPU")) << help.out;
  const auto bad = e2e::run_gpuscout({"--lang", "zh", "fit", "--vram", "16"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(contains(bad.err, "gpuscout：错误：--vram '16' 没有单位")) << bad.err;
  const auto english = e2e::run_gpuscout({"--lang", "en", "fit", "--vram", "16"});
  EXPECT_TRUE(contains(english.err, "gpuscout: error: --vram '16' has no unit")) << english.err;
}

TEST(Language, TheMarkdownBlockFollowsTheLanguage) {
  const auto zh = e2e::run_gpuscout({"--lang", "zh", "report", "--no-python"}, no_gpu());
  ASSERT_EQ(zh.exit_code, 0) << zh.err;
  EXPECT_TRUE(contains(zh.out, "**结论：仅 CPU**")) << zh.out;
  EXPECT_TRUE(contains(zh.out, "| 组件 | 版本 |")) << zh.out;
}

}  // namespace
