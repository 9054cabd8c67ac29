#include <gtest/gtest.h>

#include "catalog/catalog.hpp"
#include "core/csv.hpp"
#include "core/version.hpp"

using namespace gpuscout;

TEST(ArchList, CubinsRunOnSameMajorHigherMinorAndPtxForward) {
  const std::vector<std::string> cu121 = {"sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"};
  EXPECT_TRUE(catalog::arch_list_runs(cu121, std::nullopt, "8.9"));   // Ada runs the sm_86 cubin
  EXPECT_TRUE(catalog::arch_list_runs(cu121, std::nullopt, "6.1"));   // consumer Pascal runs sm_60
  EXPECT_FALSE(catalog::arch_list_runs(cu121, std::nullopt, "12.0")); // Blackwell needs sm_120 or PTX
  EXPECT_FALSE(catalog::arch_list_runs(cu121, std::nullopt, "3.7"));
  EXPECT_TRUE(catalog::arch_list_runs({"sm_80", "compute_90"}, std::nullopt, "12.0"));  // PTX JIT forward
  EXPECT_TRUE(catalog::arch_list_runs({"7.5", "8.0"}, std::string("8.0"), "12.0"));
  EXPECT_FALSE(catalog::arch_list_runs({"sm_90a"}, std::nullopt, "9.1"));
}

TEST(ArchList, Conversion) {
  EXPECT_EQ(catalog::arch_to_cc("sm_86"), "8.6");
  EXPECT_EQ(catalog::arch_to_cc("compute_120"), "12.0");
  EXPECT_EQ(catalog::arch_to_cc("sm_90a"), "9.0");
  EXPECT_FALSE(catalog::arch_to_cc("junk").has_value());
}

TEST(Tables, LoadWithoutErrorsAndAnswerKnownFacts) {
  EXPECT_TRUE(catalog::load_errors().empty());
  EXPECT_GE(catalog::gpus().size(), 60u);
  EXPECT_EQ(catalog::min_driver_for_cuda("12.8")->str(), "570.26");
  EXPECT_EQ(catalog::newest_cuda_for_driver(*Version::parse("535.104.05")), "12.2");
  EXPECT_EQ(catalog::find_compute_capability("8.9")->architecture, "Ada Lovelace");
  const auto* t4 = catalog::find_gpu(0x10de, 0x1eb8, "");
  ASSERT_NE(t4, nullptr);
  EXPECT_NE(t4->name.find("T4"), std::string::npos);
  ASSERT_NE(catalog::find_gpu_by_name("NVIDIA GeForce RTX 4090"), nullptr);
  EXPECT_FALSE(catalog::closest_gpu_names("RTX 409").empty());
}

TEST(Version, ComparesNumerically) {
  EXPECT_LT(*Version::parse("570.26"), *Version::parse("570.124.06"));
  EXPECT_EQ(Version::from_cuda_int(12040).major_minor(), "12.4");
  EXPECT_EQ(Version::parse("2.5.1+cu121")->suffix(), "+cu121");
  EXPECT_FALSE(Version::parse("abc").has_value());
}

TEST(Csv, QuotedCellsAndErrorsWithLineNumbers) {
  auto t = csv::parse("a,b\n1,\"x, \"\"y\"\"\"\n\n2,z\n", "test.csv");
  ASSERT_TRUE(t.has_value());
  ASSERT_EQ(t->rows().size(), 2u);
  EXPECT_EQ(t->cell(t->rows()[0], "b"), "x, \"y\"");
  auto bad = csv::parse("a,b\n1,2,3\n", "prices.csv");
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message.find("prices.csv:2"), std::string::npos);
  auto unclosed = csv::parse("a\n\"open\n", "x.csv");
  EXPECT_FALSE(unclosed.has_value());
  EXPECT_FALSE(csv::parse("", "empty.csv").has_value());
}
