// The rules table through its context: one test per family of rules, each checking the codes that fire and
// that a blocking finding hides the rules that need an unblocked GPU.
#include <algorithm>
#include <set>

#include <gtest/gtest.h>

#include "diagnose/context.hpp"
#include "diagnose/rules.hpp"
#include "diagnose/torch_choice.hpp"
#include "diagnose_evaluate.hpp"
#include "diagnose_machines.hpp"
#include "vendor/cuda_abi.hpp"
#include "vendor/nvml_abi.hpp"

using namespace gpuscout;
using namespace gpuscout::diagnose;
namespace cuda = gpuscout::vendor::cuda;
namespace nvml = gpuscout::vendor::nvml;
using gpuscout::test_machines::machine_with;
using gpuscout::test_machines::codes_of;
using gpuscout::test_machines::run;
using gpuscout::test_machines::find;
using gpuscout::test_machines::with_torch;

namespace {

/// One working RTX 4090-like GPU: driver 580 (CUDA 13.0), CUDA available, no Python probed.
Inventory working_machine(const std::string& cc = "8.9", uint64_t memory = 24ULL << 30) {
  Inventory inv = machine_with(cc, "580.95.05", memory);
  inv.nvidia.cuda_driver_version = "13.0";
  return inv;
}

/// The GPU as the driver sees it when NVML fails with `nvml_code` and cuInit with `cuda_code`.
Inventory failing_driver(std::optional<int> nvml_code, std::optional<int> cuda_code) {
  Inventory inv = working_machine();
  if (nvml_code) {
    inv.nvidia.driver_version.reset();
    inv.nvidia.cuda_driver_version.reset();
    inv.nvidia.error = ProbeError{"nvml", "nvmlInit_v2", "NVML error", *nvml_code};
  }
  if (cuda_code) {
    inv.cuda.available = false;
    inv.cuda.device_count = 0;
    inv.cuda.error = ProbeError{"cuda", "cuInit", "CUDA error", *cuda_code};
  }
  return inv;
}

/// The codes of the rules that need an unblocked GPU.
std::set<std::string> gated_codes() {
  std::set<std::string> out;
  for (const auto& r : rules())
    if (r.gate == Gate::unblocked) out.insert(std::string(r.code));
  return out;
}

}  // namespace

TEST(RulesTable, EachCodeOnceWithADescription) {
  std::set<std::string_view> seen;
  for (const auto& r : rules()) {
    EXPECT_TRUE(seen.insert(r.code).second) << "two rules emit " << r.code;
    EXPECT_FALSE(r.description.empty()) << r.code;
    EXPECT_NE(r.check, nullptr) << r.code;
  }
}

TEST(RulesTable, AWorkingMachineHasNoFinding) {
  const auto e = run(working_machine());
  EXPECT_FALSE(e.blocked);
  EXPECT_TRUE(e.findings.empty()) << e.findings.front().code;
}

TEST(RulesDriverNotLoaded, Nvml9HidesTheCudaRules) {
  // driver-not-loaded: NVML 9, cuInit 100. The module is the cause; "CUDA sees no device" is its consequence.
  const auto e = run(failing_driver(nvml::ERROR_DRIVER_NOT_LOADED, cuda::ERROR_NO_DEVICE));
  EXPECT_TRUE(e.blocked);
  EXPECT_EQ(codes_of(e), (std::set<std::string>{"nvidia-driver-not-loaded"}));
}

TEST(RulesDriverNotLoaded, ModuleMissingWithoutAnNvmlCode) {
  auto inv = failing_driver(std::nullopt, cuda::ERROR_NO_DEVICE);
  inv.nvidia.driver_version.reset();
  inv.nvidia.kernel_module_loaded = false;
  EXPECT_EQ(codes_of(run(inv)), (std::set<std::string>{"nvidia-driver-not-loaded"}));
  inv.os.wsl = true;  // WSL has no nvidia module: the Windows driver serves the GPU
  EXPECT_FALSE(codes_of(run(inv)).count("nvidia-driver-not-loaded"));
}

