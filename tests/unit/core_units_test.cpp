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
