// Issue 14: a Windows machine's verdict gives only steps a Windows user can take, and the wheel and driver facts
// come from the Windows rows and columns of the data tables.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "catalog/catalog.hpp"
#include "diagnose/context.hpp"
#include "diagnose/diagnose.hpp"
#include "diagnose/rules.hpp"
#include "diagnose_evaluate.hpp"
#include "diagnose_machines.hpp"
#include "vendor/cuda_abi.hpp"
#include "vendor/nvml_abi.hpp"
#include "test_support.hpp"

using namespace gpuscout;
using namespace gpuscout::diagnose;
namespace cuda = gpuscout::vendor::cuda;
namespace nvml = gpuscout::vendor::nvml;
using gpuscout::test_machines::machine_with;
using gpuscout::test_machines::run;
using gpuscout::test_machines::find;

namespace {

/// A Windows 11 laptop with an RTX 4060 Laptop GPU (8 GB, sm_89) on NVIDIA's 581.57 driver, Python 3.12 from
/// python.org and no PyTorch.
Inventory windows_4060(const std::string& driver = "581.57") {
  Inventory inv = machine_with("8.9", driver, 8ULL << 30);
  inv.gpus[0].name = "NVIDIA GeForce RTX 4060 Laptop GPU";
  inv.gpus[0].driver_model = "WDDM";
  inv.os.family = "windows";
  inv.os.id = "windows";
  inv.os.windows = WindowsInfo{"26100.4061", "24H2", "Core", true};
  inv.nvidia.kernel_module_loaded = false;  // Windows has none to read
  inv.nvidia.uvm_loaded = false;
  inv.nvidia.cuda_driver_version = "13.0";
  inv.python.probed = true;
  inv.python.version = "3.12.7";
  inv.python.executable = "C:\\Users\\mei\\AppData\\Local\\Programs\\Python\\Python312\\python.exe";
  inv.python.selected_by = "PATH";
  return inv;
}

using gpuscout::test_support::contains;

/// Words of steps that exist only on Linux.
const std::vector<std::string> kLinuxOnly = {"sudo",    "apt ",     "dnf ",   "modprobe", "rmmod",   "dkms",
                                             "mokutil", "nouveau",  "lsmod",  "LD_LIBRARY_PATH", "/dev/", "~/",
                                             "bashrc",  "systemctl", "reboot", "Reboot",  "bin/activate", "python3"};

void expect_windows_steps_only(const Inventory& inv, const std::string& what) {
  const Verdict v = diagnose::diagnose(inv);
  std::vector<std::string> texts;
  if (diagnose::torch_command(v.plan)) texts.push_back(*diagnose::torch_command(v.plan));
  for (const auto& f : v.findings) {
    texts.push_back(f.message);
    texts.push_back(f.fix);
  }
  for (const auto& text : texts)
    for (const auto& word : kLinuxOnly) EXPECT_FALSE(contains(text, word)) << what << ": '" << word << "' in: " << text;
}

}  // namespace

TEST(WindowsData, TheWindowsDriverColumnsAnswerOnWindows) {
  EXPECT_EQ(catalog::min_driver_for_cuda("12.8", catalog::DriverOs::windows)->str(), "570.65");
  EXPECT_EQ(catalog::min_driver_for_cuda("12.8")->str(), "570.26");
  // NVIDIA prints no Windows minimum for 13.x: the family floor is what a 13.x wheel needs there.
  EXPECT_EQ(catalog::min_driver_for_cuda("13.0", catalog::DriverOs::windows)->str(), "580");
  EXPECT_EQ(catalog::min_driver_for_cuda("13.0")->str(), "580.65.06");
  // 570.40 runs CUDA 12.8 on Linux (570.26) but not at full level on Windows (570.65).
  EXPECT_EQ(catalog::newest_cuda_for_driver(*Version::parse("570.40")), "12.8");
  EXPECT_EQ(catalog::newest_cuda_for_driver(*Version::parse("570.40"), catalog::DriverOs::windows), "12.6");
}

TEST(WindowsData, EveryReleaseFrom112HasWindowsWheels) {
  for (const std::string release : {"1.12", "1.13", "2.0", "2.1", "2.2", "2.3", "2.4", "2.5", "2.6", "2.7", "2.8", "2.9",
                                    "2.10", "2.11", "2.12", "2.13", "2.14"}) {
    bool cpu = false, cuda_build = false;
    for (const auto& b : catalog::torch_builds()) {
      if (b.torch != release || b.platform != "windows-x86_64") continue;
      cpu = cpu || catalog::is_cpu_build(b);
      cuda_build = cuda_build || (b.cuda && !b.arch_list.empty());
      EXPECT_FALSE(b.index && b.index->starts_with("rocm")) << release << ": PyTorch has no ROCm wheel for Windows";
    }
    EXPECT_TRUE(cpu) << release;
    EXPECT_TRUE(cuda_build) << release;
  }
}

