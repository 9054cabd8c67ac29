// The OS seam against hostile surroundings: probe children that leave helpers running, print, crash or
// exit non-zero; sysroot files that are FIFOs or absurd; model folders with link loops and FIFOs.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "e2e_support.hpp"

using e2e::merge;
using nlohmann::json;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

// Running, as opposed to gone or a zombie that init has not reaped yet.
bool running(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!stat || !std::getline(stat, line)) return false;
  const auto close = line.rfind(')');
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z' && line[close + 2] != 'X';
}

std::string script(const std::string& dir, const std::string& body) {
  const std::string path = dir + "/fake-python";
  std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
  fs::permissions(path, fs::perms::owner_all);
  return path;
}

json python_section(const std::string& exe, std::map<std::string, std::string> extra = {}) {
  auto env = merge({e2e::sysroot_env("no-gpu-vm"), {{"GPUSCOUT_PYTHON", exe}}, extra});
  const auto run = e2e::run_gpuscout({"info", "--json"}, env, 30000);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_FALSE(run.timed_out);
  return run.json()["python"];
}

std::string copy_sysroot(const std::string& name) {
  const std::string root = e2e::temp_dir() + "/" + name;
  fs::copy(std::string(GPUSCOUT_SYSROOTS_DIR) + "/" + name, root, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  return root;
}

const char* kConfig = R"({"model_type":"mistral","hidden_size":4096,"intermediate_size":14336,
  "num_hidden_layers":32,"num_attention_heads":32,"vocab_size":32000})";

}  // namespace

TEST(ProbeChildren, APythonTimeoutLeavesNoProcessBehind) {
  const std::string dir = e2e::temp_dir();
  const std::string pid_file = dir + "/grandchild.pid";
  const auto exe = script(dir, "sleep 100 &\necho $! > " + pid_file + "\nsleep 100");
  const auto start = std::chrono::steady_clock::now();
  const json python = python_section(exe, {{"GPUSCOUT_PYTHON_TIMEOUT", "1"}});
  EXPECT_LT(std::chrono::steady_clock::now() - start, 20s);
  EXPECT_EQ(python["timed_out"], true);
  EXPECT_NE(python["error"]["message"].get<std::string>().find("no answer within 1.0 s"), std::string::npos)
      << python.dump();
  int pid = 0;
  std::ifstream(pid_file) >> pid;
  ASSERT_GT(pid, 0);
  for (int i = 0; i < 200 && running(pid); ++i) std::this_thread::sleep_for(10ms);
  EXPECT_FALSE(running(pid)) << "the probe's sleep " << pid << " outlived gpuscout";
}

TEST(ProbeChildren, APythonThatFailsSaysWhyWithItsStderr) {
  const std::string dir = e2e::temp_dir();
  const json python = python_section(script(dir, "echo 'ImportError: libc10.so: cannot open' >&2\nexit 1"));
  const std::string message = python["error"]["message"];
  EXPECT_NE(message.find("ended with exit code 1"), std::string::npos) << message;
  EXPECT_NE(message.find("it printed: ImportError: libc10.so: cannot open"), std::string::npos) << message;
}

TEST(ProbeChildren, APythonKilledByASignalIsNamed) {
  const std::string dir = e2e::temp_dir();
  const json python = python_section(script(dir, "kill -SEGV $$"));
  const std::string message = python["error"]["message"];
  EXPECT_NE(message.find("signal 11 (Segmentation fault)"), std::string::npos) << message;
}

TEST(ProbeChildren, ADriversChatterStaysOffTheTerminalAndExplainsTheError) {
  // The fake driver prints the reason it cannot load its scenario to stderr, as a real one may.
  auto env = merge({e2e::fake_driver_env("rtx4090"), e2e::sysroot_env("no-gpu-vm"),
                    {{"GPUSCOUT_FAKE_SCENARIO", "/nonexistent/scenario.json"}, {"GPUSCOUT_PYTHON", "/nonexistent/python3"}}});
  const auto run = e2e::run_gpuscout({"info", "--json", "--timeout", "5"}, env);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err.find("gpuscout fake driver"), std::string::npos) << run.err;
  const json doc = run.json();
  ASSERT_TRUE(doc["nvidia"]["error"].is_object()) << doc["nvidia"].dump();
  EXPECT_NE(doc["nvidia"]["error"]["message"].get<std::string>().find("it printed: gpuscout fake driver"),
            std::string::npos)
      << doc["nvidia"].dump();
}

TEST(Sysroot, AFifoForProcMeminfoIsAnErrorNotAHang) {
  const std::string root = copy_sysroot("no-gpu-vm");
  fs::remove(root + "/proc/meminfo");
  ASSERT_EQ(::mkfifo((root + "/proc/meminfo").c_str(), 0600), 0);
  const auto run = e2e::run_gpuscout({"info", "--json", "--no-python"}, {{"GPUSCOUT_SYSROOT", root}}, 20000);
  ASSERT_FALSE(run.timed_out) << "info hung on the FIFO";
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json errors = run.json()["memory"]["errors"];
  ASSERT_EQ(errors.size(), 1u) << errors.dump();
  EXPECT_EQ(errors[0]["what"], "/proc/meminfo");
  EXPECT_NE(errors[0]["message"].get<std::string>().find("not a regular file"), std::string::npos) << errors.dump();
}

TEST(Sysroot, AnAbsurdCpuOnlineListIsQuick) {
  const std::string root = copy_sysroot("no-gpu-vm");
  std::string list;
  while (list.size() < 64 * 1024) list += "0-65535,";
  list.pop_back();
  fs::create_directories(root + "/sys/devices/system/cpu");
  std::ofstream(root + "/sys/devices/system/cpu/online") << list << "\n";
  const auto start = std::chrono::steady_clock::now();
  const auto run = e2e::run_gpuscout({"info", "--json", "--no-python"}, {{"GPUSCOUT_SYSROOT", root}}, 20000);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  EXPECT_EQ(run.exit_code, 0) << run.err;
}

TEST(FitConfig, ASafetensorsLinkLoopIsAUsageError) {
  const std::string dir = e2e::temp_dir() + "/loop";
  fs::create_directories(dir);
  std::ofstream(dir + "/config.json") << kConfig;
  fs::create_symlink("b.safetensors", dir + "/a.safetensors");
  fs::create_symlink("a.safetensors", dir + "/b.safetensors");
  const auto r = e2e::run_gpuscout({"fit", "--config", dir, "--vram", "24G"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find(dir + "/a.safetensors"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
}

TEST(FitConfig, FifosAreRefusedNotWaitedOn) {
  const std::string dir = e2e::temp_dir() + "/fifos";
  fs::create_directories(dir + "/config-fifo");
  ASSERT_EQ(::mkfifo((dir + "/config-fifo/config.json").c_str(), 0600), 0);
  fs::create_directories(dir + "/shard-fifo");
  std::ofstream(dir + "/shard-fifo/config.json") << kConfig;
  ASSERT_EQ(::mkfifo((dir + "/shard-fifo/model.safetensors").c_str(), 0600), 0);
  for (const std::string& folder : {dir + "/config-fifo", dir + "/shard-fifo", dir + "/config-fifo/config.json"}) {
    const auto r = e2e::run_gpuscout({"fit", "--config", folder, "--vram", "24G"}, {}, 20000);
    EXPECT_FALSE(r.timed_out) << folder;
    EXPECT_EQ(r.exit_code, 2) << folder << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find("not a regular file"), std::string::npos) << r.err;
  }
}