TEST(RulesDriverMissing, NoLibraryOrABrokenOne) {
  auto inv = working_machine();
  inv.nvidia = NvidiaInfo{};
  inv.cuda = CudaInfo{};
  const auto e = run(inv);
  ASSERT_NE(find(e, "nvidia-driver-missing"), nullptr);
  EXPECT_NE(find(e, "nvidia-driver-missing")->message.find("no NVIDIA driver is installed"), std::string::npos);
  inv.nvidia.library_found = true;
  inv.nvidia.kernel_module_loaded = true;
  inv.nvidia.error = ProbeError{"nvml", "dlsym", "nvmlInit_v2 missing", std::nullopt};
  const auto broken = run(inv);
  ASSERT_NE(find(broken, "nvidia-driver-missing"), nullptr);
  EXPECT_NE(find(broken, "nvidia-driver-missing")->message.find("nvmlInit_v2 missing"), std::string::npos);
}

TEST(RulesLibMismatch, Nvml18HidesCuda803) {
  const auto e = run(failing_driver(nvml::ERROR_LIB_RM_VERSION_MISMATCH, cuda::ERROR_SYSTEM_DRIVER_MISMATCH));
  EXPECT_TRUE(e.blocked);
  EXPECT_EQ(codes_of(e), (std::set<std::string>{"driver-library-mismatch"}));
  EXPECT_NE(e.findings[0].fix.find("Reboot"), std::string::npos);
}

TEST(RulesHang, TimeoutHidesEveryGatedRule) {
  auto inv = failing_driver(std::nullopt, cuda::ERROR_UNKNOWN);
  inv.nvidia.uvm_loaded = false;
  inv.nvidia.timed_out = true;
  inv = with_torch(inv, "2.9.1+cu130", "13.0", false);
  const auto e = run(inv);
  EXPECT_TRUE(e.blocked);
  EXPECT_EQ(codes_of(e), (std::set<std::string>{"driver-probe-timeout"}));
  // Without a GPU in the list, a hung driver still means "needs action", not "no GPU".
  inv.gpus.clear();
  const auto no_gpus = run(inv);
  EXPECT_TRUE(codes_of(no_gpus).count("driver-probe-timeout"));
  EXPECT_FALSE(codes_of(no_gpus).count("no-gpu"));
}

TEST(RulesCudaErrors, EachCuInitCodeHasItsRule) {
  struct Case {
    int code;
    std::string rule;
  };
  for (const Case& c : {Case{cuda::ERROR_SYSTEM_NOT_READY, "fabric-manager"},
                        Case{cuda::ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE, "driver-too-old"},
                        Case{cuda::ERROR_NO_DEVICE, "cuda-no-device"}, Case{cuda::ERROR_STUB_LIBRARY, "cuda-stub-library"},
                        Case{cuda::ERROR_NOT_INITIALIZED, "cuda-init-failed"},
                        Case{cuda::ERROR_DEVICE_UNAVAILABLE, "cuda-init-failed"},
                        Case{cuda::ERROR_SYSTEM_DRIVER_MISMATCH, "cuda-init-failed"},
                        Case{cuda::ERROR_UNKNOWN, "cuda-init-failed"}}) {
    const auto e = run(failing_driver(std::nullopt, c.code));
    EXPECT_TRUE(e.blocked) << c.code;
    EXPECT_EQ(codes_of(e), (std::set<std::string>{c.rule})) << c.code;
  }
}

TEST(RulesCudaErrors, Code35IsNotADriverApiResult) {
  // 35 is the runtime's cudaErrorInsufficientDriver; cuInit never returns it, so "driver too old" does not claim
  // it. A code no rule names is still said, with the driver's message, rather than left as a silent "cpu-only".
  const auto e = run(failing_driver(std::nullopt, 35));
  EXPECT_EQ(codes_of(e), (std::set<std::string>{"cuda-init-failed"}));
  EXPECT_NE(e.findings[0].message.find("CUDA error"), std::string::npos);
  EXPECT_TRUE(e.blocked);
}