TEST(WindowsChoice, TheLaptopGetsTheWindowsCudaWheelForItsDriver) {
  const Inventory inv = windows_4060();
  const Context c = make_context(inv);
  EXPECT_EQ(c.platform, "windows-x86_64");
  EXPECT_TRUE(c.windows);
  const TorchChoice choice = choose_torch(inv);
  ASSERT_TRUE(choice.cuda) << choice.command;
  // 581.57 is past the Windows 13.x floor (580): a 13.x wheel, for this exact interpreter, through pip.
  EXPECT_TRUE(choice.cuda->starts_with("13.")) << *choice.cuda;
  EXPECT_TRUE(contains(choice.command, std::string(*inv.python.executable) + " -m pip install \"torch==")) << choice.command;
  EXPECT_TRUE(contains(choice.command, "download.pytorch.org/whl/cu13")) << choice.command;
  // An older Windows driver gets a 12.x wheel: the Windows minimum decides, not the Linux one.
  const TorchChoice older = choose_torch(windows_4060("566.36"));
  ASSERT_TRUE(older.cuda);
  EXPECT_TRUE(older.cuda->starts_with("12.")) << *older.cuda;
  expect_windows_steps_only(inv, "laptop");
}

TEST(WindowsChoice, APathWithSpacesIsDoubleQuotedAndNoInterpreterIsPython) {
  Inventory inv = windows_4060();
  inv.python.executable = "C:\\Program Files\\Python312\\python.exe";
  EXPECT_TRUE(choose_torch(inv).command.starts_with("\"C:\\Program Files\\Python312\\python.exe\" -m pip install"))
      << choose_torch(inv).command;
  inv.python.executable.reset();
  EXPECT_TRUE(choose_torch(inv).command.starts_with("python -m pip install")) << choose_torch(inv).command;
}

TEST(WindowsDriver, NoDriverGetsNvidiasDownloadAndARestart) {
  Inventory inv = windows_4060();
  inv.gpus[0].name = "Microsoft Basic Display Adapter";
  inv.gpus[0].compute_capability.reset();
  inv.nvidia = NvidiaInfo{};
  inv.cuda = CudaInfo{};
  const auto e = run(inv);
  const Finding* f = find(e, "nvidia-driver-missing");
  ASSERT_TRUE(f);
  EXPECT_TRUE(contains(f->fix, "https://www.nvidia.com/Download/index.aspx")) << f->fix;
  EXPECT_TRUE(contains(f->fix, "NVIDIA App")) << f->fix;
  EXPECT_TRUE(contains(f->fix, "Studio")) << f->fix;
  EXPECT_TRUE(contains(f->fix, "restart Windows")) << f->fix;
  expect_windows_steps_only(inv, "no driver");
}

TEST(WindowsDriver, LibraryMismatchSaysRestartWindows) {
  Inventory inv = windows_4060();
  inv.nvidia.driver_version.reset();
  inv.nvidia.error = ProbeError{"nvml", "nvmlInit_v2", "Driver/library version mismatch", nvml::ERROR_LIB_RM_VERSION_MISMATCH};
  inv.cuda.available = false;
  inv.cuda.error = ProbeError{"cuda", "cuInit", "system driver mismatch", cuda::ERROR_SYSTEM_DRIVER_MISMATCH};
  const auto e = run(inv);
  const Finding* f = find(e, "driver-library-mismatch");
  ASSERT_TRUE(f);
  EXPECT_TRUE(contains(f->fix, "Restart Windows")) << f->fix;
  expect_windows_steps_only(inv, "mismatch");
}

