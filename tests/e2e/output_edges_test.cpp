// The edges of what gpuscout writes and prints: a long file name, a file the user made read-only, names with control
// characters in them.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "e2e_support.hpp"

namespace {

const std::string kInventory = std::string(GPUSCOUT_SOURCE_DIR) + "/tests/fakes/inventories/win-laptop-4060.json";

// 240 bytes of name: "NAME.tmp-gpuscout-<16 hex>" would pass the 255-byte limit of one name.
TEST(OutputEdges, LongFileNameIsWritten) {
  const std::string path = e2e::temp_dir() + "/" + std::string(235, 'r') + ".html";
  const auto r = e2e::run_gpuscout({"report", "--from", kInventory, "--html", path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(e2e::read_file(path).find("<html"), std::string::npos);
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(path).parent_path()))
    EXPECT_EQ(entry.path().string(), path) << "a temporary was left behind";
}

TEST(OutputEdges, ReadOnlyFileIsKeptUnlessForced) {
  const std::string path = e2e::temp_dir() + "/kept.html";
  std::ofstream(path) << "the user's own page\n";
  ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
  const auto refused = e2e::run_gpuscout({"report", "--from", kInventory, "--html", path});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("kept.html: the file is read-only"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("--force"), std::string::npos) << refused.err;
  EXPECT_EQ(e2e::read_file(path), "the user's own page\n");
  const auto forced = e2e::run_gpuscout({"report", "--from", kInventory, "--html", path, "--force"});
  ASSERT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_NE(e2e::read_file(path).find("<html"), std::string::npos);
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0444u) << "the file keeps the permissions the user gave it";
}

// A fleet folder whose file names hold an escape sequence and a newline: the terminal shows them, never obeys them.
TEST(OutputEdges, FleetShowsControlCharactersInNames) {
  const std::string dir = e2e::temp_dir() + "/fleet";
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(kInventory, dir + "/red\x1b[31mnode.json");
  std::ofstream(dir + "/broken\nline.json") << "{ not json";
  const auto r = e2e::run_gpuscout({"fleet", dir});
  const std::string all = r.out + r.err;
  EXPECT_EQ(all.find('\x1b'), std::string::npos) << all;
  EXPECT_NE(all.find("broken\\nline"), std::string::npos) << all;
}

TEST(OutputEdges, EnvironmentIsCheckedLikeItsFlag) {
  for (const char* value : {"abc", "0", "-5", "1e999", "nan"}) {
    const auto r = e2e::run_gpuscout({"info", "--no-python"}, {{"GPUSCOUT_PYTHON_TIMEOUT", value}});
    EXPECT_EQ(r.exit_code, 2) << value;
    EXPECT_NE(r.err.find("GPUSCOUT_PYTHON_TIMEOUT"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(std::string("'") + value + "' is not a number from"), std::string::npos) << r.err;
  }
  const std::string file = e2e::write_temp_file("plain-file", "not a machine");
  for (const std::string& root : {std::string("/nonexistent/machine"), file}) {
    const auto r = e2e::run_gpuscout({"doctor"}, {{"GPUSCOUT_SYSROOT", root}});
    EXPECT_EQ(r.exit_code, 2) << root;
    EXPECT_NE(r.err.find("GPUSCOUT_SYSROOT=" + root + ": "), std::string::npos) << r.err;
  }
}

}  // namespace