TEST(RulesCudaErrors, Error999NamesUvmOnlyWhenItIsMissing) {
  auto inv = failing_driver(std::nullopt, cuda::ERROR_UNKNOWN);
  inv.nvidia.uvm_loaded = false;
  EXPECT_NE(run(inv).findings.at(0).message.find("nvidia_uvm"), std::string::npos);
  inv.nvidia.uvm_loaded = true;
  EXPECT_EQ(run(inv).findings.at(0).message.find("nvidia_uvm"), std::string::npos);
}

TEST(RulesCudaErrors, StubLibraryShowsBesideTheNvmlCause) {
  // The stub scenario: NVML 9 and cuInit 34. Both are causes; the CUDA rules behind them are hidden.
  const auto e = run(failing_driver(nvml::ERROR_DRIVER_NOT_LOADED, cuda::ERROR_STUB_LIBRARY));
  EXPECT_EQ(codes_of(e), (std::set<std::string>{"nvidia-driver-not-loaded", "cuda-stub-library"}));
}

TEST(RulesCudaErrors, CountingNoDeviceIsTheSameCode) {
  auto inv = working_machine();
  inv.cuda.available = false;
  inv.cuda.device_count = 0;
  const auto e = run(inv);
  EXPECT_EQ(codes_of(e), (std::set<std::string>{"cuda-no-device"}));
  EXPECT_EQ(e.findings[0].message.find("error 100"), std::string::npos);
}

TEST(RulesCudaErrors, GateIsDataNotTextOrder) {
  // The same context with a blocking cause set by hand: every gated rule is skipped, the others still run.
  const Inventory inv = failing_driver(std::nullopt, cuda::ERROR_SYSTEM_NOT_READY);
  Context ctx = make_context(inv);
  EXPECT_EQ(codes_of(evaluate(ctx)), (std::set<std::string>{"fabric-manager"}));
  ctx.nouveau = true;  // nouveau is the first rule and blocks
  const auto e = evaluate(ctx);
  EXPECT_EQ(codes_of(e), (std::set<std::string>{"nouveau-driver"}));
  for (const auto& code : gated_codes()) EXPECT_FALSE(codes_of(e).count(code)) << code;
}

TEST(RulesTorchArch, InstalledBuildWithoutTheGpusCode) {
  auto inv = working_machine("12.0", 4ULL << 30);
  inv = with_torch(inv, "2.5.1+cu121", "12.1", true);
  inv.torch->arch_list = {"sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"};
  const auto e = run(inv);
  EXPECT_TRUE(e.blocked);
  // low-vram is about a GPU that runs: not said for one the installed build cannot use.
  EXPECT_EQ(codes_of(e), (std::set<std::string>{"gpu-unsupported-by-torch"}));
  EXPECT_NE(e.findings[0].message.find("sm_120"), std::string::npos) << e.findings[0].message;
}

TEST(RulesTorchArch, TorchWarningWhenTheArchListIsEmpty) {
  auto inv = working_machine("12.0");
  inv = with_torch(inv, "2.5.1+cu121", "12.1", true);
  inv.torch->warnings = {"NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch"};
  const auto e = run(inv);
  ASSERT_NE(find(e, "gpu-unsupported-by-torch"), nullptr);
  EXPECT_NE(find(e, "gpu-unsupported-by-torch")->message.find("PyTorch warns"), std::string::npos);
}

