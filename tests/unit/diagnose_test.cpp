#include <gtest/gtest.h>

#include "catalog/catalog.hpp"
#include "core/version.hpp"
#include "diagnose/diagnose.hpp"
#include "diagnose_machines.hpp"

using namespace gpuscout;

using gpuscout::test_machines::machine_with;

namespace {
/// The Python probe answered: `version` at `executable`.
void probed_python(Inventory& inv, const std::string& version, const std::string& executable) {
  inv.python.probed = true;
  inv.python.version = version;
  inv.python.executable = executable;
}
}  // namespace

TEST(ChooseTorch, NewestCudaTheDriverRuns) {
  // 13.2 GA needs 595.45.04: a 580 driver gets the 13.0 wheel, a 595 driver the 13.2 one.
  EXPECT_EQ(diagnose::choose_torch(machine_with("8.9", "580.95.05")).cuda, "13.0");
  EXPECT_EQ(diagnose::choose_torch(machine_with("8.9", "595.45.04")).cuda, "13.2");
}

TEST(ChooseTorch, PascalNeedsTheCuda126Variant) {
  const auto c = diagnose::choose_torch(machine_with("6.1", "560.35.03"));
  EXPECT_EQ(c.cuda, "12.6");
  EXPECT_NE(c.command.find("whl/cu126"), std::string::npos);
}

TEST(ChooseTorch, BlackwellNeedsCuda128OrNewer) {
  const auto c = diagnose::choose_torch(machine_with("12.0", "575.64"));
  ASSERT_TRUE(c.cuda.has_value());
  EXPECT_GE(*Version::parse(*c.cuda), *Version::parse("12.8"));
}

TEST(ChooseTorch, NoGpuMeansCpuWheel) {
  Inventory inv;
  EXPECT_NE(diagnose::choose_torch(inv).command.find("whl/cpu"), std::string::npos);
}

TEST(ChooseTorch, AnOlderReleaseRatherThanADriverTheUserLacks) {
  // RTX 5090 on 570.86.16 (CUDA 12.8): a cu128 wheel runs now; CUDA 13 wheels would need 580+.
  const auto c = diagnose::choose_torch(machine_with("12.0", "570.86.16"));
  ASSERT_TRUE(c.cuda.has_value());
  EXPECT_EQ(*c.cuda, "12.8");
  EXPECT_FALSE(c.driver_needed.has_value());
  ASSERT_TRUE(c.with_newer_driver.has_value());
  EXPECT_NE(c.with_newer_driver->find("needs driver"), std::string::npos);
}

TEST(ChooseTorch, KeplerStaysWithinItsLastDriverBranch) {
  // R470 is Kepler's last branch: no wheel may ask for more; CUDA 11.x wheels run on it (minor-version compat).
  const auto c = diagnose::choose_torch(machine_with("3.7", "470.256.02"));
  EXPECT_FALSE(c.driver_needed.has_value());
  ASSERT_TRUE(c.cuda.has_value());
  EXPECT_EQ(Version::parse(*c.cuda)->major(), 11);
  auto no_driver = machine_with("3.7", "470.256.02");
  no_driver.nvidia.driver_version.reset();
  const auto d = diagnose::choose_torch(no_driver);
  if (d.driver_needed) EXPECT_LE(*Version::parse(*d.driver_needed), *Version::parse("470.256.02"));
}

TEST(ChooseTorch, HostedNotebooksNeverNeedADriverUpdate) {
  auto inv = machine_with("12.0", "520.61.05");  // under the CUDA 12 family floor: no wheel for sm_120 runs
  inv.platform.notebook = "kaggle";
  const auto c = diagnose::choose_torch(inv);
  EXPECT_FALSE(c.driver_needed.has_value());
  EXPECT_FALSE(c.with_newer_driver.has_value());
  EXPECT_TRUE(c.command.empty());  // nothing runs: the rules say to switch GPUs instead
}

