// Issue 13 for a learner in China: budgets in yuan as they are typed, China's platforms first with CNY prices and
// their dates, --region, and the hosted notebook Baidu AI Studio recognised by its home folder.
#include <gtest/gtest.h>

#include "e2e_support.hpp"

namespace {

using e2e::contains;

/// The text before `part` (all of it when `part` is missing).
std::string before(const std::string& text, const std::string& part) { return text.substr(0, text.find(part)); }

const std::map<std::string, std::string> kEnglish = {{"LANGUAGE", "<unset>"}, {"LC_ALL", "C.UTF-8"}, {"LANG", "C.UTF-8"}};

}  // namespace

TEST(ChinaBudget, YuanAsTypedIsReadAndShownInYuan) {
  for (const char* budget : {"3000元", "￥3000", "3000RMB", "3000 CNY", "3000cny"}) {
    const auto run = e2e::run_gpuscout({"advise", "--no-probe", "--budget", budget}, kEnglish);
    ASSERT_EQ(run.exit_code, 0) << budget << ": " << run.err;
    EXPECT_TRUE(contains(run.out, "Budget: " + std::string(budget) + " = $")) << run.out;
    EXPECT_TRUE(contains(run.out, "exchange rate of 20")) << run.out;  // the rate's date beside the conversion
    EXPECT_FALSE(contains(run.out, "read as yuan")) << budget;      // only the half-width ¥ is ambiguous
  }
  const auto yen = e2e::run_gpuscout({"advise", "--no-probe", "--budget", "¥3000"}, kEnglish);
  ASSERT_EQ(yen.exit_code, 0) << yen.err;
  EXPECT_TRUE(contains(yen.out, "read as yuan (CNY)")) << yen.out;
}

TEST(ChinaBudget, ASmallBudgetSaysWhatItGets) {
  const auto run = e2e::run_gpuscout({"advise", "--no-probe", "--budget", "1500CNY", "--region", "cn"}, kEnglish);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(contains(run.out, "rents about")) << run.out;
  EXPECT_TRUE(contains(run.out, "Baidu AI Studio")) << run.out;
  EXPECT_TRUE(contains(run.out, "a used card")) << run.out;
  EXPECT_TRUE(contains(run.out, "¥")) << run.out;
}

TEST(ChinaBudget, ABadBudgetIsAUsageErrorNamingIt) {
  for (const char* bad : {"3000元USD", "abc元", "-5元", "3000XYZ"}) {
    const auto run = e2e::run_gpuscout({"advise", "--no-probe", "--budget", bad}, kEnglish);
    EXPECT_EQ(run.exit_code, 2) << bad;
    EXPECT_TRUE(contains(run.err, bad)) << run.err;
  }
}

TEST(ChinaBudget, ChineseAdviceIsInChinese) {
  const auto run = e2e::run_gpuscout({"--lang", "zh", "advise", "--no-probe", "--budget", "3000元"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(contains(run.out, "预算")) << run.out;
  EXPECT_TRUE(contains(run.out, "AutoDL")) << run.out;  // China's rentals first in Chinese
  const auto en = e2e::run_gpuscout({"--lang", "en", "advise", "--no-probe", "--budget", "3000元"});
  EXPECT_FALSE(contains(en.out, "预算")) << en.out;
}

TEST(ChinaPlatforms, ChineseListsChinaFirstWithYuanAndDates) {
  const auto run = e2e::run_gpuscout({"--lang", "zh", "platforms", "--no-probe"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string head = before(run.out, "Google Colab");
  EXPECT_TRUE(contains(head, "Baidu AI Studio")) << run.out;
  EXPECT_TRUE(contains(head, "AutoDL")) << run.out;
  EXPECT_TRUE(contains(head, "¥")) << run.out;
  EXPECT_TRUE(contains(head, "[2025-10-23]")) << run.out;
  EXPECT_TRUE(contains(run.out, "谷歌")) << run.out;  // Colab and Kaggle need Google access, said in Chinese
}

TEST(ChinaPlatforms, RegionOrdersTheList) {
  const auto global = e2e::run_gpuscout({"platforms", "--no-probe", "--region", "global"}, kEnglish);
  ASSERT_EQ(global.exit_code, 0) << global.err;
  EXPECT_FALSE(contains(before(global.out, "Google Colab"), "AutoDL")) << global.out;
  EXPECT_TRUE(contains(global.out, "cannot be reached from mainland China")) << global.out;
  const auto cn = e2e::run_gpuscout({"platforms", "--no-probe", "--region", "cn"}, kEnglish);
  ASSERT_EQ(cn.exit_code, 0) << cn.err;
  EXPECT_TRUE(contains(before(cn.out, "Google Colab"), "AutoDL")) << cn.out;
  const auto bad = e2e::run_gpuscout({"platforms", "--no-probe", "--region", "mars"}, kEnglish);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(contains(bad.err, "mars")) << bad.err;
}

TEST(ChinaPlatforms, AiStudioIsAHostedNotebook) {
  const auto run = e2e::run_gpuscout({"info", "--json", "--no-python"}, e2e::sysroot_env("aistudio-cpu"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto doc = run.json();
  EXPECT_EQ(doc["platform"]["kind"], "aistudio");
  EXPECT_EQ(doc["platform"]["notebook"], "aistudio");
  const auto here = e2e::run_gpuscout({"platforms"}, e2e::sysroot_env("aistudio-cpu"));
  EXPECT_TRUE(contains(here.out, "you are in Baidu AI Studio")) << here.out;
}
