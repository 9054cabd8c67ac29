// The real binary against fake drivers, recorded sysroots and fake torch: every verdict code is produced here.
#include <algorithm>
#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "e2e_support.hpp"

using e2e::merge;
using nlohmann::json;

namespace {

using e2e::finding_codes;

json doctor(std::map<std::string, std::string> env, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"doctor", "--json", "--timeout", "2"};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto run = e2e::run_gpuscout(args, std::move(env));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return run.json();
}

std::map<std::string, std::string> no_python() { return {{"GPUSCOUT_PYTHON", "/nonexistent/python3"}}; }

}  // namespace

struct DriverCase {
  std::string scenario, sysroot, torch;
  std::string status;
  std::vector<std::string> expected_codes;
};

class DriverScenario : public ::testing::TestWithParam<DriverCase> {};

TEST_P(DriverScenario, VerdictAndCodes) {
  const auto& c = GetParam();
  auto env = merge({e2e::fake_driver_env(c.scenario), e2e::sysroot_env(c.sysroot),
                    c.torch.empty() ? no_python() : e2e::fake_torch_env(c.torch)});
  const json doc = doctor(env, c.torch.empty() ? std::vector<std::string>{"--no-python"} : std::vector<std::string>{});
  ASSERT_FALSE(doc.is_null());
  EXPECT_EQ(doc["schema"], "gpuscout.inventory/1");
  EXPECT_EQ(doc["verdict"]["status"], c.status) << doc["verdict"].dump(2);
  const auto got = finding_codes(doc);
  for (const auto& code : c.expected_codes) EXPECT_TRUE(got.count(code)) << "missing " << code << " in " << doc["verdict"].dump(2);
  for (const auto& f : doc["verdict"]["findings"]) {
    EXPECT_FALSE(f["message"].get<std::string>().empty());
    EXPECT_FALSE(f["fix"].get<std::string>().empty());
    EXPECT_TRUE(f["severity"] == "error" || f["severity"] == "warning" || f["severity"] == "info");
  }
}

INSTANTIATE_TEST_SUITE_P(
    Fakes, DriverScenario,
    ::testing::Values(
        DriverCase{"rtx4090", "no-gpu-vm", "", "ready", {}},
        DriverCase{"rtx4090", "no-gpu-vm", "cu121-ok", "ready", {}},
        DriverCase{"rtx4090", "no-gpu-vm", "cpu", "needs-action", {"torch-cpu-only"}},
        DriverCase{"no-device", "no-gpu-vm", "", "cpu-only", {"no-gpu"}},
        DriverCase{"driver-not-loaded", "laptop-intel-nvidia", "", "needs-action", {"nvidia-driver-not-loaded", "laptop"}},
        DriverCase{"lib-mismatch", "no-gpu-vm", "", "needs-action", {"driver-library-mismatch"}},
        DriverCase{"hang", "no-gpu-vm", "", "needs-action", {"driver-probe-timeout"}},
        DriverCase{"kepler-k80", "no-gpu-vm", "", "needs-action", {"gpu-too-old"}},
        DriverCase{"kepler-k80", "no-gpu-vm", "k80-new-torch", "needs-action", {"gpu-too-old"}},
        DriverCase{"blackwell-5090", "no-gpu-vm", "cu121-blackwell", "needs-action", {"gpu-unsupported-by-torch"}},
        DriverCase{"blackwell-5090", "no-gpu-vm", "cu128", "ready", {}},
        DriverCase{"colab-t4", "colab-t4", "cu121-ok", "ready", {"cloud-notebook"}},
        DriverCase{"two-mixed", "no-gpu-vm", "", "ready", {"mixed-vram"}},
        DriverCase{"low-vram", "no-gpu-vm", "", "ready", {"low-vram"}},
        DriverCase{"stub", "no-gpu-vm", "", "needs-action", {"cuda-stub-library"}},
        DriverCase{"fabric-manager", "no-gpu-vm", "", "needs-action", {"fabric-manager"}},
        DriverCase{"uvm-missing", "no-gpu-vm", "", "needs-action", {"cuda-init-failed"}},
        DriverCase{"cuda-too-old", "no-gpu-vm", "cu130-old-driver", "needs-action", {"driver-too-old-for-torch"}},
        DriverCase{"cuda-compat", "no-gpu-vm", "", "needs-action", {"driver-too-old"}},
        // A broken PyTorch is a step to take before training: not ready (issue 11).
        DriverCase{"rtx4090", "no-gpu-vm", "import-error", "needs-action", {"torch-broken"}},
        DriverCase{"nvml-errors", "no-gpu-vm", "", "ready", {}},
        DriverCase{"rtx4090", "no-gpu-vm", "cu130-old-driver", "needs-action", {"torch-cuda-unavailable"}},
        DriverCase{"slurm-two-a100", "slurm-node-numa", "", "ready", {"gpu-far-numa"}},
        DriverCase{"a100-retired-pages", "slurm-node-numa", "", "needs-action", {"gpu-memory-errors"}}),
    [](const auto& param_info) {
      std::string n = param_info.param.scenario + "_" + param_info.param.sysroot + "_" + (param_info.param.torch.empty() ? "nopy" : param_info.param.torch);
      for (auto& ch : n)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return n;
    });

