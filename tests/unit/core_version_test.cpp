// Version::parse on hostile text: every input has a defined answer (a value or nullopt), never UB.
#include <gtest/gtest.h>

#include <string>

#include "core/version.hpp"

using namespace gpuscout;

namespace {

struct Case {
  std::string text;
  bool parses;
  std::string parts;   ///< the parts joined by '.', when it parses
  std::string suffix;  ///< what follows the numbers
};

std::string joined(const Version& v) {
  std::string out;
  for (size_t i = 0; i < v.parts().size(); ++i) out += (i ? "." : "") + std::to_string(v.parts()[i]);
  return out;
}

}  // namespace

TEST(VersionParse, HostileInputsHaveDefinedResults) {
  const Case cases[] = {
      {"12.8", true, "12.8", ""},
      {"580.95.05", true, "580.95.5", ""},
      {"  2.5.1+cu121 ", true, "2.5.1", "+cu121"},
      {"12.8abc", true, "12.8", "abc"},       // trailing junk is kept aside as the suffix
      {"1..2", true, "1", "..2"},             // a double dot ends the numbers
      {"1.", true, "1", "."},
      {"1000000000", true, "1000000000", ""},  // the largest part accepted
      {"", false, "", ""},
      {"   ", false, "", ""},
      {"cu126", false, "", ""},
      {"x", false, "", ""},
      {"-1", false, "", ""},                   // no negative parts
      {"+1.2", false, "", ""},
      {"inf", false, "", ""},
      {"NaN", false, "", ""},
      {".5", false, "", ""},
      {"1000000001", false, "", ""},           // a part past 10^9 is refused, not wrapped
      {"99999999999999999999999999.1", false, "", ""},
      {"1.99999999999999999999", false, "", ""},
      {std::string("1\0" "2", 3), true, "1", std::string("\0" "2", 2)},
  };
  for (const auto& c : cases) {
    const auto v = Version::parse(c.text);
    ASSERT_EQ(v.has_value(), c.parses) << "'" << c.text << "'";
    if (!v) continue;
    EXPECT_EQ(joined(*v), c.parts) << c.text;
    EXPECT_EQ(v->suffix(), c.suffix) << c.text;
  }
}

TEST(VersionParse, LongInputs) {
  std::string dotted = "1";
  while (dotted.size() < 500) dotted += ".1";
  const auto v = Version::parse(dotted);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->parts().size(), (dotted.size() + 1) / 2);
  EXPECT_TRUE(v->suffix().empty());
  EXPECT_EQ(v->str(), dotted);
  EXPECT_FALSE(Version::parse(std::string(500, '9')).has_value());
  EXPECT_FALSE(Version::parse(std::string(500, 'a')).has_value());
  const auto junk = Version::parse("7" + std::string(499, '.'));
  ASSERT_TRUE(junk.has_value());
  EXPECT_EQ(junk->major(), 7);
}

TEST(VersionParse, ComparesAndPrints) {
  EXPECT_EQ(*Version::parse("12.8"), *Version::parse("12.8.0"));
  EXPECT_LT(*Version::parse("9.9"), *Version::parse("10.0"));
  EXPECT_EQ(Version::parse("580.95.05")->str(), "580.95.05");  // as written, leading zero kept
  EXPECT_EQ(Version::parse("12.8.1")->major_minor(), "12.8");
  EXPECT_EQ(Version::parse("7")->minor(), 0);
  EXPECT_EQ(Version::from_cuda_int(13000).str(), "13.0");
  EXPECT_EQ(Version::from_cuda_int(0).str(), "0.0");
}