TEST(WindowsDriver, EveryDriverFailureGivesWindowsSteps) {
  for (const int code : {nvml::ERROR_DRIVER_NOT_LOADED, nvml::ERROR_LIB_RM_VERSION_MISMATCH, nvml::ERROR_UNKNOWN}) {
    Inventory inv = windows_4060();
    inv.nvidia.driver_version.reset();
    inv.nvidia.error = ProbeError{"nvml", "nvmlInit_v2", "NVML error", code};
    expect_windows_steps_only(inv, "nvml " + std::to_string(code));
  }
  for (const int code : {cuda::ERROR_UNKNOWN, cuda::ERROR_NO_DEVICE, cuda::ERROR_STUB_LIBRARY,
                         cuda::ERROR_SYSTEM_NOT_READY, cuda::ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE,
                         cuda::ERROR_SYSTEM_DRIVER_MISMATCH, cuda::ERROR_NOT_INITIALIZED}) {
    Inventory inv = windows_4060();
    inv.cuda.available = false;
    inv.cuda.device_count = 0;
    inv.cuda.error = ProbeError{"cuda", "cuInit", "CUDA error", code};
    expect_windows_steps_only(inv, "cuda " + std::to_string(code));
  }
  Inventory hung = windows_4060();
  hung.nvidia.timed_out = true;
  expect_windows_steps_only(hung, "timeout");
  // The same driver state on Linux keeps its Linux steps (the Windows texts are not used there).
  Inventory linux_machine = windows_4060();
  linux_machine.os.family = "linux";
  linux_machine.os.windows.reset();
  linux_machine.nvidia.kernel_module_loaded = true;
  linux_machine.nvidia.driver_version.reset();
  linux_machine.nvidia.error = ProbeError{"nvml", "nvmlInit_v2", "NVML error", nvml::ERROR_LIB_RM_VERSION_MISMATCH};
  const Evaluation linux_evaluation = run(linux_machine);  // kept: find() points into it
  const Finding* f = find(linux_evaluation, "driver-library-mismatch");
  ASSERT_TRUE(f);
  EXPECT_TRUE(contains(f->fix, "modprobe")) << f->fix;
}

TEST(WindowsMachine, AnAmdCardGetsTheCpuWheelAndTheRoutesThatExist) {
  Inventory inv;
  inv.cpu.arch = "x86_64";
  inv.os.family = "windows";
  inv.os.windows = WindowsInfo{"22631.4460", "23H2", "Professional", true};
  Gpu g;
  g.vendor = "amd";
  g.name = "AMD Radeon RX 7900 XTX";
  g.memory_total_bytes = 24ULL << 30;
  inv.gpus.push_back(g);
  inv.python.probed = true;
  inv.python.version = "3.12.7";
  inv.python.executable = "C:\\Users\\li\\AppData\\Local\\Programs\\Python\\Python312\\python.exe";
  const Verdict v = diagnose::diagnose(inv);
  ASSERT_TRUE(diagnose::torch_command(v.plan));
  EXPECT_TRUE(contains(*diagnose::torch_command(v.plan), "whl/cpu")) << *diagnose::torch_command(v.plan);
  const Finding* f = nullptr;
  for (const auto& x : v.findings)
    if (x.code == "no-nvidia-gpu") f = &x;
  ASSERT_TRUE(f);
  EXPECT_TRUE(contains(f->fix, "no ROCm build for Windows")) << f->fix;
  EXPECT_TRUE(contains(f->fix, "WSL2")) << f->fix;
  EXPECT_TRUE(contains(f->fix, "torch-directml")) << f->fix;
  expect_windows_steps_only(inv, "amd");
}

TEST(WindowsMachine, AnIntelArcGetsTheWindowsXpuWheel) {
  Inventory inv;
  inv.cpu.arch = "x86_64";
  inv.os.family = "windows";
  Gpu g;
  g.vendor = "intel";
  g.name = "Intel(R) Arc(TM) B580 Graphics";
  inv.gpus.push_back(g);
  const TorchChoice choice = choose_torch(inv);
  EXPECT_EQ(choice.index, "xpu") << choice.command;
  EXPECT_TRUE(choice.command.starts_with("python -m pip install")) << choice.command;
}

TEST(WindowsPython, TheStoreAliasIsNamedInsteadOfPythonMissing) {
  Inventory inv = windows_4060();
  inv.python.version.reset();
  inv.python.executable.reset();
  inv.python.error = ProbeError{"python", "python", "no Python interpreter found", std::nullopt};
  inv.python.store_alias = "C:\\Users\\mei\\AppData\\Local\\Microsoft\\WindowsApps\\python.exe";
  const auto e = run(inv);
  const Finding* f = find(e, "python-store-alias");
  ASSERT_TRUE(f);
  EXPECT_TRUE(contains(f->message, "WindowsApps")) << f->message;
  EXPECT_TRUE(contains(f->fix, "python.org")) << f->fix;
  EXPECT_TRUE(contains(f->fix, "winget install Python.Python.3.12")) << f->fix;
  EXPECT_TRUE(contains(f->fix, "App execution aliases")) << f->fix;
  EXPECT_FALSE(find(e, "python-missing"));
  // Without the alias, python-missing gives the Windows way to get Python and a venv.
  inv.python.store_alias.reset();
  const Evaluation without_alias = run(inv);  // kept: find() points into it
  const Finding* missing = find(without_alias, "python-missing");
  ASSERT_TRUE(missing);
  EXPECT_TRUE(contains(missing->fix, ".venv\\Scripts\\activate")) << missing->fix;
  expect_windows_steps_only(inv, "python missing");
  // The same fields on Linux: no Store, no alias finding.
  inv.os.family = "linux";
  inv.python.store_alias = "/x";
  EXPECT_FALSE(find(run(inv), "python-store-alias"));
}

