// os::check_write_target: the checks bench --save makes before minutes of measuring.
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include <gtest/gtest.h>

#include "os/write_target.hpp"

using gpuscout::os::check_write_target;

namespace {
std::string message(const std::string& path) {
  auto r = check_write_target(path);
  return r ? "" : r.error().message;
}
}  // namespace

TEST(OsWriteTarget, AcceptsANewOrARegularFileInAWritableFolder) {
  const std::string dir = testing::TempDir();
  EXPECT_TRUE(check_write_target(dir + "/gpuscout-new.json"));
  const std::string existing = dir + "/gpuscout-existing.json";
  std::ofstream(existing) << "{}";
  EXPECT_TRUE(check_write_target(existing));
  ::unlink(existing.c_str());
}

TEST(OsWriteTarget, RefusesWhatAWriteWouldFailOnOrDestroy) {
  const std::string dir = testing::TempDir();
  EXPECT_NE(message("/nonexistent-gpuscout/dir/x.json").find("does not exist"), std::string::npos);
  EXPECT_NE(message(dir).find("is a folder"), std::string::npos);
  EXPECT_NE(message("/dev/null").find("not a regular file"), std::string::npos);
  const std::string fifo = dir + "/gpuscout-target-fifo-" + std::to_string(::getpid());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NE(message(fifo).find("not a regular file"), std::string::npos);
  ::unlink(fifo.c_str());
  const std::string file = dir + "/gpuscout-plain-" + std::to_string(::getpid());
  std::ofstream(file) << "x";
  EXPECT_NE(message(file + "/x.json").find("is not a folder"), std::string::npos) << message(file + "/x.json");
  ::unlink(file.c_str());
  EXPECT_FALSE(check_write_target(""));
  if (::geteuid() != 0) {  // root may write anywhere
    const std::string locked = dir + "/gpuscout-locked-" + std::to_string(::getpid());
    ASSERT_EQ(::mkdir(locked.c_str(), 0500), 0);
    EXPECT_NE(message(locked + "/x.json").find("cannot write"), std::string::npos);
    ::rmdir(locked.c_str());
  }
}

TEST(OsWriteTarget, ReadOnlyFileIsRefusedUnlessReplacingIsAsked) {
  const std::string path = testing::TempDir() + "/gpuscout-read-only-" + std::to_string(::getpid());
  std::ofstream(path) << "mine\n";
  ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
  EXPECT_NE(message(path).find("read-only"), std::string::npos);
  EXPECT_TRUE(check_write_target(path, /*replace_read_only=*/true));
  ::unlink(path.c_str());
}

TEST(OsTemporaryName, FitsTheLimitOfOneName) {
  using gpuscout::os::temporary_name;
  EXPECT_EQ(temporary_name("/d/out.html", 0xabc, 255), "/d/out.html.tmp-gpuscout-0000000000000abc");
  const std::string long_name = std::string(240, 'r');
  const std::string tmp = temporary_name("/d/" + long_name, 0xabc, 255);
  EXPECT_EQ(tmp, "/d/.gpuscout-0000000000000abc.tmp");
  EXPECT_EQ(temporary_name(long_name, 1, 255), ".gpuscout-0000000000000001.tmp");  // in the current folder
}
