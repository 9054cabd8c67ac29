// text::parse_cpu_list: the /sys and /proc CPU list format, bounded against hostile lists.
#include <chrono>
#include <string>

#include <gtest/gtest.h>

#include "core/text.hpp"

using namespace gpuscout;
using namespace std::chrono_literals;

TEST(CpuList, ReadsRangesAndSingles) {
  EXPECT_EQ(text::parse_cpu_list("0-3,8,10-11\n"), (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(text::parse_cpu_list("5"), (std::vector<int>{5}));
  EXPECT_EQ(text::parse_cpu_list(""), std::vector<int>{});
  EXPECT_EQ(text::parse_cpu_list("3,1,1-2"), (std::vector<int>{1, 2, 3}));  // sorted, distinct
}

TEST(CpuList, RejectsMalformedLists) {
  for (const char* bad : {"a", "1-", "-1", "3-1", "1,,2", "1-2-3", "0x3", " , "})
    EXPECT_FALSE(text::parse_cpu_list(bad).has_value()) << bad;
}

TEST(CpuList, TheLargestPlausibleListIsRead) {
  const auto all = text::parse_cpu_list("0-65535");
  ASSERT_TRUE(all.has_value());
  EXPECT_EQ(all->size(), 65536u);
  EXPECT_FALSE(text::parse_cpu_list("65536").has_value());
  EXPECT_FALSE(text::parse_cpu_list("0-4294967295").has_value());
  EXPECT_FALSE(text::parse_cpu_list("0-99999999999999999999").has_value());
}

TEST(CpuList, AHostile64KiBListIsRefusedQuickly) {
  // Each range alone is plausible; together they name 500 million CPUs (18 s and 2 GB before the bound).
  std::string repeated;
  while (repeated.size() < 64 * 1024) repeated += "0-65535,";
  repeated.pop_back();
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(text::parse_cpu_list(repeated).has_value());
  // A long list of distinct CPUs, as a huge machine writes it, still reads.
  std::string distinct;
  for (int c = 0; distinct.size() < 60 * 1024; c += 2) distinct += std::to_string(c) + ",";
  distinct.pop_back();
  const auto list = text::parse_cpu_list(distinct);
  ASSERT_TRUE(list.has_value());
  EXPECT_GT(list->size(), 5000u);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
}

TEST(CpuList, ReadsTheKernelsGroupedStride) {
  // Documentation/admin-guide/kernel-parameters.rst: "0-1023:2/256" is 0,1,256,257,512,513,768,769.
  EXPECT_EQ(text::parse_cpu_list("0-1023:2/256"), (std::vector<int>{0, 1, 256, 257, 512, 513, 768, 769}));
  EXPECT_EQ(text::parse_cpu_list("0-7:1/2,9"), (std::vector<int>{0, 2, 4, 6, 9}));
  EXPECT_EQ(text::parse_cpu_list("4-7:4/4"), (std::vector<int>{4, 5, 6, 7}));
  for (const char* bad : {"0-7:2", "0-7:0/2", "0-7:3/2", "0-7:1/0", "5:1/2", "0-7:/2", "0-7:1/", "0-7:a/b", "0-7:1/2/3"})
    EXPECT_FALSE(text::parse_cpu_list(bad).has_value()) << bad;
  // A stride does not lift the bound: the span counts, not the CPUs kept.
  std::string strided;
  while (strided.size() < 64 * 1024) strided += "0-65535:1/65536,";
  strided.pop_back();
  EXPECT_FALSE(text::parse_cpu_list(strided).has_value());
}

TEST(CpuList, FormatsInTheKernelsForm) {
  EXPECT_EQ(text::format_cpu_list({0, 1, 2, 3, 8, 10, 11}), "0-3,8,10-11");
  EXPECT_EQ(text::format_cpu_list({5}), "5");
  EXPECT_EQ(text::format_cpu_list({}), "");
  // What the kernel writes reads back to the same CPUs.
  for (const char* list : {"0-3,8,10-11", "0,2,4,6", "16-31,48-63", "0-65535"}) {
    const auto cpus = text::parse_cpu_list(list);
    ASSERT_TRUE(cpus.has_value()) << list;
    EXPECT_EQ(text::format_cpu_list(*cpus), list);
  }
}
