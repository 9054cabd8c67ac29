// Issue 14: the verdicts and advice of the four Windows machines (and the Store-alias and long-paths traps), through
// saved inventories (tests/fakes/inventories/win-*.json) and --from: only steps a Windows user can take.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "e2e_support.hpp"

using e2e::finding;
using nlohmann::json;

namespace {

using e2e::kNoLocale;

std::string saved(const std::string& name) {
  return std::string(GPUSCOUT_SOURCE_DIR) + "/tests/fakes/inventories/" + name + ".json";
}

json doctor(const std::string& name, const std::vector<std::string>& lang = {}) {
  std::vector<std::string> args = lang;
  for (const char* a : {"doctor", "--json", "--from"}) args.push_back(a);
  args.push_back(saved(name));
  const auto run = e2e::run_gpuscout(args, kNoLocale);
  EXPECT_EQ(run.exit_code, 0) << name << ": " << run.err;
  return run.json();
}

using e2e::all_advice;
using e2e::contains;
using e2e::torch_command;

/// No step that exists only on Linux.
void expect_no_linux_step(const json& doc, const std::string& name) {
  const std::string advice = all_advice(doc);
  for (const char* word : {"sudo", "apt ", "modprobe", "rmmod", "dkms", "mokutil", "nouveau", "lsmod",
                           "LD_LIBRARY_PATH", "/dev/", "~/", "bin/activate", "reboot", "Reboot", "python3 "})
    EXPECT_FALSE(contains(advice, word)) << name << ": '" << word << "' in\n" << advice;
}

std::string fix_of(const json& doc, const std::string& code) {
  const json* f = finding(doc, code);
  return f ? (*f)["fix"].get<std::string>() : "";
}

}  // namespace

TEST(WindowsAdvice, LaptopWithDriverGetsTheWindowsCudaWheel) {
  const json doc = doctor("win-laptop-4060");
  const std::string pip = torch_command(doc);
  // The interpreter gpuscout found, then pip, from a CUDA 13 index (581.57 is past Windows' 13.x floor, 580).
  EXPECT_TRUE(pip.starts_with("C:\\Users\\mei\\AppData\\Local\\Programs\\Python\\Python312\\python.exe -m pip install "
                              "\"torch=="))
      << pip;
  EXPECT_TRUE(contains(pip, "--index-url https://download.pytorch.org/whl/cu13")) << pip;
  EXPECT_TRUE(finding(doc, "torch-missing")) << doc["verdict"].dump(2);
  EXPECT_TRUE(finding(doc, "laptop"));
  EXPECT_FALSE(finding(doc, "driver-model-tcc"));  // WDDM is the normal case
  EXPECT_FALSE(finding(doc, "windows-long-paths"));
  EXPECT_EQ(doc["verdict"]["device"], "cuda:0");
  expect_no_linux_step(doc, "win-laptop-4060");
}

TEST(WindowsAdvice, AmdDesktopGetsNoCudaWheelAndTheHonestRoute) {
  const json doc = doctor("win-desktop-amd");
  const std::string pip = torch_command(doc);
  EXPECT_TRUE(contains(pip, "whl/cpu")) << pip;
  EXPECT_FALSE(contains(pip, "whl/rocm")) << pip;
  const std::string fix = fix_of(doc, "no-nvidia-gpu");
  EXPECT_TRUE(contains(fix, "no ROCm build for Windows")) << fix;
  EXPECT_TRUE(contains(fix, "WSL2")) << fix;
  EXPECT_TRUE(contains(fix, "torch-directml")) << fix;
  EXPECT_TRUE(contains(fix, "cloud GPU")) << fix;
  expect_no_linux_step(doc, "win-desktop-amd");
}

TEST(WindowsAdvice, NoNvidiaDriverGetsTheWindowsDownloadNotApt) {
  const json doc = doctor("win-no-nvidia-driver");
  EXPECT_EQ(doc["verdict"]["status"], "needs-action");
  const std::string fix = fix_of(doc, "nvidia-driver-missing");
  ASSERT_FALSE(fix.empty()) << doc["verdict"].dump(2);
  EXPECT_TRUE(contains(fix, "https://www.nvidia.com/Download/index.aspx")) << fix;
  EXPECT_TRUE(contains(fix, "Game Ready")) << fix;
  EXPECT_TRUE(contains(fix, "Studio")) << fix;
  EXPECT_TRUE(contains(fix, "restart Windows")) << fix;
  expect_no_linux_step(doc, "win-no-nvidia-driver");
}

TEST(WindowsAdvice, DriverMismatchSaysRestartWindows) {
  const json doc = doctor("win-driver-mismatch");
  EXPECT_EQ(doc["verdict"]["status"], "needs-action");
  const std::string fix = fix_of(doc, "driver-library-mismatch");
  EXPECT_TRUE(contains(fix, "Restart Windows")) << doc["verdict"].dump(2);
  // The mismatch is the cause: what it breaks further down (cuInit 803) is not reported again.
  EXPECT_FALSE(finding(doc, "cuda-init-failed"));
  expect_no_linux_step(doc, "win-driver-mismatch");
}

TEST(WindowsAdvice, StoreAliasAndLongPathsAreNamed) {
  const json doc = doctor("win-store-alias");
  const std::string alias = fix_of(doc, "python-store-alias");
  EXPECT_TRUE(contains(alias, "python.org")) << doc["verdict"].dump(2);
  EXPECT_TRUE(contains(alias, "winget install Python.Python.3.12")) << alias;
  EXPECT_TRUE(contains(alias, "App execution aliases")) << alias;
  EXPECT_FALSE(finding(doc, "python-missing"));
  const std::string paths = fix_of(doc, "windows-long-paths");
  EXPECT_TRUE(contains(paths, "LongPathsEnabled")) << doc["verdict"].dump(2);
  EXPECT_EQ(finding(doc, "windows-long-paths")->at("severity"), "info");
  expect_no_linux_step(doc, "win-store-alias");
}

TEST(WindowsAdvice, TextOutputAndChinese) {
  // The text form shows the same Windows steps; in Chinese the sentences are translated and the commands kept.
  const auto text = e2e::run_gpuscout({"doctor", "--from", saved("win-driver-mismatch")}, kNoLocale);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_TRUE(contains(text.out, "Restart Windows")) << text.out;
  const json zh = doctor("win-no-nvidia-driver", {"--lang", "zh"});
  const std::string fix = fix_of(zh, "nvidia-driver-missing");
  EXPECT_TRUE(contains(fix, "https://www.nvidia.com/Download/index.aspx")) << fix;
  EXPECT_TRUE(contains(fix, "驱动")) << fix;
  EXPECT_TRUE(contains(fix, "重启 Windows")) << fix;
  const json zh_alias = doctor("win-store-alias", {"--lang", "zh"});
  const std::string alias = fix_of(zh_alias, "python-store-alias");
  EXPECT_TRUE(contains(alias, "winget install Python.Python.3.12")) << alias;
  EXPECT_TRUE(contains(alias, "应用执行别名")) << alias;
}
