// The OS seam: child processes with deadlines, forked calls, atomic writes, the sysroot.
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "os/library.hpp"
#include "os/process.hpp"
#include "os/system.hpp"

using namespace gpuscout;
using namespace std::chrono_literals;

TEST(Process, RunsAnArgumentVectorWithoutAShell) {
  auto r = os::run({"echo", "a;b", "$HOME"}, 5s);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->exit_code, 0);
  EXPECT_EQ(r->out, "a;b $HOME\n");  // no shell: nothing expanded or split
}

TEST(Process, DeadlineKillsAHungChild) {
  const auto start = std::chrono::steady_clock::now();
  auto r = os::run({"sleep", "30"}, 300ms);
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->timed_out);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

TEST(Process, MissingProgramIsAnError) {
  auto r = os::run({"/nonexistent/program"}, 1s);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("/nonexistent/program"), std::string::npos);
}

TEST(Process, ForkCallReturnsTheResultAndSurvivesAHang) {
  auto ok = os::fork_call([] { return std::string("hello from the child"); }, 5s);
  ASSERT_TRUE(ok.has_value());
  auto r = ok->wait();
  EXPECT_EQ(r.out, "hello from the child");
  EXPECT_EQ(r.exit_code, 0);
  auto hung = os::fork_call([] {
    ::sleep(30);
    return std::string("never");
  }, 300ms);
  ASSERT_TRUE(hung.has_value());
  auto h = hung->wait();
  EXPECT_TRUE(h.timed_out);
  EXPECT_TRUE(h.out.empty());
}

TEST(Files, AtomicWriteLeavesNothingPartial) {
  const auto dir = std::filesystem::temp_directory_path() / ("gpuscout-os-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "out.json").string();
  ASSERT_TRUE(os::write_file_atomic(path, "{}").has_value());
  std::ifstream in(path);
  std::string content((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(content, "{}");
  auto bad = os::write_file_atomic((dir / "missing-dir" / "x.json").string(), "{}");
  EXPECT_FALSE(bad.has_value());
  size_t files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 1u) << "no temporary left behind";
  std::filesystem::remove_all(dir);
}

TEST(Sysroot, ReadsUnderThePrefixAndAnswersEnvironmentFromTheRecord) {
  os::set_sysroot(std::string(GPUSCOUT_SYSROOTS_DIR) + "/colab-t4");
  EXPECT_TRUE(os::read_file("/proc/cpuinfo").has_value());
  EXPECT_TRUE(os::getenv("COLAB_GPU").has_value());
  auto space = os::filesystem_space("/");
  ASSERT_TRUE(space.has_value());
  EXPECT_GT(space->total_bytes, 0u);
  EXPECT_FALSE(os::read_file("/etc/definitely-not-here").has_value());
  os::set_sysroot("");
  EXPECT_FALSE(os::getenv("COLAB_GPU").has_value());
}

TEST(Library, MissingLibraryAndSymbol) {
  auto missing = os::SharedLibrary::open("libgpuscout-does-not-exist.so.1");
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message.find("libgpuscout-does-not-exist.so.1"), std::string::npos);
  auto libc = os::SharedLibrary::open("libc.so.6");
  ASSERT_TRUE(libc.has_value());
  EXPECT_NE(libc->raw_symbol("getpid"), nullptr);
  EXPECT_EQ(libc->raw_symbol("nvmlInit_v2"), nullptr);
}
