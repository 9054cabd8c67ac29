// Nothing gpuscout starts outlives it (os/lifetime.hpp): a stop signal or a SIGKILL while the Python probe hangs,
// with a grandchild that left the probe's process group through setsid, leaves no process behind.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "e2e_support.hpp"
#include "os/process.hpp"

namespace {

using Clock = std::chrono::steady_clock;

// Alive: present in /proc and not a zombie (a zombie has ended; only its parent's wait is missing, and where the
// parent is gone, reaping falls to init).
bool alive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const auto close = line.rfind(')');
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
}

// Whether `pid` (our child) has ended, without reaping it: the test's own clean-up in wait() must not hide
// what gpuscout left.
bool ended(pid_t pid) {
  siginfo_t info{};
  return ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

template <typename Predicate>
bool within(std::chrono::milliseconds limit, Predicate done) {
  const auto end = Clock::now() + limit;
  while (!done()) {
    if (Clock::now() >= end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

struct Case {
  std::string command;
  int signal;
};

void PrintTo(const Case& c, std::ostream* out) { *out << c.command << " " << sigabbrev_np(c.signal); }

class StopSignal : public testing::TestWithParam<Case> {};

TEST_P(StopSignal, LeavesNoProcessBehind) {
  const auto& [command, signal] = GetParam();
  const std::string pids_file = e2e::temp_dir() + "/escaped";
  auto env = e2e::merge({e2e::sysroot_env("no-gpu-vm"), e2e::fake_torch_env("hang"),
                         {{"GPUSCOUT_FAKE_TORCH_ESCAPE", pids_file},
                          {"GPUSCOUT_PYTHON_TIMEOUT", "60"},
                          {"GPUSCOUT_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1"},
                          {"GPUSCOUT_CUDA_LIBRARY", "/nonexistent/libcuda.so.1"}}});
  auto child = gpuscout::os::spawn({"env", GPUSCOUT_BIN, command}, std::chrono::seconds(90), env);
  ASSERT_TRUE(child) << child.error().message;
  const pid_t gpuscout = child->pid();
  // The fake torch writes "PYTHON_PID ESCAPED_PID" once the escaped child runs; then the import hangs.
  ASSERT_TRUE(within(std::chrono::seconds(30), [&] { return !e2e::read_file(pids_file).empty(); }))
      << "the Python probe never started";
  std::istringstream pids(e2e::read_file(pids_file));
  pid_t python = 0, escaped = 0;
  pids >> python >> escaped;
  ASSERT_GT(python, 0);
  ASSERT_GT(escaped, 0);
  ASSERT_TRUE(alive(python) && alive(escaped));

  ASSERT_EQ(::kill(gpuscout, signal), 0);
  EXPECT_TRUE(within(std::chrono::seconds(5), [&] { return ended(gpuscout); })) << "gpuscout did not stop";
  EXPECT_TRUE(within(std::chrono::seconds(5), [&] { return !alive(python); })) << "the Python probe outlived gpuscout";
  EXPECT_TRUE(within(std::chrono::seconds(5), [&] { return !alive(escaped); }))
      << "the probe's setsid child outlived gpuscout";
  const auto r = child->wait();
  EXPECT_EQ(r.signal, signal) << "gpuscout should end by the signal it got: " << r.err;
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
  return info.param.command + "_" + std::string(sigabbrev_np(info.param.signal));
}

INSTANTIATE_TEST_SUITE_P(Lifetime, StopSignal,
                         testing::Values(Case{"doctor", SIGINT}, Case{"doctor", SIGTERM}, Case{"doctor", SIGHUP},
                                         Case{"doctor", SIGKILL}, Case{"info", SIGTERM}, Case{"info", SIGKILL},
                                         Case{"device", SIGINT}, Case{"device", SIGHUP}),
                         case_name);

// A normal end takes the setsid child with it too: it carries the run's mark.
TEST(Lifetime, NormalEndLeavesNoProcessBehind) {
  const std::string pids_file = e2e::temp_dir() + "/escaped";
  auto env = e2e::merge({e2e::sysroot_env("no-gpu-vm"), e2e::fake_torch_env("cpu"),
                         {{"GPUSCOUT_FAKE_TORCH_ESCAPE", pids_file},
                          {"GPUSCOUT_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1"},
                          {"GPUSCOUT_CUDA_LIBRARY", "/nonexistent/libcuda.so.1"}}});
  auto child = gpuscout::os::spawn({"env", GPUSCOUT_BIN, "doctor", "--json"}, std::chrono::seconds(60), env);
  ASSERT_TRUE(child) << child.error().message;
  // Checked before this test's own wait(), whose clean-up would hide what gpuscout left.
  ASSERT_TRUE(within(std::chrono::seconds(50), [&] { return ended(child->pid()); }));
  std::istringstream pids(e2e::read_file(pids_file));
  pid_t python = 0, escaped = 0;
  pids >> python >> escaped;
  ASSERT_GT(escaped, 0) << "the fake torch did not start its escaped child";
  EXPECT_FALSE(alive(escaped)) << "the setsid child outlived doctor";
  const auto r = child->wait();
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
