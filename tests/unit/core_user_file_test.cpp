// read_user_file: what the user names is read whole, or refused with a reason; never an endless read.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "core/user_file.hpp"

namespace gpuscout::core {
namespace {

std::string temp_file(const std::string& content) {
  std::string path = ::testing::TempDir() + "gpuscout-user-file-XXXXXX";
  const int fd = ::mkstemp(path.data());
  EXPECT_GE(fd, 0);
  if (fd >= 0) ::close(fd);  // Windows refuses a second open of a file mkstemp still holds
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

TEST(UserFile, ReadsARegularFileWhole) {
  const std::string content = std::string("{\"a\": 1}\n") + std::string(100000, 'x');
  const auto path = temp_file(content);
  auto r = read_user_file(path);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, content);
  std::remove(path.c_str());
}

TEST(UserFile, RefusesWhatIsNotARegularFile) {
  auto missing = read_user_file("/nonexistent/bench.json");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, "/nonexistent/bench.json: no such file");
  auto folder = read_user_file("/tmp");
  ASSERT_FALSE(folder);
  EXPECT_NE(folder.error().message.find("is a folder"), std::string::npos);
  auto device = read_user_file("/dev/zero");  // would never end
  ASSERT_FALSE(device);
  EXPECT_NE(device.error().message.find("not a regular file"), std::string::npos);
}

TEST(UserFile, RefusesAFileAboveTheLimit) {
  const auto path = temp_file(std::string(3 << 20, 'x'));
  auto r = read_user_file(path, 2 << 20);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("larger than 2 MiB"), std::string::npos);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace gpuscout::core