TEST(RulesTorchArch, CapabilityWithoutADotDoesNotThrow) {
  // A --from file with "compute_capability": "12" used to throw std::out_of_range from std::string::erase.
  auto inv = working_machine("12");
  inv = with_torch(inv, "2.5.1+cu121", "12.1", true);
  inv.torch->arch_list = {"sm_80", "sm_90"};
  Evaluation e;
  ASSERT_NO_THROW(e = run(inv));
  ASSERT_NE(find(e, "gpu-unsupported-by-torch"), nullptr);
  EXPECT_NE(find(e, "gpu-unsupported-by-torch")->message.find("sm_12)"), std::string::npos);
}

TEST(RulesTorchArch, KeplerIsTooOldAndNamesItsLastRelease) {
  auto inv = working_machine("3.7");
  inv.nvidia.driver_version = "470.256.02";
  const auto e = run(inv);
  ASSERT_NE(find(e, "gpu-too-old"), nullptr);
  EXPECT_NE(find(e, "gpu-too-old")->fix.find("pip install"), std::string::npos);
  EXPECT_TRUE(e.blocked);
}

TEST(RulesTorchDriver, CudaNewerThanTheTableKnowsDoesNotCrash) {
  // No row for CUDA 99: neither a GA minimum nor a family floor. The old code dereferenced an empty optional.
  auto inv = working_machine();
  inv = with_torch(inv, "9.0.0+cu990", "99.0", false);
  const auto e = run(inv);
  const Finding* f = find(e, "driver-too-old-for-torch");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->message.find("newer than this driver supports"), std::string::npos) << f->message;
  EXPECT_NE(f->fix.find("supports CUDA 99.0"), std::string::npos) << f->fix;
  EXPECT_FALSE(codes_of(e).count("torch-cuda-unavailable"));  // gated behind the cause
}

TEST(RulesTorchDriver, BadVersionsInASavedInventoryAreUnknown) {
  for (const char* bad : {"", "abc", "-1", "x.y"}) {
    auto inv = working_machine();
    inv.nvidia.driver_version = bad;
    inv.nvidia.cuda_driver_version = bad;
    inv = with_torch(inv, "2.9.1+cu130", "13.0", true);
    Evaluation e;
    ASSERT_NO_THROW(e = run(inv)) << bad;
    EXPECT_FALSE(codes_of(e).count("driver-too-old-for-torch")) << bad;
  }
}

TEST(RulesTorchDriver, DriverBelowTheFamilyFloorBlocks) {
  auto inv = working_machine("7.0");
  inv.nvidia.driver_version = "470.256.02";
  inv.nvidia.cuda_driver_version = "11.4";
  inv = with_torch(inv, "2.9.1+cu130", "13.0", false);
  const auto e = run(inv);
  ASSERT_NE(find(e, "driver-too-old-for-torch"), nullptr);
  EXPECT_NE(find(e, "driver-too-old-for-torch")->message.find("580.65.06"), std::string::npos);
  EXPECT_FALSE(codes_of(e).count("torch-cuda-unavailable"));
}

TEST(RulesCpuOnly, CpuTorchOnAGpuMachine) {
  auto inv = working_machine();
  inv = with_torch(inv, "2.5.1+cpu", std::nullopt, false);
  const auto e = run(inv);
  EXPECT_TRUE(e.blocked);
  EXPECT_EQ(codes_of(e), (std::set<std::string>{"torch-cpu-only"}));
}

TEST(RulesCpuOnly, NoNvidiaGpuAtAll) {
  Inventory inv;
  const auto e = run(inv);
  EXPECT_FALSE(e.blocked);
  EXPECT_EQ(codes_of(e), (std::set<std::string>{"no-gpu"}));
  Gpu amd;
  amd.vendor = "amd";
  amd.name = "Radeon RX 7900 XTX";
  inv.gpus.push_back(amd);
  const auto with_amd = run(inv);
  EXPECT_EQ(codes_of(with_amd), (std::set<std::string>{"no-nvidia-gpu", "no-gpu"}));
  for (const auto& f : with_amd.findings) EXPECT_EQ(f.severity, "warning") << f.code;  // one code, one severity
}

