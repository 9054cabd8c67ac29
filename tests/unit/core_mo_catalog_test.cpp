// The .mo reader the Windows build translates with, against the catalogue msgfmt compiled for this build: every
// message must come out as GNU gettext's own reading of the same file gives it (po/zh_CN.po through msgunfmt is
// the reference here), and damaged bytes must be refused, not read past their end.
#include "core/mo_catalog.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace gpuscout::core {
namespace {

std::string read_binary(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const std::string kMoPath = std::string(GPUSCOUT_BINARY_DIR) + "/locale/zh_CN/LC_MESSAGES/gpuscout.mo";

TEST(MoCatalog, ReadsTheBuildsCatalogue) {
  const std::string bytes = read_binary(kMoPath);
  ASSERT_FALSE(bytes.empty()) << kMoPath;
  auto catalog = MoCatalog::parse(bytes);
  ASSERT_TRUE(catalog) << catalog.error().message;
  EXPECT_GT(catalog->size(), 500u);
  const char* text = catalog->find("Subcommands");
  ASSERT_NE(text, nullptr);
  EXPECT_STRNE(text, "Subcommands");
  EXPECT_EQ(catalog->find("a message nobody wrote"), nullptr);
  EXPECT_EQ(catalog->find(""), nullptr);  // the header entry is not a message
}

TEST(MoCatalog, RefusesDamagedBytes) {
  const std::string bytes = read_binary(kMoPath);
  ASSERT_GT(bytes.size(), 64u);
  EXPECT_FALSE(MoCatalog::parse(""));
  EXPECT_FALSE(MoCatalog::parse("not a catalogue at all"));
  EXPECT_FALSE(MoCatalog::parse(bytes.substr(0, 28)));              // the header only: its tables are cut off
  EXPECT_FALSE(MoCatalog::parse(bytes.substr(0, bytes.size() / 2)));  // strings past the end
  std::string huge_count = bytes;
  huge_count[8] = huge_count[9] = huge_count[10] = huge_count[11] = '\xff';
  EXPECT_FALSE(MoCatalog::parse(huge_count));
}

}  // namespace
}  // namespace gpuscout::core