TEST(Doctor, NoDriverLaptopNeedsDriver) {
  const json doc = doctor(merge({e2e::sysroot_env("laptop-intel-nvidia"), no_python()}), {"--no-python"});
  // The recorded laptop has the kernel module but gpuscout's default test env points NVML at a missing library.
  EXPECT_EQ(doc["verdict"]["status"], "needs-action");
  EXPECT_TRUE(finding_codes(doc).count("laptop"));
}

TEST(Doctor, SlurmStepPinnedToTheOtherNumaNode) {
  // Two A100s hang off node 1; Slurm's step cgroup pins the job to four cores (and their threads) of node 0.
  const json doc = doctor(merge({e2e::fake_driver_env("slurm-two-a100"), e2e::sysroot_env("slurm-node-numa"), no_python()}),
                          {"--no-python"});
  ASSERT_FALSE(doc.is_null());
  EXPECT_EQ(doc["cpu"]["allowed_cpus"], "0-3,32-35");
  ASSERT_EQ(doc["cpu"]["numa_nodes"].size(), 2u);
  EXPECT_EQ(doc["cpu"]["numa_nodes"][1]["cpus"], "16-31,48-63");
  EXPECT_EQ(doc["cpu"]["numa_nodes"][1]["memory_total_bytes"], 132096612ULL * 1024);
  for (const auto& g : doc["gpus"]) EXPECT_EQ(g["numa_node"], 1) << g["pci_bus_id"];
  // The step's memory.max, two levels above the task's own cgroup, is the limit.
  EXPECT_EQ(doc["memory"]["cgroup_limit_bytes"], 8ULL << 30);
  const json* far = e2e::finding(doc, "gpu-far-numa");
  ASSERT_NE(far, nullptr) << doc["verdict"].dump(2);
  EXPECT_NE((*far)["message"].get<std::string>().find("GPU 0"), std::string::npos);
  EXPECT_NE((*far)["message"].get<std::string>().find("GPU 1"), std::string::npos);
  EXPECT_NE((*far)["fix"].get<std::string>().find("numactl --cpunodebind=1 --membind=1"), std::string::npos);
  EXPECT_EQ(std::count_if(doc["verdict"]["findings"].begin(), doc["verdict"]["findings"].end(),
                          [](const json& f) { return f["code"] == "gpu-far-numa"; }),
            1);
  EXPECT_FALSE(finding_codes(doc).count("small-dev-shm")) << "a host's /dev/shm";
  // `info` names the nodes and each GPU's node.
  const auto info = e2e::run_gpuscout({"info", "--no-python"},
                                      merge({e2e::fake_driver_env("slurm-two-a100"), e2e::sysroot_env("slurm-node-numa"), no_python()}));
  EXPECT_NE(info.out.find("2 nodes: 0 (CPUs 0-15,32-47"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("this process: CPUs 0-3,32-35"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("NUMA node 1"), std::string::npos) << info.out;
}

TEST(Doctor, A100WithARetiredPageWaitingForAReset) {
  // The same Slurm node; its second A100 retired a page for a double-bit error and remapped a row, both pending.
  const auto env = merge({e2e::fake_driver_env("a100-retired-pages"), e2e::sysroot_env("slurm-node-numa"), no_python()});
  const json doc = doctor(env, {"--no-python"});
  ASSERT_FALSE(doc.is_null());
  ASSERT_EQ(doc["gpus"].size(), 2u);
  const json& healthy = doc["gpus"][0]["memory_health"];
  EXPECT_EQ(healthy["ecc_enabled"], true);
  EXPECT_EQ(healthy["ecc_errors_uncorrected_volatile"], 0);
  EXPECT_TRUE(healthy["retired_pages_dbe"].is_null()) << "the scenario's first GPU answers no retired-page calls";
  EXPECT_EQ(healthy["remapped_rows_pending"], false);
  const json& sick = doc["gpus"][1]["memory_health"];
  EXPECT_EQ(sick["ecc_errors_uncorrected_volatile"], 1);
  EXPECT_EQ(sick["ecc_errors_uncorrected_aggregate"], 1);
  EXPECT_EQ(sick["ecc_errors_corrected_volatile"], 12);
  EXPECT_EQ(sick["retired_pages_sbe"], 0);
  EXPECT_EQ(sick["retired_pages_dbe"], 1);
  EXPECT_EQ(sick["retired_pages_pending"], true);
  EXPECT_EQ(sick["remapped_rows_correctable"], 0);
  EXPECT_EQ(sick["remapped_rows_uncorrectable"], 1);
  EXPECT_EQ(sick["remapped_rows_pending"], true);
  EXPECT_EQ(sick["remapped_rows_failed"], false);
  EXPECT_TRUE(sick["ecc_pending_enabled"].is_null()) << "the pending mode is written only when it differs";
  EXPECT_TRUE(doc["gpus"][1]["errors"].empty()) << doc["gpus"][1]["errors"].dump();
  const json* f = e2e::finding(doc, "gpu-memory-errors");
  ASSERT_NE(f, nullptr) << doc["verdict"].dump(2);
  EXPECT_NE((*f)["message"].get<std::string>().find("GPU 1"), std::string::npos) << (*f)["message"];
  EXPECT_NE((*f)["fix"].get<std::string>().find("nvidia-smi -r -i 1"), std::string::npos) << (*f)["fix"];
  EXPECT_EQ(std::count_if(doc["verdict"]["findings"].begin(), doc["verdict"]["findings"].end(),
                          [](const json& x) { return x["code"] == "gpu-memory-errors"; }),
            1)
      << "the healthy GPU has no finding";
  // info --json carries the same facts.
  const auto info = e2e::run_gpuscout({"info", "--json", "--no-python"}, env);
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_EQ(info.json()["gpus"][1]["memory_health"]["retired_pages_dbe"], 1);
}

TEST(Doctor, DockerWithDefaultShmAndCgroupV1Limits) {
  const json doc = doctor(merge({e2e::sysroot_env("docker-small-shm"), no_python()}), {"--no-python"});
  ASSERT_FALSE(doc.is_null());
  EXPECT_EQ(doc["os"]["container"], "docker");
  EXPECT_EQ(doc["memory"]["shm_total_bytes"], 64ULL << 20);
  EXPECT_EQ(doc["memory"]["cgroup_limit_bytes"], 16ULL << 30) << "v1 memory.limit_in_bytes";
  EXPECT_EQ(doc["cpu"]["cpu_quota"], 4.0) << "v1 cfs_quota_us / cfs_period_us";
  const json* shm = e2e::finding(doc, "small-dev-shm");
  ASSERT_NE(shm, nullptr) << doc["verdict"].dump(2);
  EXPECT_NE((*shm)["fix"].get<std::string>().find("--shm-size"), std::string::npos);
  EXPECT_TRUE(doc["cpu"]["numa_nodes"].empty()) << "the container shows no node directory";
  EXPECT_FALSE(finding_codes(doc).count("gpu-far-numa"));
}

TEST(Doctor, NouveauHoldsTheCard) {
  const json doc = doctor(merge({e2e::sysroot_env("desktop-nouveau"), no_python()}), {"--no-python"});
  EXPECT_EQ(doc["verdict"]["status"], "needs-action");
  EXPECT_TRUE(finding_codes(doc).count("nouveau-driver")) << doc["verdict"].dump(2);
}

TEST(Doctor, AwsVmWithoutDriverLibraryIsMissingDriver) {
  const json doc = doctor(merge({e2e::sysroot_env("cloud-vm-aws"), no_python()}), {"--no-python"});
  // Kernel module loaded but no user-space library: the driver install is broken or partial.
  EXPECT_EQ(doc["verdict"]["status"], "needs-action");
  EXPECT_TRUE(finding_codes(doc).count("nvidia-driver-missing")) << doc["verdict"].dump(2);
  EXPECT_EQ(doc["platform"]["kind"], "cloud-vm");
  EXPECT_EQ(doc["platform"]["cloud"], "aws");
}

TEST(Doctor, AmdDesktopIsNotNvidia) {
  const json doc = doctor(merge({e2e::sysroot_env("desktop-amd"), no_python()}), {"--no-python"});
  EXPECT_EQ(doc["verdict"]["status"], "cpu-only");
  EXPECT_TRUE(finding_codes(doc).count("no-nvidia-gpu"));
  bool rocm = false;
  for (const auto& f : doc["verdict"]["findings"])
    if (f["code"] == "no-nvidia-gpu" && f["fix"].get<std::string>().find("rocm") != std::string::npos) rocm = true;
  EXPECT_TRUE(rocm) << "AMD advice names the ROCm build";
}

TEST(Doctor, SmallMachineWarnsAboutRamAndDisk) {
  // The malformed sysroot has garbage everywhere; a tiny-disk machine is made here from the container fixture.
  const json doc = doctor(merge({e2e::sysroot_env("kaggle-p100"), no_python()}), {"--no-python"});
  EXPECT_TRUE(finding_codes(doc).count("cloud-notebook"));
}

TEST(Doctor, LowRamAndLowDiskFromSavedInventory) {
  // Take a real inventory, shrink its RAM and disk, and diagnose it through --from.
  const auto saved = e2e::run_gpuscout({"info", "--json", "--no-python"}, e2e::sysroot_env("no-gpu-vm"));
  ASSERT_EQ(saved.exit_code, 0) << saved.err;
  json doc = saved.json();
  doc["memory"]["total_bytes"] = 4ULL << 30;
  ASSERT_FALSE(doc["disks"].empty());
  doc["disks"][0]["mount"] = "/";
  doc["disks"][0]["free_bytes"] = 2ULL << 30;
  const std::string path = e2e::temp_dir() + "/small.json";
  std::ofstream(path) << doc.dump();
  const json out = doctor({}, {"--from", path});
  EXPECT_TRUE(finding_codes(out).count("low-ram")) << out["verdict"].dump(2);
  EXPECT_TRUE(finding_codes(out).count("low-disk")) << out["verdict"].dump(2);
}

TEST(Doctor, TorchMissingSuggestsInstall) {
  // A Python without torch: PYTHONPATH empty, no fake torch; the real interpreter on this machine may lack torch.
  auto env = merge({e2e::fake_driver_env("rtx4090"), e2e::sysroot_env("no-gpu-vm"),
                    {{"GPUSCOUT_PYTHON", "python3"}, {"PYTHONPATH", e2e::temp_dir()}, {"PYTHONNOUSERSITE", "1"}}});
  const auto run = e2e::run_gpuscout({"doctor", "--json"}, env);
  const json doc = run.json();
  if (doc["torch"].is_null() && doc["python"]["version"].is_string()) {
    EXPECT_TRUE(finding_codes(doc).count("torch-missing"));
    for (const auto& f : doc["verdict"]["findings"])
      if (f["code"] == "torch-missing") EXPECT_NE(f["fix"].get<std::string>().find("download.pytorch.org/whl/cu130"), std::string::npos);
  } else {
    GTEST_SKIP() << "python3 here has torch installed; torch-missing is covered when it does not";
  }
}

TEST(Doctor, JsonContractFields) {
  const json doc = doctor(merge({e2e::fake_driver_env("rtx4090"), e2e::sysroot_env("no-gpu-vm"), e2e::fake_torch_env("cu121-ok")}));
  for (const char* key : {"schema", "cpu", "memory", "disks", "gpus", "nvidia", "cuda", "torch", "verdict"})
    EXPECT_TRUE(doc.contains(key)) << key;
  for (const char* key : {"vendor", "model", "physical_cores", "logical_cpus", "features"}) EXPECT_TRUE(doc["cpu"].contains(key)) << key;
  ASSERT_EQ(doc["gpus"].size(), 1u);
  const auto& g = doc["gpus"][0];
  EXPECT_EQ(g["vendor"], "nvidia");
  EXPECT_EQ(g["compute_capability"], "8.9");
  EXPECT_EQ(g["pci_bus_id"], "0000:01:00.0");
  EXPECT_TRUE(g["memory_total_bytes"].is_number());
  EXPECT_EQ(doc["nvidia"]["driver_version"], "580.95.05");
  EXPECT_EQ(doc["nvidia"]["cuda_driver_version"], "13.0");
  EXPECT_EQ(doc["cuda"]["available"], true);
  EXPECT_EQ(doc["cuda"]["device_count"], 1);
  EXPECT_EQ(doc["torch"]["cuda"], "12.1");
  EXPECT_TRUE(doc["torch"]["arch_list"].is_array());
}

TEST(Doctor, MemoryUsedComesFromV2AndMatchesNvidiaSmi) {
  const json doc = doctor(merge({e2e::fake_driver_env("busy"), e2e::sysroot_env("no-gpu-vm")}), {"--no-python"});
  ASSERT_FALSE(doc["gpus"].empty());
  const auto& g = doc["gpus"][0];
  // v2: used excludes driver-reserved memory; total = used + free + reserved.
  EXPECT_EQ(g["memory_total_bytes"].get<uint64_t>(),
            g["memory_used_bytes"].get<uint64_t>() + g["memory_free_bytes"].get<uint64_t>() + g["memory_reserved_bytes"].get<uint64_t>());
  EXPECT_FALSE(g["processes"].empty());
}

TEST(Doctor, OldDriverWithoutV2SymbolsStillWorks) {
  const json doc = doctor(merge({e2e::fake_driver_env("rtx4090", /*old_driver=*/true), e2e::sysroot_env("no-gpu-vm")}), {"--no-python"});
  ASSERT_EQ(doc["gpus"].size(), 1u);
  EXPECT_TRUE(doc["gpus"][0]["memory_total_bytes"].is_number());
  EXPECT_EQ(doc["gpus"][0]["pci_bus_id"], "0000:01:00.0");
}

TEST(Doctor, PciAndNvmlJoinByBusIdNotIndex) {
  // two-mixed: CUDA orders fastest first (3090 = cuda:0 at bus 02), NVML in PCI order.
  const json doc = doctor(merge({e2e::fake_driver_env("two-mixed"), e2e::sysroot_env("no-gpu-vm")}), {"--no-python"});
  ASSERT_EQ(doc["gpus"].size(), 2u);
  for (const auto& g : doc["gpus"]) {
    if (g["name"].get<std::string>().find("3090") != std::string::npos) {
      EXPECT_EQ(g["cuda_index"], 0);
      EXPECT_EQ(g["sm_count"], 82);
    } else {
      EXPECT_EQ(g["cuda_index"], 1);
      EXPECT_EQ(g["sm_count"], 28);
    }
  }
}

TEST(Device, PicksMostFreeMemoryInCudaNumbering) {
  const auto run = e2e::run_gpuscout({"device", "--no-python"}, merge({e2e::fake_driver_env("two-mixed"), e2e::sysroot_env("no-gpu-vm")}));
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out, "cuda:0\n");  // the 3090 (24 GB free) is CUDA device 0
}

TEST(Device, CpuWithoutGpu) {
  const auto run = e2e::run_gpuscout({"device", "--no-python"}, e2e::sysroot_env("no-gpu-vm"));
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out, "cpu\n");
}