TEST(RulesCpuOnly, ADriverThatBlocksHidesNoGpu) {
  // No GPU in the list, but libnvidia-ml says the kernel module is older than itself: a GPU is there.
  Inventory inv;
  inv.nvidia.library_found = true;
  inv.nvidia.error = ProbeError{"nvml", "nvmlInit_v2", "RM version mismatch", nvml::ERROR_LIB_RM_VERSION_MISMATCH};
  const auto e = run(inv);
  EXPECT_EQ(codes_of(e), (std::set<std::string>{"driver-library-mismatch"}));
}

TEST(TorchChoiceRows, BadTableCellsAreSkippedNotDereferenced) {
  // A --data table with a bad cell used to crash choose_torch (SIGSEGV) and torch_releases (use-after-free).
  auto row = [](std::string torch, std::optional<std::string> cuda) {
    catalog::TorchBuild b;
    b.torch = std::move(torch);
    b.cuda = std::move(cuda);
    b.platform = "linux-x86_64";
    b.arch_list = {"8.0", "8.9"};
    b.channel = "stable";
    return b;
  };
  const std::vector<catalog::TorchBuild> rows = {row("2.5", "12.4"), row("abc", "12.4"), row("2.6", "cu126"),
                                                 row("2.6", "12.6"), row("2.6", "inf"), row("2.6", "NaN"),
                                                 row("2.6", "-1"), row("", "x")};
  EXPECT_EQ(torch_releases(rows), (std::vector<std::string>{"2.6", "2.5"}));
  const auto fits = fitting_builds(rows, "2.6", "linux-x86_64", {"8.9"});
  ASSERT_EQ(fits.size(), 1u);
  EXPECT_EQ(fits[0]->cuda, "12.6");
}

namespace {

/// A machine whose chosen Python (PATH's) has no torch.
Inventory python_without_torch(const std::string& version) {
  Inventory inv = working_machine();
  inv.python.probed = true;
  inv.python.executable = "/home/u/.pyenv/versions/" + version + "/bin/python";
  inv.python.version = version;
  inv.python.selected_by = "PATH";
  return inv;
}

}  // namespace

TEST(RulesPython, TorchMissingNamesTheInterpreterAndTheOthersThatHaveTorch) {
  Inventory inv = python_without_torch("3.12.3");
  auto alone = run(inv);
  const Finding* f = find(alone, "torch-missing");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->message.find("/home/u/.pyenv/versions/3.12.3/bin/python (chosen from PATH)"), std::string::npos)
      << f->message;
  EXPECT_EQ(f->message.find("has torch"), std::string::npos) << f->message;

  inv.python.others.push_back(OtherPython{"/usr/bin/python3", "3.11.2", "2.5.1+cu121", "12.1"});
  auto with_other = run(inv);
  f = find(with_other, "torch-missing");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->message.find("/usr/bin/python3 has torch 2.5.1+cu121"), std::string::npos) << f->message;
  EXPECT_NE(f->fix.find("gpuscout --python /usr/bin/python3"), std::string::npos) << f->fix;
  EXPECT_NE(f->fix.find(make_context(inv).torch_choice.command), std::string::npos) << f->fix;
}

TEST(RulesPython, AnInterpreterOlderThanTheNewestReleaseSupportsIsTooOld) {
  const Inventory old = python_without_torch("2.7.18");
  const auto floor = make_context(old).python.floor;
  ASSERT_TRUE(floor.has_value()) << "data/torch_builds.csv gives the newest release's python_min";
  for (const std::string version : {"2.7.18", "3.6.15"}) {
    const auto e = run(python_without_torch(version));
    const Finding* f = find(e, "python-too-old");
    ASSERT_NE(f, nullptr) << version;
    EXPECT_NE(f->message.find("Python " + version + " is too old for PyTorch"), std::string::npos) << f->message;
    EXPECT_NE(f->fix.find("Install Python " + *floor + " or newer"), std::string::npos) << f->fix;
    EXPECT_EQ(find(e, "torch-missing"), nullptr) << "one finding for one cause";
  }
  // The floor itself is new enough: torch is only missing.
  const auto at_floor = run(python_without_torch(*floor + ".0"));
  EXPECT_EQ(find(at_floor, "python-too-old"), nullptr);
  EXPECT_NE(find(at_floor, "torch-missing"), nullptr);
}

