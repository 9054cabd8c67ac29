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
