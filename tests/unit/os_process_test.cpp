// Child processes: the whole process group dies with the probe, and a forked call's chatter is captured.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "core/text.hpp"
#include "os/process.hpp"

using namespace gpuscout;
using namespace std::chrono_literals;

namespace {

// Running, as opposed to gone or a zombie waiting for init to reap it (which may never happen in a container).
bool running(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!stat || !std::getline(stat, line)) return false;
  const auto close = line.rfind(')');
  if (close == std::string::npos || close + 2 >= line.size()) return false;
  return line[close + 2] != 'Z' && line[close + 2] != 'X';
}

// SIGKILL is delivered asynchronously; give the kernel a moment.
bool gone_soon(pid_t pid) {
  for (int i = 0; i < 200 && running(pid); ++i) std::this_thread::sleep_for(10ms);
  return !running(pid);
}

pid_t first_pid(const std::string& text) {
  const std::string first = text.substr(0, text.find('\n'));  // trim's view must not outlive it
  const auto line = text::trim(first);
  const auto pid = text::parse_int(line);
  return pid ? static_cast<pid_t>(*pid) : -1;
}

}  // namespace

TEST(ProcessGroup, DeadlineKillsTheGrandchildToo) {
  auto r = os::run({"sh", "-c", "sleep 100 & echo $!; sleep 100"}, 500ms);
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->timed_out);
  const pid_t grandchild = first_pid(r->out);
  ASSERT_GT(grandchild, 0) << r->out;
  EXPECT_TRUE(gone_soon(grandchild)) << "sleep " << grandchild << " outlived its probe";
}

TEST(ProcessGroup, ALeaderThatExitsDoesNotWaitForWhatItLeftRunning) {
  // The background sleep keeps stdout open; the answer must not wait for the deadline.
  const auto start = std::chrono::steady_clock::now();
  auto r = os::run({"sh", "-c", "sleep 100 & echo $!"}, 20s);
  ASSERT_TRUE(r.has_value());
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  EXPECT_FALSE(r->timed_out);
  EXPECT_EQ(r->exit_code, 0);
  const pid_t grandchild = first_pid(r->out);
  ASSERT_GT(grandchild, 0) << r->out;
  EXPECT_TRUE(gone_soon(grandchild));
}

TEST(ProcessGroup, DestroyingAnUnwaitedChildKillsItsGroup) {
  const auto file = std::filesystem::temp_directory_path() / ("gpuscout-pgid-" + std::to_string(::getpid()));
  std::filesystem::remove(file);
  pid_t grandchild = -1;
  {
    auto child = os::spawn({"sh", "-c", "sleep 100 & echo $! > " + file.string() + "; sleep 100"}, 30s);
    ASSERT_TRUE(child.has_value());
    for (int i = 0; i < 500 && grandchild <= 0; ++i) {
      std::this_thread::sleep_for(10ms);
      std::ifstream in(file);
      std::string text((std::istreambuf_iterator<char>(in)), {});
      if (text.ends_with('\n')) grandchild = first_pid(text);
    }
    ASSERT_GT(grandchild, 0);
    ASSERT_TRUE(running(grandchild));
  }
  std::filesystem::remove(file);
  EXPECT_TRUE(gone_soon(grandchild));
}

TEST(ProcessGroup, ForkCallTimeoutKillsWhatTheCallStarted) {
  auto child = os::fork_call([] {
    const pid_t g = ::fork();
    if (g == 0) {
      ::execlp("sleep", "sleep", "100", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    std::printf("%d\n", static_cast<int>(g));
    std::fflush(stdout);
    ::sleep(30);
    return std::string("never");
  }, 500ms);
  ASSERT_TRUE(child.has_value());
  const auto r = child->wait();
  EXPECT_TRUE(r.timed_out);
  const pid_t grandchild = first_pid(r.err);  // the call's stdout is the error pipe
  ASSERT_GT(grandchild, 0) << r.err;
  EXPECT_TRUE(gone_soon(grandchild));
}

TEST(ForkCall, WhatTheCallPrintsIsCapturedApartFromThePayload) {
  auto child = os::fork_call([] {
    std::printf("driver chatter on stdout\n");
    std::fprintf(stderr, "driver warning on stderr\n");
    (void)!::write(1, "raw fd 1\n", 9);
    return std::string(R"({"ok":true})");
  }, 5s);
  ASSERT_TRUE(child.has_value());
  const auto r = child->wait();
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, R"({"ok":true})");
  EXPECT_NE(r.err.find("driver chatter on stdout"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("driver warning on stderr"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("raw fd 1"), std::string::npos) << r.err;
}

TEST(ForkCall, AnExceptionIsExitThreeWithItsText) {
  auto child = os::fork_call([]() -> std::string { throw std::runtime_error("nvmlInit_v2 exploded"); }, 5s);
  ASSERT_TRUE(child.has_value());
  const auto r = child->wait();
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out, "exception: nvmlInit_v2 exploded");
}

TEST(ForkCall, ACrashReportsItsSignal) {
  auto child = os::fork_call([]() -> std::string {
    ::raise(SIGTERM);  // not SIGSEGV: AddressSanitizer would catch that and exit 1
    return "never";
  }, 5s);
  ASSERT_TRUE(child.has_value());
  const auto r = child->wait();
  EXPECT_EQ(r.signal, SIGTERM);
  EXPECT_FALSE(r.timed_out);
}
