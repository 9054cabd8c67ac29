// The plan to a working GPU (diagnose/plan.cpp): one set of steps, consistent with the findings and the wheel.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/version.hpp"
#include "diagnose/diagnose.hpp"
#include "diagnose_machines.hpp"
#include "test_support.hpp"

using namespace gpuscout;
using gpuscout::test_machines::machine_with;
using gpuscout::test_machines::with_torch;
using gpuscout::test_support::contains;

namespace {

const diagnose::Step* step_of(const diagnose::Verdict& v, std::string_view kind) {
  const auto it = std::find_if(v.plan.steps.begin(), v.plan.steps.end(),
                               [&](const diagnose::Step& s) { return s.kind == kind; });
  return it == v.plan.steps.end() ? nullptr : &*it;
}

size_t index_of(const diagnose::Verdict& v, std::string_view kind) {
  for (size_t i = 0; i < v.plan.steps.size(); ++i)
    if (v.plan.steps[i].kind == kind) return i;
  return v.plan.steps.size();
}

/// A desktop with an NVIDIA GPU held by nouveau: no NVIDIA driver answers.
Inventory nouveau_desktop(const std::string& os_id, const std::string& version_id) {
  Inventory inv = machine_with("8.6", "580.95.05");
  inv.nvidia = {};
  inv.cuda = {};
  inv.nvidia.nouveau_loaded = true;
  inv.gpus[0].kernel_driver = "nouveau";
  inv.gpus[0].cuda_index.reset();
  inv.os.id = os_id;
  inv.os.version_id = version_id;
  inv.platform.kind = "desktop";
  inv.python.probed = true;
  inv.python.version = "3.11.2";
  inv.python.executable = "/usr/bin/python3";
  return inv;
}

}  // namespace

TEST(Plan, DebianTwelvesDriverAndTheWheelMeet) {
  // Debian 12 packages the 535 driver: the wheel is one 535 runs (CUDA 12, by minor-version compatibility), never
  // a CUDA 13 wheel that needs 580.
  const auto v = diagnose::diagnose(nouveau_desktop("debian", "12"));
  EXPECT_EQ(v.status, "needs-action");
  EXPECT_EQ(v.plan.outcome, "gpu");
  const auto* driver = step_of(v, "driver");
  const auto* torch = step_of(v, "torch");
  ASSERT_NE(driver, nullptr);
  ASSERT_NE(torch, nullptr);
  EXPECT_EQ(driver->command, "sudo apt install nvidia-driver firmware-misc-nonfree");
  EXPECT_TRUE(driver->root);
  EXPECT_TRUE(driver->reboot);
  EXPECT_TRUE(contains(driver->action, "535.247.01")) << driver->action;
  EXPECT_LT(index_of(v, "driver"), index_of(v, "torch"));
  EXPECT_TRUE(contains(torch->command, "whl/cu12")) << torch->command;
  EXPECT_EQ(v.plan.steps.back().kind, "check");
  EXPECT_EQ(v.plan.steps.back().command, "gpuscout");
}

TEST(Plan, UbuntuFollowsTheCurrentBranch) {
  const auto v = diagnose::diagnose(nouveau_desktop("ubuntu", "24.04"));
  const auto* driver = step_of(v, "driver");
  ASSERT_NE(driver, nullptr);
  EXPECT_EQ(driver->command, "sudo ubuntu-drivers install");
  // The finding's fix names the same command as the step.
  bool shown = false;
  for (const auto& f : v.findings) shown = shown || contains(f.fix, driver->command);
  EXPECT_TRUE(shown);
}

TEST(Plan, WslUpdatesTheWindowsDriverAndKeepsTheInstalledBuild) {
  // WSL with an old Windows driver and a CUDA 13.0 build that has code for the GPU: update the driver in Windows;
  // the installed build stays. Never a Linux driver inside WSL.
  Inventory inv = with_torch(machine_with("8.9", "560.94"), "2.14.0+cu130", "13.0", false);
  inv.torch->arch_list = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"};
  inv.nvidia.cuda_driver_version = "12.6";
  inv.os.wsl = true;
  inv.os.virtualization = "wsl";
  inv.os.id = "ubuntu";
  inv.platform.kind = "wsl";
  const auto v = diagnose::diagnose(inv);
  const auto* driver = step_of(v, "driver");
  ASSERT_NE(driver, nullptr) << diagnose::to_json(v).dump(2);
  EXPECT_TRUE(driver->command.empty());
  EXPECT_TRUE(contains(driver->action, "In Windows (not inside WSL)")) << driver->action;
  EXPECT_TRUE(contains(driver->action, "wsl --shutdown")) << driver->action;
  EXPECT_FALSE(contains(driver->action, "apt")) << driver->action;
  EXPECT_EQ(step_of(v, "torch"), nullptr) << "the installed build is kept";
}

