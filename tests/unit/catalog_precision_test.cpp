// Which formats a card runs natively (data/precision.csv through catalog::precision_for).
#include <gtest/gtest.h>

#include "catalog/catalog.hpp"
#include "catalog/precision.hpp"

using namespace gpuscout;
using catalog::Support;

namespace {
catalog::Precision nvidia(const char* cc) {
  const auto p = catalog::precision_for({.vendor = "nvidia", .compute_capability = cc});
  EXPECT_TRUE(p.has_value()) << cc;
  return p.value_or(catalog::Precision{});
}
catalog::Precision by_arch(const char* vendor, const char* arch) {
  const auto p = catalog::precision_for({.vendor = vendor, .architecture = arch});
  EXPECT_TRUE(p.has_value()) << arch;
  return p.value_or(catalog::Precision{});
}
}  // namespace

TEST(Precision, Bf16AndTf32StartWithAmpere) {
  for (const char* cc : {"6.0", "6.1", "7.0", "7.5"}) {
    EXPECT_EQ(nvidia(cc).bf16, Support::no) << cc;
    EXPECT_EQ(nvidia(cc).tf32, Support::no) << cc;
  }
  for (const char* cc : {"8.0", "8.6", "8.9", "9.0", "10.0", "12.0"}) {
    EXPECT_EQ(nvidia(cc).bf16, Support::yes) << cc;
    EXPECT_EQ(nvidia(cc).tf32, Support::yes) << cc;
  }
}

TEST(Precision, Fp8FromAdaAndHopperFp4FromBlackwell) {
  EXPECT_EQ(nvidia("8.6").fp8, Support::no);
  EXPECT_EQ(nvidia("8.9").fp8, Support::yes);
  EXPECT_EQ(nvidia("9.0").fp8, Support::yes);
  EXPECT_EQ(nvidia("9.0").fp4, Support::no);
  EXPECT_EQ(nvidia("10.0").fp4, Support::yes);
  EXPECT_EQ(nvidia("12.0").fp4, Support::yes);
}

TEST(Precision, Fp16IsSlowOnPascalGeForceButNotOnP100) {
  EXPECT_EQ(nvidia("6.1").fp16, Support::slow);
  EXPECT_EQ(nvidia("6.0").fp16, Support::yes);
  EXPECT_EQ(nvidia("3.7").fp16, Support::slow);
  EXPECT_EQ(nvidia("7.0").fp16, Support::yes);
  EXPECT_EQ(nvidia("7.5").basis, "sm_75, Turing");
}

TEST(Precision, AmdAndIntelByArchitecture) {
  EXPECT_EQ(by_arch("amd", "CDNA 3").fp8, Support::yes);
  EXPECT_EQ(by_arch("amd", "cdna 2").fp8, Support::no);  // letter case does not matter
  EXPECT_EQ(by_arch("amd", "RDNA 3").bf16, Support::yes);
  EXPECT_EQ(by_arch("amd", "RDNA 3").fp8, Support::no);
  EXPECT_EQ(by_arch("intel", "Xe2-HPG (Battlemage)").bf16, Support::yes);
  EXPECT_EQ(by_arch("amd", "RDNA 2").bf16, Support::unknown);  // not sourced: unknown, never a guess
}

TEST(Precision, UnknownDevicesHaveNoRow) {
  EXPECT_FALSE(catalog::precision_for({.vendor = "nvidia", .compute_capability = "99.0"}));
  EXPECT_FALSE(catalog::precision_for({.vendor = "nvidia", .architecture = "Turing"}));  // NVIDIA needs the capability
  EXPECT_FALSE(catalog::precision_for({.vendor = "matrox", .architecture = "G200"}));
  EXPECT_TRUE(catalog::precision_load_error().empty()) << catalog::precision_load_error();
}

TEST(Precision, EveryCapabilityAndEveryCatalogueCardHasARow) {
  for (const auto& cc : catalog::compute_capabilities()) {
    const auto p = catalog::precision_for({.vendor = "nvidia", .compute_capability = cc.cc});
    ASSERT_TRUE(p.has_value()) << cc.cc;
    EXPECT_EQ(p->architecture, cc.architecture) << cc.cc;  // the two tables name the same architecture
  }
  for (const auto& g : catalog::gpus()) {
    const std::string cc = g.compute_capability.value_or("");
    EXPECT_TRUE(catalog::precision_for({.vendor = g.vendor, .compute_capability = cc, .architecture = g.architecture}))
        << g.name;
  }
}