TEST(RulesPython, AnOldPythonWithAWorkingTorchIsLeftAlone) {
  Inventory inv = with_torch(python_without_torch("3.8.18"), "2.4.1+cu121", "12.1", true);
  inv.python.torch_installed = true;
  EXPECT_EQ(find(run(inv), "python-too-old"), nullptr);
}

TEST(RulesPython, NoInterpreterFoundStillNamesTheOthers) {
  Inventory inv = working_machine();
  inv.python.probed = true;
  inv.python.selected_by = "GPUSCOUT_PYTHON";
  inv.python.error = ProbeError{"python", "/opt/missing/python3", "not found in PATH", std::nullopt};
  inv.python.others.push_back(OtherPython{"/opt/conda/bin/python", "3.12.1", "2.7.1+cu128", "12.8"});
  const auto e = run(inv);
  const Finding* f = find(e, "python-missing");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->message.find("/opt/missing/python3 (from GPUSCOUT_PYTHON)"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("/opt/conda/bin/python has torch 2.7.1+cu128"), std::string::npos) << f->message;
}

TEST(RulesMachineMemory, SmallDevShmOnlyInAContainerTheUserRuns) {
  Inventory inv = working_machine();
  inv.memory.shm_total_bytes = 64ULL << 20;  // Docker's default
  EXPECT_FALSE(codes_of(run(inv)).count("small-dev-shm")) << "a host's /dev/shm is sized by the OS";
  inv.os.container = "docker";
  const auto docker = run(inv);
  ASSERT_TRUE(find(docker, "small-dev-shm"));
  EXPECT_NE(find(docker, "small-dev-shm")->fix.find("--shm-size"), std::string::npos);
  inv.os.container = "kubernetes";
  const auto k8s = run(inv);
  ASSERT_TRUE(find(k8s, "small-dev-shm"));
  EXPECT_NE(find(k8s, "small-dev-shm")->fix.find("emptyDir"), std::string::npos);
  inv.platform.notebook = "colab";
  EXPECT_FALSE(codes_of(run(inv)).count("small-dev-shm")) << "a hosted notebook's user cannot resize it";
  inv.platform.notebook.reset();
  inv.memory.shm_total_bytes = 8ULL << 30;
  EXPECT_FALSE(codes_of(run(inv)).count("small-dev-shm"));
}

TEST(RulesMachineNuma, FarGpuNamesItsNodeInTheNumactlLine) {
  Inventory inv = working_machine();
  ASSERT_FALSE(inv.gpus.empty());
  inv.cpu.numa_nodes = {NumaNode{0, "0-15", 64ULL << 30}, NumaNode{1, "16-31", 64ULL << 30}};
  for (auto& g : inv.gpus) g.numa_node = 1;
  inv.cpu.allowed_cpus = "0-7";  // pinned to node 0, as a scheduler does
  const auto pinned = run(inv);
  const Finding* f = find(pinned, "gpu-far-numa");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->message.find("NUMA node 1"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("CPUs 0-7 (node 0)"), std::string::npos) << f->message;
  EXPECT_NE(f->fix.find("numactl --cpunodebind=1 --membind=1"), std::string::npos) << f->fix;
  // Any allowed CPU on the GPU's node, one node, or a node nobody knows: nothing to say.
  inv.cpu.allowed_cpus = "0-7,16";
  EXPECT_FALSE(codes_of(run(inv)).count("gpu-far-numa"));
  inv.cpu.allowed_cpus = "0-7";
  inv.cpu.numa_nodes.pop_back();
  EXPECT_FALSE(codes_of(run(inv)).count("gpu-far-numa")) << "one node: every CPU is near";
  inv.cpu.numa_nodes.push_back(NumaNode{1, "16-31", 64ULL << 30});
  for (auto& g : inv.gpus) g.numa_node.reset();
  EXPECT_FALSE(codes_of(run(inv)).count("gpu-far-numa")) << "numa_node -1: the kernel does not know";
  for (auto& g : inv.gpus) g.numa_node = 1;
  inv.cpu.allowed_cpus.reset();
  EXPECT_FALSE(codes_of(run(inv)).count("gpu-far-numa")) << "unknown affinity";
}