TEST(ChooseTorch, TheInterpretersPythonVersionHasWheels) {
  auto inv = machine_with("8.9", "580.95.05");
  probed_python(inv, "3.8.10", "/opt/py 3.8/bin/python");
  const auto c = diagnose::choose_torch(inv);
  bool found = false;
  for (const auto& b : catalog::torch_builds())
    if (b.torch == c.torch && b.cuda == c.cuda && b.python_max && *b.python_max >= *Version::parse("3.8")) found = true;
  EXPECT_TRUE(found) << c.torch << " has no wheel for Python 3.8";
  // The interpreter is named (quoted: its path has a space) and the companions are pinned.
  EXPECT_EQ(c.command.rfind("'/opt/py 3.8/bin/python' -m pip install \"torch==" + c.torch + ".*\"", 0), 0u) << c.command;
  EXPECT_NE(c.command.find("torchvision=="), std::string::npos) << c.command;
}

TEST(ChooseTorch, AFittingInstalledBuildIsKept) {
  auto inv = test_machines::with_torch(machine_with("8.9", "580.95.05"), "2.7.1+cu128", "12.8", true);
  inv.torch->arch_list = {"sm_80", "sm_86", "sm_89", "sm_90"};
  EXPECT_TRUE(diagnose::choose_torch(inv).installed_fits);
  const auto v = diagnose::diagnose(inv);
  EXPECT_EQ(v.status, "ready");
  EXPECT_FALSE(diagnose::torch_command(v.plan).has_value());
  inv.torch->cuda_available = false;  // the same build that cannot start here is no fit
  EXPECT_FALSE(diagnose::choose_torch(inv).installed_fits);
  inv.torch->cuda_available = true;
  inv.torch->arch_list = {"sm_90"};  // no code this 8.9 GPU can run
  EXPECT_FALSE(diagnose::choose_torch(inv).installed_fits);
}

TEST(ChooseTorch, AnExternallyManagedPythonGetsAVenvFirst) {
  auto inv = machine_with("8.9", "580.95.05");
  probed_python(inv, "3.11.2", "/usr/bin/python3");
  inv.python.externally_managed = true;  // Debian 12's /usr/bin/python3 (PEP 668)
  inv.python.in_venv = false;
  const auto c = diagnose::choose_torch(inv);
  EXPECT_EQ(c.command.rfind("/usr/bin/python3 -m venv ~/venvs/torch && ~/venvs/torch/bin/python -m pip install", 0), 0u)
      << c.command;
  inv.python.in_venv = true;  // already in a venv: pip installs there
  EXPECT_EQ(diagnose::choose_torch(inv).command.rfind("/usr/bin/python3 -m pip install", 0), 0u);
}

TEST(ChooseTorch, AnInstalledBuildIsReplacedInOneLine) {
  // torch 2.14.0+cu130 meets "torch==2.14.*": pip would keep it, so the command forces the named builds in.
  auto inv = test_machines::with_torch(machine_with("6.1", "550.163.01"), "2.14.0+cu130", "13.0", false);
  probed_python(inv, "3.12.3", "/usr/bin/python3");
  inv.python.torch_installed = true;
  const auto c = diagnose::choose_torch(inv);
  EXPECT_EQ(c.command.rfind("/usr/bin/python3 -m pip install \"torch==", 0), 0u) << c.command;
  EXPECT_NE(c.command.find("\" --force-reinstall --index-url https://download.pytorch.org/whl/cu126"), std::string::npos)
      << c.command;
  EXPECT_EQ(c.command.find('\n'), std::string::npos) << c.command;
  EXPECT_EQ(diagnose::torch_command(diagnose::diagnose(inv).plan), c.command);  // the summary's command is the finding's
  inv.platform.notebook = "colab";  // one %pip line, typed into a cell
  const auto notebook = diagnose::choose_torch(inv).command;
  EXPECT_EQ(notebook.rfind("%pip install \"torch==", 0), 0u) << notebook;
  EXPECT_NE(notebook.find(" --force-reinstall "), std::string::npos) << notebook;
  inv.platform.notebook.reset();
  inv.python.externally_managed = true;  // a fresh venv has nothing to replace
  inv.python.in_venv = false;
  EXPECT_EQ(diagnose::choose_torch(inv).command.find("--force-reinstall"), std::string::npos);
  inv.python.externally_managed = false;
  inv.python.torch_installed = false;  // nothing installed: a plain install
  inv.torch.reset();
  const auto fresh = diagnose::choose_torch(inv).command;
  EXPECT_EQ(fresh.rfind("/usr/bin/python3 -m pip install \"torch==", 0), 0u) << fresh;
  EXPECT_EQ(fresh.find("--force-reinstall"), std::string::npos) << fresh;
}