TEST(Device, CpuWhenTorchIsCpuOnly) {
  const auto run = e2e::run_gpuscout({"device"}, merge({e2e::fake_driver_env("rtx4090"), e2e::sysroot_env("no-gpu-vm"), e2e::fake_torch_env("cpu")}));
  EXPECT_EQ(run.out, "cpu\n");
}

TEST(From, BadFilesExitTwoWithAClearMessage) {
  const std::string dir = e2e::temp_dir();
  std::ofstream(dir + "/empty.json") << "";
  std::ofstream(dir + "/trunc.json") << "{\"schema\": \"gpuscout.inventory/1\", \"cpu\": {";
  std::ofstream(dir + "/wrong.json") << "{\"schema\": \"something/else\"}";
  std::ofstream(dir + "/types.json") << "{\"schema\": \"gpuscout.inventory/1\", \"gpus\": \"many\"}";
  for (const char* name : {"missing.json", "empty.json", "trunc.json", "wrong.json", "types.json"}) {
    const std::string path = dir + "/" + name;
    const auto run = e2e::run_gpuscout({"doctor", "--from", path});
    EXPECT_EQ(run.exit_code, 2) << name;
    EXPECT_NE(run.err.find(path), std::string::npos) << "names the file: " << run.err;
    EXPECT_TRUE(run.out.empty()) << name;
  }
}

