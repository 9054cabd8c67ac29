#include "core/color.hpp"

#include <gtest/gtest.h>

using gpuscout::core::color_wanted;
using gpuscout::core::ColorChoice;
using gpuscout::core::parse_color_choice;

TEST(Color, ParsesTheThreeChoicesOnly) {
  EXPECT_EQ(parse_color_choice("auto"), ColorChoice::automatic);
  EXPECT_EQ(parse_color_choice("always"), ColorChoice::always);
  EXPECT_EQ(parse_color_choice("never"), ColorChoice::never);
  EXPECT_FALSE(parse_color_choice("yes"));
  EXPECT_FALSE(parse_color_choice(""));
  EXPECT_FALSE(parse_color_choice("Always"));
}

TEST(Color, AutoColoursOnlyATerminal) {
  EXPECT_TRUE(color_wanted(ColorChoice::automatic, true, nullptr, "xterm-256color"));
  EXPECT_FALSE(color_wanted(ColorChoice::automatic, false, nullptr, "xterm-256color"));
  EXPECT_TRUE(color_wanted(ColorChoice::automatic, true, nullptr, nullptr));
}

TEST(Color, AutoHonoursNoColorAndDumbTerminals) {
  EXPECT_FALSE(color_wanted(ColorChoice::automatic, true, "1", "xterm"));
  EXPECT_TRUE(color_wanted(ColorChoice::automatic, true, "", "xterm"));  // no-color.org: set and non-empty
  EXPECT_FALSE(color_wanted(ColorChoice::automatic, true, nullptr, "dumb"));
}

TEST(Color, AlwaysAndNeverAreTheUsersWord) {
  EXPECT_TRUE(color_wanted(ColorChoice::always, false, "1", "dumb"));
  EXPECT_FALSE(color_wanted(ColorChoice::never, true, nullptr, "xterm"));
}
