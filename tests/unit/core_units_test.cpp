#include <gtest/gtest.h>

#include "core/units.hpp"

using namespace gpuscout;

TEST(Units, ParsesBinaryAndDecimalSizes) {
  EXPECT_EQ(units::parse_bytes("24G").value(), 24 * units::GiB);
  EXPECT_EQ(units::parse_bytes("24GiB").value(), 24 * units::GiB);
  EXPECT_EQ(units::parse_bytes("24 GB").value(), 24000000000ULL);
  EXPECT_EQ(units::parse_bytes("512M").value(), 512 * units::MiB);
  EXPECT_EQ(units::parse_bytes("1.5T").value(), 3 * units::TiB / 2);
  EXPECT_EQ(units::parse_bytes("4096").value(), 4096ULL);
}

TEST(Units, RejectsBadSizes) {
  for (const char* bad : {"24X", "", "G", "0", "-8G", "abc", "1e30G", "nan", "24 G B"}) {
    auto r = units::parse_bytes(bad);
    EXPECT_FALSE(r.has_value()) << bad;
    if (!r) {
      EXPECT_NE(r.error().message.find('\''), std::string::npos) << "message names the input: " << bad;
    }
  }
}

TEST(Units, ParsesCounts) {
  EXPECT_EQ(units::parse_count("7B").value(), 7000000000ULL);
  EXPECT_EQ(units::parse_count("0.5B").value(), 500000000ULL);
  EXPECT_EQ(units::parse_count("770M").value(), 770000000ULL);
  EXPECT_EQ(units::parse_count("6738415616").value(), 6738415616ULL);
  EXPECT_FALSE(units::parse_count("7Q").has_value());
  EXPECT_FALSE(units::parse_count("-7B").has_value());
}

TEST(Units, FormatsForPeople) {
  EXPECT_EQ(units::format_bytes(24 * units::GiB), "24.0 GiB");
  EXPECT_EQ(units::format_bytes(812), "812 B");
  EXPECT_EQ(units::format_count(7615616512ULL), "7.6B");
  EXPECT_EQ(units::format_rate(213.4e9, "FLOP/s"), "213 GFLOP/s");
}

// Money in any locale: what each separator means is decided by the digits around it, and a form that could be read
// two ways is refused rather than guessed ("1500,00EUR" was once read as 150000 EUR).
TEST(Units, ParsesAmountsInEveryUnambiguousForm) {
  const std::pair<const char*, double> cases[] = {
      {"1500", 1500},          {"1500.5", 1500.5},      {"0.150", 0.15},         {"1,500", 1500},
      {"12,345.50", 12345.5},  {"1,234,567", 1234567},  {"1500,00", 1500},       {"1500,50", 1500.5},
      {"1.500,00", 1500},      {"1.234.567,89", 1234567.89}, {"1.500.000", 1500000}, {" 900 ", 900},
      {"-5", -5},              {"+7", 7},               {"0,99", 0.99},
  };
  for (const auto& [text, value] : cases) {
    const auto r = units::parse_amount(text);
    ASSERT_TRUE(r.has_value()) << text << ": " << r.error().message;
    EXPECT_DOUBLE_EQ(*r, value) << text;
  }
}

TEST(Units, RefusesAmountsThatCouldBeReadTwoWaysOrNotAtAll) {
  for (const char* bad : {"1,5", "1,5000", "1,50,000", "15,00,00", "1.500", "2.250", "1,500,00.5", "1.50.0",
                          "1.5.00,00", "12,34.5", ",50", "1,", "1.", ".5", "", "abc", "nan", "inf", "1e3",
                          "1_500", "1 500", "--5", "0x10", "1500,00,00"}) {
    const auto r = units::parse_amount(bad);
    EXPECT_FALSE(r.has_value()) << bad << " read as " << r.value_or(0);
    if (!r) EXPECT_NE(r.error().message.find(std::string("'") + bad + "'"), std::string::npos) << r.error().message;
  }
  const auto ambiguous = units::parse_amount("1.500");
  ASSERT_FALSE(ambiguous);
  EXPECT_NE(ambiguous.error().message.find("1500 or 1.5"), std::string::npos) << ambiguous.error().message;
  const auto huge = units::parse_amount(std::string(400, '9'));
  EXPECT_FALSE(huge.has_value());
}