TEST(WindowsMachine, LongPathsOffIsAdvisedOnlyWhenKnownOff) {
  Inventory inv = windows_4060();
  const auto before = run(inv);
  EXPECT_FALSE(find(before, "windows-long-paths"));
  inv.os.windows->long_paths_enabled = false;
  const auto e = run(inv);
  const Finding* f = find(e, "windows-long-paths");
  ASSERT_TRUE(f);
  EXPECT_TRUE(contains(f->fix, "LongPathsEnabled -Value 1 -PropertyType DWORD -Force")) << f->fix;
  // Advisory: the verdict stays what it was without it.
  EXPECT_EQ(e.blocked, before.blocked);
  EXPECT_EQ(e.needs_action, before.needs_action);
  EXPECT_EQ(e.findings.size(), before.findings.size() + 1);
  inv.os.windows->long_paths_enabled.reset();
  EXPECT_FALSE(find(run(inv), "windows-long-paths"));
}

TEST(WindowsMachine, TccIsANoteAndWddmIsNothing) {
  Inventory inv = windows_4060();
  EXPECT_FALSE(find(run(inv), "driver-model-tcc"));
  inv.gpus[0].driver_model = "TCC";
  const auto e = run(inv);
  const Finding* f = find(e, "driver-model-tcc");
  ASSERT_TRUE(f);
  EXPECT_TRUE(contains(f->fix, "-dm 0")) << f->fix;
  EXPECT_FALSE(e.blocked);
}

TEST(WindowsMachine, LowDiskLooksAtTheSystemDrive) {
  Inventory inv = windows_4060();
  inv.disks.push_back(Disk{"C:\\", "", "NTFS", 512ULL << 30, 9ULL << 30, std::nullopt});
  inv.disks.push_back(Disk{"D:\\", "", "NTFS", 1024ULL << 30, 5ULL << 30, std::nullopt});
  const auto e = run(inv);
  const Finding* f = find(e, "low-disk");
  ASSERT_TRUE(f);
  EXPECT_TRUE(contains(f->message, "C:\\")) << f->message;
  EXPECT_TRUE(contains(f->fix, "%USERPROFILE%")) << f->fix;
  EXPECT_EQ(std::count_if(e.findings.begin(), e.findings.end(), [](const Finding& x) { return x.code == "low-disk"; }), 1);
}

TEST(WindowsDriver, ACudaCodeWhoseRuleIsLinuxOnlyIsStillReported) {
  for (const int code : {cuda::ERROR_STUB_LIBRARY, cuda::ERROR_SYSTEM_NOT_READY, cuda::ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE}) {
    Inventory inv = windows_4060();
    inv.cuda.available = false;
    inv.cuda.error = ProbeError{"cuda", "cuInit", "CUDA error", code};
    const auto e = run(inv);
    EXPECT_TRUE(find(e, "cuda-init-failed")) << code;
    EXPECT_FALSE(find(e, "cuda-stub-library") || find(e, "fabric-manager") || find(e, "driver-too-old")) << code;
  }
}

TEST(WindowsDriver, WindowsFormOfTheDriverVersionIsNvidias) {
  EXPECT_EQ(nvidia_version_from_windows("32.0.15.8157")->str(), "581.57");
  EXPECT_EQ(nvidia_version_from_windows("31.0.15.5222")->str(), "552.22");
  EXPECT_EQ(nvidia_version_from_windows("30.0.14.7141")->str(), "471.41");
  EXPECT_EQ(nvidia_version_from_windows("32.0.15.6094")->str(), "560.94");
  for (const char* bad : {"", "581.57", "32.0.15", "32.0.15.81570", "a.b.c.d"})
    EXPECT_FALSE(nvidia_version_from_windows(bad)) << bad;
  // NVML down before the restart: the registry's version still decides the wheel, with no driver update asked.
  Inventory inv = windows_4060();
  inv.nvidia.driver_version.reset();
  inv.nvidia.windows_driver_version = "32.0.15.8157";
  inv.nvidia.error = ProbeError{"nvml", "nvmlInit_v2", "mismatch", nvml::ERROR_LIB_RM_VERSION_MISMATCH};
  const TorchChoice choice = choose_torch(inv);
  ASSERT_TRUE(choice.cuda);
  EXPECT_TRUE(choice.cuda->starts_with("13.")) << *choice.cuda;
  EXPECT_FALSE(choice.driver_needed);
}
