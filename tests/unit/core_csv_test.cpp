// CSV positions and the typed cell reader: every problem names file, line and column.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "core/csv.hpp"

using namespace gpuscout;

namespace {

csv::Table table(std::string_view text) {
  auto t = csv::parse(text, "t.csv");
  EXPECT_TRUE(t.has_value()) << (t ? "" : t.error().message);
  return std::move(*t);
}

/// The error of reading `column` of the first row with `read`.
template <typename Read>
std::string error_of(std::string_view text, Read read) {
  const auto t = table(text);
  csv::CellReader cells(t, t.rows().front());
  read(cells);
  return cells.result() ? std::string("ok") : cells.result().error().message;
}

}  // namespace

TEST(CsvPositions, CellsKnowTheirLineAndColumn) {
  const auto t = table("a,b,c\n1,\"two\nlines\",3\nxx,é,z\n");
  ASSERT_EQ(t.rows().size(), 2u);
  EXPECT_EQ(t.where(t.rows()[0], "a"), "t.csv:2:1");
  EXPECT_EQ(t.where(t.rows()[0], "b"), "t.csv:2:3");
  EXPECT_EQ(t.where(t.rows()[0], "c"), "t.csv:3:8");  // after the quoted newline
  EXPECT_EQ(t.where(t.rows()[1], "c"), "t.csv:4:6");  // 'é' is one column, two bytes
  EXPECT_EQ(t.where(t.rows()[1], "nope"), "t.csv:4");
}

TEST(CsvPositions, StructuralErrorsNameLineAndColumn) {
  auto extra = csv::parse("a,b\n1,2,3\n", "p.csv");
  ASSERT_FALSE(extra);
  EXPECT_EQ(extra.error().message, "p.csv:2:5: 3 cells where the header has 2");
  auto empty = csv::parse("", "e.csv");
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().message, "e.csv:1:1: empty file (expected a header line)");
  auto nul = csv::parse(std::string("a,b\n1,\0\n", 8), "bin.csv");
  ASSERT_FALSE(nul);
  EXPECT_EQ(nul.error().message, "bin.csv:2:3: a NUL byte: this is not a text table (CSV)");
  auto missing = table("\n\nx,y\n1,2\n").require_columns({"x", "z"});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, "t.csv:3:1: missing column(s) z in the header line");
}

TEST(CsvPositions, InvalidUtf8BecomesReplacementCharacters) {
  const auto t = table("a\ncaf\xE9\n");
  EXPECT_EQ(t.cell(t.rows()[0], "a"), "caf\xEF\xBF\xBD");
}

TEST(CellReader, NumbersAreFiniteAndInRange) {
  for (const char* bad : {"x", "-1", "inf", "NaN", "nan", "1e999", "0", "10001", "1.5.2"}) {
    const std::string text = std::string("n,w\n") + bad + ",5\n";
    EXPECT_EQ(error_of(text, [](auto& c) { c.number("n", 0.5, 10000); }),
              fmt::format("t.csv:2:1: n '{}' is not a number from 0.5 to 10000", bad))
        << bad;
  }
  EXPECT_EQ(error_of("n\n2.5\n", [](auto& c) { EXPECT_EQ(c.number("n", 0.5, 10000), 2.5); }), "ok");
  EXPECT_EQ(error_of("n,m\n7,\n", [](auto& c) { EXPECT_FALSE(c.number("m", 0, 1).has_value()); }), "ok");
  EXPECT_EQ(error_of("n,m\n7,\n", [](auto& c) { c.number("m", 0, 1, csv::Need::required); }),
            "t.csv:2:3: m is empty; it must be filled in");
}

TEST(CellReader, WholeNumbers) {
  for (const char* bad : {"1.5", "-3", "+3", "18446744073709551616", "1e3", "0x10"})
    EXPECT_NE(error_of(std::string("w\n") + bad + "\n", [](auto& c) { c.whole("w", 1, 100); }), "ok") << bad;
  EXPECT_EQ(error_of("w\n101\n", [](auto& c) { c.whole("w", 1, 100); }),
            "t.csv:2:1: w '101' is not a whole number from 1 to 100");
  EXPECT_EQ(error_of("w\n 42 \n", [](auto& c) { EXPECT_EQ(c.whole("w", 1, 100), 42u); }), "ok");
}

TEST(CellReader, VersionsAreDottedNumbersOnly) {
  for (const char* bad : {"cu126", "-1", "x", "inf", "NaN", "12.8abc", "1..2", "12", "12.8.1", "abc"})
    EXPECT_EQ(error_of(std::string("torch,cuda\n2.7,") + bad + "\n",
                       [](auto& c) { c.version("cuda", 2, 2, "12.8"); }),
              fmt::format("t.csv:2:5: cuda '{}' is not a version like 12.8", bad))
        << bad;
  EXPECT_EQ(error_of("v\n580.95.05\n", [](auto& c) { EXPECT_EQ(c.version("v", 1, 3, "570.26")->str(), "580.95.05"); }),
            "ok");
}

TEST(CellReader, EnumerationsDatesAndFirstErrorWins) {
  EXPECT_EQ(error_of("k\nfre\n", [](auto& c) { c.one_of("k", {"free", "paid"}); }),
            "t.csv:2:1: k 'fre' is not one of free, paid");
  EXPECT_EQ(error_of("d\n2025-13-01\n", [](auto& c) { c.date("d"); }),
            "t.csv:2:1: d '2025-13-01' is not a date like 2025-04-23");
  EXPECT_EQ(error_of("d\n2025-04\n", [](auto& c) { c.date("d", true); }), "ok");
  EXPECT_EQ(error_of("a,b\nx,y\n",
                     [](auto& c) {
                       c.whole("a", 0, 1);
                       c.whole("b", 0, 1);
                     }),
            "t.csv:2:1: a 'x' is not a whole number from 0 to 1");
  const std::string long_cell(100, 'z');
  EXPECT_EQ(error_of("a\n" + long_cell + "\n", [](auto& c) { c.whole("a", 0, 1); }),
            "t.csv:2:1: a '" + std::string(40, 'z') + "...' is not a whole number from 0 to 1");
}