TEST(RulesMachineNuma, TwoGpusOnOneFarNodeGiveOneFinding) {
  Inventory inv = working_machine();
  inv.gpus.push_back(inv.gpus.front());
  inv.gpus.back().index = 1;
  inv.cpu.numa_nodes = {NumaNode{0, "0-15", std::nullopt}, NumaNode{1, "16-31", std::nullopt}};
  for (auto& g : inv.gpus) g.numa_node = 1;
  inv.cpu.allowed_cpus = "0-15";
  const auto e = run(inv);
  EXPECT_EQ(std::count_if(e.findings.begin(), e.findings.end(), [](const Finding& x) { return x.code == "gpu-far-numa"; }), 1);
  const Finding* f = find(e, "gpu-far-numa");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->message.find("GPU 0"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("GPU 1"), std::string::npos) << f->message;
}

TEST(RulesMachineMemory, LowRamCountsTheContainerLimit) {
  Inventory inv = working_machine();
  inv.memory.total_bytes = 64ULL << 30;
  EXPECT_FALSE(codes_of(run(inv)).count("low-ram"));
  inv.memory.cgroup_limit_bytes = 4ULL << 30;
  const auto limited = run(inv);
  ASSERT_TRUE(find(limited, "low-ram"));
  EXPECT_NE(find(limited, "low-ram")->message.find("4"), std::string::npos);
  // Said as a limit (the machine has more), with the fix where the limit is set, not "add swap".
  EXPECT_NE(find(limited, "low-ram")->message.find("cgroup limit"), std::string::npos);
  EXPECT_NE(find(limited, "low-ram")->message.find("64"), std::string::npos);
  EXPECT_NE(find(limited, "low-ram")->fix.find("--mem"), std::string::npos);
  EXPECT_EQ(find(limited, "low-ram")->fix.find("swap"), std::string::npos);
  inv.memory.cgroup_limit_bytes.reset();
  inv.memory.total_bytes = 4ULL << 30;
  const auto small = run(inv);
  ASSERT_TRUE(find(small, "low-ram"));
  EXPECT_EQ(find(small, "low-ram")->message.find("cgroup"), std::string::npos);
}