TEST(From, RoundTripsAnInventory) {
  auto env = merge({e2e::fake_driver_env("two-mixed"), e2e::sysroot_env("laptop-intel-nvidia"), e2e::fake_torch_env("cu121-ok")});
  const auto saved = e2e::run_gpuscout({"info", "--json"}, env);
  ASSERT_EQ(saved.exit_code, 0);
  const std::string path = e2e::temp_dir() + "/laptop.json";
  std::ofstream(path) << saved.out;
  const auto again = e2e::run_gpuscout({"info", "--json", "--from", path});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(saved.json(), again.json());
  const auto verdict_live = e2e::run_gpuscout({"doctor", "--json"}, env).json()["verdict"];
  const auto verdict_from = e2e::run_gpuscout({"doctor", "--json", "--from", path}).json()["verdict"];
  EXPECT_EQ(verdict_live, verdict_from);
}

TEST(Python, HangingImportIsCutOff) {
  // --timeout bounds drivers; the Python probe has its own bound, shortened for the test.
  auto env = merge({e2e::sysroot_env("no-gpu-vm"), e2e::fake_torch_env("hang"), {{"GPUSCOUT_PYTHON_TIMEOUT", "2"}}});
  const auto run = e2e::run_gpuscout({"doctor", "--json"}, env, 20000);
  EXPECT_EQ(run.exit_code, 0);
  const json doc = run.json();
  EXPECT_EQ(doc["python"]["timed_out"], true);
}