TEST(Plan, AServerKeepsItsDriverAndGetsAWheelForIt) {
  // The same, on a cluster node the user does not own: the wheel for the driver it has, no driver step.
  Inventory inv = with_torch(machine_with("8.9", "550.54.15"), "2.14.0+cu130", "13.0", false);
  inv.nvidia.cuda_driver_version = "12.4";
  inv.os.id = "ubuntu";
  inv.platform.kind = "server";
  const auto v = diagnose::diagnose(inv);
  EXPECT_EQ(step_of(v, "driver"), nullptr);
  const auto* torch = step_of(v, "torch");
  ASSERT_NE(torch, nullptr);
  EXPECT_TRUE(contains(torch->command, "whl/cu12")) << torch->command;
  EXPECT_TRUE(contains(torch->command, "--force-reinstall")) << torch->command;
}

TEST(Plan, HostedNotebooksNeverGetADriverStep) {
  Inventory inv = with_torch(machine_with("7.5", "550.54.15"), "2.14.0+cu130", "13.0", false);
  inv.nvidia.cuda_driver_version = "12.4";
  inv.platform.notebook = "colab";
  inv.platform.kind = "colab";
  const auto v = diagnose::diagnose(inv);
  EXPECT_EQ(step_of(v, "driver"), nullptr);
  ASSERT_NE(step_of(v, "torch"), nullptr);
  EXPECT_EQ(step_of(v, "torch")->command.rfind("%pip install", 0), 0u);
}

TEST(Plan, AnAmdCardWithACpuBuildNeedsActionAndOneCommand) {
  Inventory inv;
  inv.cpu.arch = "x86_64";
  inv.os.id = "ubuntu";
  Gpu g;
  g.vendor = "amd";
  g.name = "Radeon RX 7900 XTX";
  g.gfx_target = "gfx1100";
  inv.gpus.push_back(g);
  inv.rocm.kfd_present = true;
  inv.python.probed = true;
  inv.python.version = "3.12.3";
  inv.torch = TorchInfo{};
  inv.torch->version = "2.14.0+cpu";
  const auto v = diagnose::diagnose(inv);
  EXPECT_EQ(v.status, "needs-action");
  EXPECT_FALSE(v.torch_fits);
  EXPECT_EQ(v.plan.outcome, "gpu");
  const auto command = diagnose::torch_command(v.plan);
  ASSERT_TRUE(command.has_value());
  EXPECT_TRUE(contains(*command, "whl/rocm")) << *command;
  // The finding and the plan give the same command; nothing says "nothing to install".
  ASSERT_FALSE(v.findings.empty());
  EXPECT_EQ(v.findings.front().code, "torch-wrong-backend");
  EXPECT_TRUE(contains(v.findings.front().fix, *command));
}

TEST(Plan, AReadyMachineHasNoSteps) {
  Inventory inv = with_torch(machine_with("8.9", "580.95.05"), "2.14.0+cu130", "13.0", true);
  inv.torch->device_count = 1;
  const auto v = diagnose::diagnose(inv);
  EXPECT_EQ(v.status, "ready");
  EXPECT_EQ(v.plan.outcome, "ready");
  EXPECT_TRUE(v.plan.steps.empty());
}

TEST(Plan, NoGpuPointsToTheCloud) {
  Inventory inv;
  inv.cpu.arch = "x86_64";
  const auto v = diagnose::diagnose(inv);
  EXPECT_EQ(v.status, "cpu-only");
  EXPECT_EQ(v.plan.outcome, "cpu");
  ASSERT_EQ(v.plan.steps.size(), 1u);
  EXPECT_EQ(v.plan.steps.front().kind, "cloud-gpu");
}

TEST(Plan, BlockingFindingsComeBeforeAdvice) {
  Inventory inv = with_torch(machine_with("8.9", "580.95.05"), "2.14.0+cpu", std::nullopt, false);
  inv.cpu.physical_cores = 8;
  inv.cpu.logical_cpus = 16;
  inv.torch->num_threads = 1;
  const auto v = diagnose::diagnose(inv);
  ASSERT_GE(v.findings.size(), 2u);
  EXPECT_EQ(v.findings.front().code, "torch-cpu-only");
  EXPECT_EQ(v.findings.back().severity, "info");
}