TEST(RulesTorchCpu, FewThreadsNamesTheUsableCpusAndTheFix) {
  Inventory inv = with_torch(working_machine(), "2.5.1+cu121", "12.1", true);
  inv.cpu.logical_cpus = 16;  // hyper-threads: PyTorch's default is one thread per physical core
  inv.cpu.physical_cores = 8;
  inv.torch->num_threads = 1;
  const auto eight = run(inv);  // a finding points into its evaluation: keep the evaluation alive
  const auto* f = find(eight, "torch-few-threads");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, "info");  // a performance hint, never ahead of what blocks the GPU
  EXPECT_NE(f->message.find("1 CPU threads of the 8 physical cores"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("up to 8 times faster"), std::string::npos) << f->message;
  EXPECT_NE(f->fix.find("torch.set_num_threads(8)"), std::string::npos) << f->fix;
  // A cgroup quota of 1.5 CPUs leaves 2 usable: the fix asks for 2, not for the 8 the affinity allows.
  inv.cpu.cpu_quota = 1.5;
  const auto quota = run(inv);
  f = find(quota, "torch-few-threads");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->fix.find("OMP_NUM_THREADS=2"), std::string::npos) << f->fix;
  // As many threads as usable cores, or a torch that does not say: nothing to tell.
  inv.torch->num_threads = 2;
  EXPECT_FALSE(codes_of(run(inv)).count("torch-few-threads"));
  // 5 threads of 6 cores: under 1.5 times, not worth a line; 4 of 6 reads "1.5 times", never "1x".
  inv.cpu.cpu_quota.reset();
  inv.cpu.physical_cores = 6;
  inv.torch->num_threads = 5;
  EXPECT_FALSE(codes_of(run(inv)).count("torch-few-threads"));
  inv.torch->num_threads = 4;
  const auto four = run(inv);
  ASSERT_NE(find(four, "torch-few-threads"), nullptr);
  EXPECT_NE(find(four, "torch-few-threads")->message.find("up to 1.5 times faster"), std::string::npos);
  inv.torch->num_threads.reset();
  EXPECT_FALSE(codes_of(run(inv)).count("torch-few-threads"));
}

TEST(RulesTorchCpu, DebugBuildOnlyWhenTorchSaysSo) {
  Inventory inv = with_torch(working_machine(), "2.5.1+cu121", "12.1", true);
  EXPECT_FALSE(codes_of(run(inv)).count("torch-debug-build"));
  inv.torch->debug = false;
  EXPECT_FALSE(codes_of(run(inv)).count("torch-debug-build"));
  inv.torch->debug = true;
  const auto debug = run(inv);
  const auto* f = find(debug, "torch-debug-build");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->message.find("2.5.1+cu121"), std::string::npos) << f->message;
}

TEST(RulesMachineMemoryHealth, TheWorstFactOfAGpuDecidesTheAdvice) {
  Inventory inv = working_machine();
  ASSERT_FALSE(inv.gpus.empty());
  EXPECT_FALSE(codes_of(run(inv)).count("gpu-memory-errors")) << "no health facts (a GeForce card)";
  MemoryHealth healthy;
  healthy.ecc_enabled = true;
  healthy.ecc_errors_uncorrected_volatile = 0;
  healthy.remapped_rows_pending = false;
  healthy.remapped_rows_failed = false;
  inv.gpus[0].memory_health = healthy;
  EXPECT_FALSE(codes_of(run(inv)).count("gpu-memory-errors")) << "ECC on, nothing wrong";

  inv.gpus[0].memory_health->ecc_errors_uncorrected_volatile = 2;
  auto out = run(inv);
  const Finding* f = find(out, "gpu-memory-errors");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, "warning");
  EXPECT_NE(f->message.find("2 uncorrectable memory (ECC) errors"), std::string::npos) << f->message;
  EXPECT_NE(f->fix.find("Rerun"), std::string::npos) << f->fix;

  inv.gpus[0].memory_health->retired_pages_pending = true;
  out = run(inv);
  f = find(out, "gpu-memory-errors");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->message.find("waiting to be retired"), std::string::npos) << f->message;
  EXPECT_NE(f->fix.find("nvidia-smi -r -i 0"), std::string::npos) << f->fix;
  inv.gpus[0].memory_health->retired_pages_pending.reset();
  inv.gpus[0].memory_health->remapped_rows_pending = true;
  EXPECT_NE(find(run(inv), "gpu-memory-errors"), nullptr) << "a pending remap needs the same reset";

  inv.gpus[0].memory_health->remapped_rows_failed = true;
  out = run(inv);
  f = find(out, "gpu-memory-errors");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->fix.find("RMA"), std::string::npos) << f->fix;
  EXPECT_EQ(std::count_if(out.findings.begin(), out.findings.end(),
                          [](const Finding& x) { return x.code == "gpu-memory-errors"; }),
            1)
      << "one finding per GPU, the worst";
}