TEST(Python, RealDebianTorch) {
  // Debian's python3-torch (a CPU build of 1.13), installed by scripts/setup.
  std::ifstream probe("/usr/lib/python3/dist-packages/torch/__init__.py");
  if (!probe) GTEST_SKIP() << "python3-torch is not installed (scripts/setup installs it)";
  const auto run = e2e::run_gpuscout({"info", "--json"}, merge({e2e::sysroot_env("no-gpu-vm"), {{"GPUSCOUT_PYTHON", "/usr/bin/python3"}}}), 120000);
  ASSERT_EQ(run.exit_code, 0);
  const json doc = run.json();
  ASSERT_TRUE(doc["torch"].is_object()) << doc["python"].dump();
  EXPECT_EQ(doc["torch"]["version"].get<std::string>().substr(0, 4), "1.13");
  EXPECT_TRUE(doc["torch"]["cuda"].is_null());
  EXPECT_EQ(doc["torch"]["cuda_available"], false);
}

TEST(Output, JsonIsCompleteEvenWhenEverythingFails) {
  auto env = merge({e2e::fake_driver_env("hang"), e2e::sysroot_env("malformed"), e2e::fake_torch_env("import-error")});
  const auto run = e2e::run_gpuscout({"doctor", "--json", "--timeout", "1"}, env);
  EXPECT_EQ(run.exit_code, 0);
  const json doc = run.json();
  EXPECT_TRUE(doc.contains("verdict"));
}