TEST(ChooseTorch, EachInstallerGetsItsOwnLine) {
  auto inv = test_machines::with_torch(machine_with("6.1", "550.163.01"), "2.14.0+cu130", "13.0", false);
  probed_python(inv, "3.12.3", "/home/u/proj/.venv/bin/python");
  inv.python.torch_installed = true;
  inv.python.in_venv = true;
  inv.python.has_pip = false;
  inv.python.environment_tool = "uv";  // uv's venvs have no pip: uv replaces each package it names
  const auto uv = diagnose::choose_torch(inv).command;
  EXPECT_EQ(uv.rfind("uv pip install --python /home/u/proj/.venv/bin/python \"torch==", 0), 0u) << uv;
  EXPECT_NE(uv.find("--reinstall-package torch --reinstall-package torchvision"), std::string::npos) << uv;
  EXPECT_EQ(uv.find("--force-reinstall"), std::string::npos) << uv;
  inv.python.environment_tool.reset();  // a venv made --without-pip: ensurepip seeds pip first
  const auto seeded = diagnose::choose_torch(inv).command;
  EXPECT_EQ(seeded.rfind("/home/u/proj/.venv/bin/python -m ensurepip && /home/u/proj/.venv/bin/python -m pip install", 0),
            0u)
      << seeded;
  inv.python.environment_tool = "conda";  // conda with pip: pip, as PyTorch's own instructions say
  inv.python.has_pip = true;
  EXPECT_EQ(diagnose::choose_torch(inv).command.rfind("/home/u/proj/.venv/bin/python -m pip install", 0), 0u);
  // Ubuntu's own Python without python3-venv: the package first (root), then the venv.
  inv.python.environment_tool.reset();
  inv.python.executable = "/usr/bin/python3";
  inv.python.in_venv = false;
  inv.python.externally_managed = true;
  inv.python.has_ensurepip = false;
  inv.os.id = "ubuntu";
  const auto v = diagnose::diagnose(inv);
  const auto apt = diagnose::torch_command(v.plan).value_or("");
  EXPECT_EQ(apt.rfind("sudo apt install -y python3-venv && /usr/bin/python3 -m venv ~/venvs/torch && ", 0), 0u) << apt;
  const auto torch = std::find_if(v.plan.steps.begin(), v.plan.steps.end(), [](const auto& s) { return s.kind == "torch"; });
  ASSERT_NE(torch, v.plan.steps.end());
  EXPECT_TRUE(torch->root);
  EXPECT_NE(torch->action.find("~/venvs/torch/bin/python"), std::string::npos) << torch->action;
  EXPECT_EQ(apt.find('('), std::string::npos) << "prose belongs to the step, not the command: " << apt;
  inv.os.id = "fedora";  // Fedora's python3 has ensurepip: no package step is invented
  EXPECT_EQ(diagnose::choose_torch(inv).command.find("apt"), std::string::npos);
}

TEST(Verdict, TheFindingShowsTheSummarysReplacingCommand) {
  // A CUDA 13.0 torch on a 535 driver: the finding's fix carries the summary's command whole, rather than a
  // removal glued in front of the sentence.
  auto inv = test_machines::with_torch(machine_with("8.9", "535.104.05"), "2.9.1+cu130", "13.0", false);
  inv.nvidia.cuda_driver_version = "12.2";
  inv.python.executable = "/usr/bin/python3";
  inv.python.torch_installed = true;
  const auto v = diagnose::diagnose(inv);
  ASSERT_TRUE(diagnose::torch_command(v.plan).has_value());
  EXPECT_NE(diagnose::torch_command(v.plan)->find(" --force-reinstall --index-url "), std::string::npos) << *diagnose::torch_command(v.plan);
  bool shown = false;
  for (const auto& f : v.findings) {
    EXPECT_EQ(f.fix.find("&& First"), std::string::npos) << f.fix;
    if (f.fix.find(*diagnose::torch_command(v.plan)) != std::string::npos) shown = true;
  }
  EXPECT_TRUE(shown) << "no finding shows " << *diagnose::torch_command(v.plan);
}

