// `gpuscout advise` and `gpuscout platforms` end to end: JSON contract, recorded machines, bad input (exit 2).
#include <fstream>

#include <algorithm>

#include <gtest/gtest.h>

#include "e2e_support.hpp"

namespace {

using e2e::write_temp_file;

std::string saved_inventory(const std::string& sysroot) {
  const auto r = e2e::run_gpuscout({"info", "--json", "--no-python"}, e2e::sysroot_env(sysroot));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return write_temp_file(sysroot + ".json", r.out);
}

}  // namespace

TEST(Advise, JsonContractOnThisMachineWithoutFlags) {
  const auto r = e2e::run_gpuscout({"advise", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["catalogue_date"].get<std::string>().size(), 10u);
  ASSERT_TRUE(j["recommendations"].is_array());
  ASSERT_FALSE(j["recommendations"].empty());
  for (const auto& rec : j["recommendations"]) {
    for (const char* k : {"name", "memory_total_bytes", "price_usd", "score", "reasons"})
      EXPECT_TRUE(rec.contains(k)) << k;
    EXPECT_GT(rec["price_usd"].get<double>(), 0);
  }
  ASSERT_TRUE(j["rent"].is_array());
  for (const auto& x : j["rent"])
    for (const char* k : {"platform", "gpu", "usd_per_hour"}) EXPECT_TRUE(x.contains(k)) << k;
  EXPECT_TRUE(j.contains("break_even_months"));
  EXPECT_TRUE(j["break_even_months"].is_null() || j["break_even_months"].is_number());
}

TEST(Advise, BudgetInYuanAndTextSaysWhichPrice) {
  const auto r = e2e::run_gpuscout({"advise", "--budget", "7000CNY", "--goal", "build", "--no-probe"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("no street price on file"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("exchange rates 2026-07-06"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Budget: 7000CNY = $"), std::string::npos) << r.out;
}

TEST(Advise, BudgetFiltersAndLlmGoalNeedsMemory) {
  const auto r = e2e::run_gpuscout({"advise", "--budget", "2000", "--goal", "llm", "--hours-per-week", "40",
                                    "--no-probe", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  for (const auto& rec : j["recommendations"]) {
    EXPECT_LE(rec["price_usd"].get<double>(), 2000.0);
    EXPECT_GE(rec["memory_total_bytes"].get<uint64_t>(), 24ULL << 30);
  }
}

TEST(Advise, ModelModeSetsTheMemoryNeed) {
  const auto r = e2e::run_gpuscout({"advise", "--model", "llama-3-8b", "--mode", "qlora", "--no-probe", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_NE(j["need_basis"].get<std::string>().find("fit estimator"), std::string::npos);
  EXPECT_GT(j["need_bytes"].get<uint64_t>(), 4ULL << 30);
}

TEST(Advise, PricesFileReplacesPrices) {
  const auto prices = write_temp_file("shop.csv", "name,price,currency\nRTX 3060,100,USD\n");
  const auto r = e2e::run_gpuscout({"advise", "--prices", prices, "--need-vram", "12G", "--no-probe", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  ASSERT_FALSE(j["recommendations"].empty());
  // The card the file prices carries that price (its rank follows from every card's data, not from this test).
  const auto& recs = j["recommendations"];
  const auto rtx3060 = std::find_if(recs.begin(), recs.end(), [](const auto& rec) { return rec["name"] == "GeForce RTX 3060 12GB"; });
  ASSERT_NE(rtx3060, recs.end()) << recs.dump(1);
  EXPECT_DOUBLE_EQ((*rtx3060)["price_usd"].get<double>(), 100.0);
  EXPECT_NE((*rtx3060)["reasons"].dump().find("--prices"), std::string::npos) << (*rtx3060).dump(1);
}

TEST(Advise, LaptopFromSavedInventory) {
  const auto inv = saved_inventory("laptop-intel-nvidia");
  const auto r = e2e::run_gpuscout({"advise", "--from", inv});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("cannot take a desktop GPU"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Kaggle"), std::string::npos) << r.out;
}

TEST(Advise, BadInputExitsTwo) {
  const std::vector<std::vector<std::string>> cases = {
      {"advise", "--budget=-100", "--no-probe"},
      {"advise", "--budget", "lots", "--no-probe"},
      {"advise", "--budget", "100XYZ", "--no-probe"},
      {"advise", "--goal", "gaming", "--no-probe"},
      {"advise", "--need-vram=-8G", "--no-probe"},
      {"advise", "--model", "no-such-model", "--no-probe"},
      {"advise", "--prices", "/nonexistent/prices.csv", "--no-probe"},
  };
  for (const auto& args : cases) {
    const auto r = e2e::run_gpuscout(args);
    EXPECT_EQ(r.exit_code, 2) << args[2] << " " << r.err;
    EXPECT_NE(r.err.find("error"), std::string::npos) << r.err;
  }
  const auto cur = e2e::run_gpuscout({"advise", "--budget", "100XYZ", "--no-probe"});
  EXPECT_NE(cur.err.find("unknown currency 'XYZ'"), std::string::npos) << cur.err;
}

TEST(Advise, MalformedPricesFileNamesLineAndColumn) {
  const auto prices = write_temp_file("bad.csv", "name,price\nRTX 4090,1500\nRTX 4090,cheap\n");
  const auto r = e2e::run_gpuscout({"advise", "--prices", prices, "--no-probe"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("bad.csv:3: column 2 (price)"), std::string::npos) << r.err;
  const auto unknown = write_temp_file("unknown.csv", "name,price\nRTX 4909,1500\n");
  const auto u = e2e::run_gpuscout({"advise", "--prices", unknown, "--no-probe"});
  EXPECT_EQ(u.exit_code, 2);
  EXPECT_NE(u.err.find("did you mean"), std::string::npos) << u.err;
}

TEST(Platforms, CheapestFirstWithSteps) {
  const auto r = e2e::run_gpuscout({"platforms", "--no-probe", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  ASSERT_FALSE(j["options"].empty());
  EXPECT_EQ(j["options"][0]["kind"], "free");
  // Within each region's block (this region first: --region, or the language), free first, then cheapest first.
  double last = -1;
  std::string kind, region;
  for (const auto& o : j["options"]) {
    if (o["region"] != region || o["kind"] != kind) last = -1;
    region = o["region"], kind = o["kind"];
    EXPECT_GE(o["usd_per_hour"].get<double>(), last);
    last = o["usd_per_hour"].get<double>();
  }
  const auto text = e2e::run_gpuscout({"platforms", "--no-probe"});
  EXPECT_NE(text.out.find("Runtime > Change runtime type"), std::string::npos) << text.out;
}

TEST(Platforms, FilterByGpuAndUnknownGpu) {
  const auto r = e2e::run_gpuscout({"platforms", "--gpu", "T4", "--no-probe", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  ASSERT_FALSE(j["options"].empty());
  for (const auto& o : j["options"]) EXPECT_EQ(o["gpu"], "Tesla T4");
  const auto bad = e2e::run_gpuscout({"platforms", "--gpu", "RTX 4909", "--no-probe"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("did you mean"), std::string::npos) << bad.err;
}

TEST(Platforms, SaysWhereYouAreInColab) {
  const auto r = e2e::run_gpuscout({"platforms"}, e2e::sysroot_env("colab-t4"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("you are in Google Colab"), std::string::npos) << r.out;
}

// A learner's course assumes CUDA: for `learn` the NVIDIA cards come first, whatever a Radeon's or Arc's value per
// dollar; `build` ranks by value alone.
TEST(Advise, LearnersGetCudaCardsFirst) {
  const auto learn =
      e2e::run_gpuscout({"advise", "--goal", "learn", "--budget", "600", "--top", "50", "--no-probe", "--json"});
  ASSERT_EQ(learn.exit_code, 0) << learn.err;
  const auto doc = learn.json();
  const auto& recs = doc["recommendations"];
  bool other_seen = false, reason_given = false;
  for (const auto& rec : recs) {
    const std::string name = rec["name"];
    const bool other = name.starts_with("Radeon") || name.starts_with("Arc") || name.starts_with("Instinct");
    EXPECT_FALSE(!other && other_seen) << "an NVIDIA card after a non-NVIDIA one: " << recs.dump(1);
    if (other && !other_seen)
      reason_given = rec["reasons"].dump().find("listed after the NVIDIA cards") != std::string::npos;
    other_seen = other_seen || other;
  }
  ASSERT_TRUE(other_seen) << "no Radeon or Arc card within $600 to order: " << recs.dump(1);
  EXPECT_TRUE(reason_given) << recs.dump(1);
  const auto build =
      e2e::run_gpuscout({"advise", "--goal", "build", "--budget", "600", "--top", "50", "--no-probe", "--json"});
  ASSERT_EQ(build.exit_code, 0) << build.err;
  EXPECT_EQ(build.json()["recommendations"].dump().find("listed after the NVIDIA cards"), std::string::npos);
}