TEST(Doctor, NoDeviceWithoutTheVariableBlamesTheContainer) {
  // The recorded machine's environment has no CUDA_VISIBLE_DEVICES, and CUDA still counts nothing (error 100: the
  // fake driver is hidden from here, standing in for device nodes the container lacks).
  auto env = merge({e2e::fake_driver_env("rtx4090"), e2e::sysroot_env("no-gpu-vm"), no_python(),
                    {{"CUDA_VISIBLE_DEVICES", ""}}});
  const json doc = doctor(env, {"--no-python"});
  EXPECT_EQ(doc["verdict"]["status"], "needs-action");
  const json* f = e2e::finding(doc, "cuda-no-device");
  ASSERT_NE(f, nullptr) << doc["verdict"].dump(2);
  EXPECT_EQ((*f)["message"].get<std::string>().find("CUDA_VISIBLE_DEVICES"), std::string::npos) << (*f)["message"];
  EXPECT_EQ(doc["verdict"]["device"], "cpu");
}

TEST(Doctor, NoPythonInterpreter) {
  auto env = merge({e2e::fake_driver_env("rtx4090"), e2e::sysroot_env("no-gpu-vm"), no_python()});
  const json doc = doctor(env);
  EXPECT_TRUE(finding_codes(doc).count("python-missing")) << doc["verdict"].dump(2);
  EXPECT_EQ(doc["verdict"]["status"], "needs-action");  // no PyTorch to train with yet
  EXPECT_EQ(doc["verdict"]["device"], "cuda:0");         // the GPU itself is fine
}