TEST(ChooseTorch, ACudaBuildOnAMachineWithoutNvidiaIsNotSwappedForTheCpuWheel) {
  Inventory inv;
  inv.cpu.arch = "x86_64";
  inv = test_machines::with_torch(inv, "2.5.1+cu121", "12.1", false);
  EXPECT_TRUE(diagnose::choose_torch(inv).installed_fits);  // it runs on the CPU: nothing to reinstall
  EXPECT_FALSE(diagnose::torch_command(diagnose::diagnose(inv).plan).has_value());
}

TEST(Verdict, TorchMissingIsNotReady) {
  auto inv = machine_with("8.9", "580.95.05");
  probed_python(inv, "3.12.3", "/usr/bin/python3");
  const auto v = diagnose::diagnose(inv);
  EXPECT_EQ(v.status, "needs-action");
  EXPECT_EQ(v.device, "cuda:0");  // the GPU is fine: install torch and use it
  ASSERT_TRUE(diagnose::torch_command(v.plan).has_value());
  EXPECT_EQ(diagnose::torch_command(v.plan)->rfind("/usr/bin/python3 -m pip install", 0), 0u) << *diagnose::torch_command(v.plan);
  EXPECT_EQ(diagnose::strict_exit_code(v), 4);
}

TEST(Verdict, ReadyMachine) {
  const auto v = diagnose::diagnose(machine_with("8.9", "580.95.05"));
  EXPECT_EQ(v.status, "ready");
  EXPECT_EQ(v.device, "cuda:0");
}

TEST(Verdict, LowVramWarns) {
  const auto v = diagnose::diagnose(machine_with("7.5", "580.95.05", 4ULL << 30));
  EXPECT_EQ(v.status, "ready");
  ASSERT_FALSE(v.findings.empty());
  EXPECT_EQ(v.findings[0].code, "low-vram");
}

TEST(Verdict, CpuTorchOnGpuMachineNeedsAction) {
  auto inv = machine_with("8.6", "550.54.15");
  inv.python.probed = true;
  inv.python.version = "3.11";
  inv.torch = TorchInfo{};
  inv.torch->version = "2.5.1+cpu";
  const auto v = diagnose::diagnose(inv);
  EXPECT_EQ(v.status, "needs-action");
  EXPECT_EQ(v.findings[0].code, "torch-cpu-only");
  EXPECT_NE(v.findings[0].fix.find("pip install"), std::string::npos);
  EXPECT_EQ(v.device, "cpu");
}

TEST(Verdict, DriverTooOldForTorchSaysWhichDriver) {
  auto inv = machine_with("8.9", "535.104.05");
  inv.nvidia.cuda_driver_version = "12.2";
  inv.torch = TorchInfo{};
  inv.torch->version = "2.9.1+cu130";
  inv.torch->cuda = "13.0";
  const auto v = diagnose::diagnose(inv);
  EXPECT_EQ(v.status, "needs-action");
  bool found = false;
  for (const auto& f : v.findings)
    if (f.code == "driver-too-old-for-torch") {
      found = true;
      EXPECT_NE(f.message.find("580.65.06"), std::string::npos) << f.message;
    }
  EXPECT_TRUE(found);
}

TEST(Verdict, CudaWorksWithoutNvmlIsStillReady) {
  // Some containers mount libcuda but not libnvidia-ml: CUDA is what PyTorch needs.
  auto inv = machine_with("8.6", "550.54.15");
  inv.nvidia = NvidiaInfo{};
  inv.nvidia.error = ProbeError{"nvml", "dlopen", "libnvidia-ml.so.1: cannot open shared object file", std::nullopt};
  const auto v = diagnose::diagnose(inv);
  EXPECT_EQ(v.status, "ready");
  for (const auto& f : v.findings) EXPECT_NE(f.code, "nvidia-driver-missing");
}

TEST(Verdict, NoGpuPointsAtFreeCloudGpus) {
  Inventory inv;
  const auto v = diagnose::diagnose(inv);
  EXPECT_EQ(v.status, "cpu-only");
  ASSERT_FALSE(v.findings.empty());
  EXPECT_EQ(v.findings[0].code, "no-gpu");
  EXPECT_NE(v.findings[0].fix.find("Colab"), std::string::npos);
  EXPECT_EQ(v.device, "cpu");
}
