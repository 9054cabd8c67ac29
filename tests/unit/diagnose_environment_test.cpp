// CUDA_VISIBLE_DEVICES as CUDA reads it, and the findings over the recorded environment (rules_environment.cpp,
// cuda-no-device and torch-few-threads where they quote a variable).
#include <algorithm>
#include <set>

#include <gtest/gtest.h>

#include "diagnose/context.hpp"
#include "diagnose/cuda_visible.hpp"
#include "diagnose/rules.hpp"
#include "diagnose_evaluate.hpp"
#include "diagnose_machines.hpp"
#include "vendor/cuda_abi.hpp"
#include "test_support.hpp"

using namespace gpuscout;
using namespace gpuscout::diagnose;
using gpuscout::test_machines::machine_with;
using gpuscout::test_machines::codes_of;
using gpuscout::test_machines::run;
using gpuscout::test_machines::find;
using gpuscout::test_machines::with_torch;

namespace {

/// Two NVIDIA GPUs: an RTX 3060 at 01:00.0 and an RTX 3090 at 02:00.0 (PCI and NVML order), CUDA fastest first.
Inventory two_gpus() {
  Inventory inv = machine_with("8.6", "580.95.05");
  inv.nvidia.cuda_driver_version = "13.0";
  inv.gpus[0].name = "NVIDIA GeForce RTX 3060";
  inv.gpus[0].uuid = "GPU-5f3a0c11-aaaa-bbbb-cccc-000000000001";
  inv.gpus[0].nvml_index = 0;
  inv.gpus[0].cuda_index = 1;
  Gpu second = inv.gpus[0];
  second.index = 1;
  second.name = "NVIDIA GeForce RTX 3090";
  second.pci_bus_id = "0000:02:00.0";
  second.uuid = "GPU-9c1e2d22-aaaa-bbbb-cccc-000000000002";
  second.nvml_index = 1;
  second.cuda_index = 0;
  inv.gpus.push_back(second);
  inv.cuda.device_count = 2;
  inv.environment = Environment{};
  return inv;
}

/// The machine as CUDA saw it under a CUDA_VISIBLE_DEVICES that leaves only `visible` (PCI positions) to CUDA.
Inventory with_visible(Inventory inv, const std::string& value, std::vector<size_t> visible) {
  (*inv.environment)["CUDA_VISIBLE_DEVICES"] = value;
  for (auto& g : inv.gpus) g.cuda_index.reset();
  for (size_t i = 0; i < visible.size(); ++i) inv.gpus[visible[i]].cuda_index = static_cast<int>(i);
  inv.cuda.device_count = static_cast<int>(visible.size());
  if (visible.empty()) {
    inv.cuda.available = false;
    inv.cuda.error = ProbeError{"cuda", "cuInit", "no CUDA-capable device is detected", vendor::cuda::ERROR_NO_DEVICE};
  }
  return inv;
}

using gpuscout::test_support::contains;

}  // namespace

// --- The parser: CUDA's syntax (CUDA C++ Programming Guide, "CUDA Environment Variables") ---------------------

TEST(CudaVisibleParser, IndicesUuidsAndMigInstances) {
  const auto list = parse_cuda_visible_devices(" 2, 0 ,GPU-8932f937,MIG-GPU-8932f937-d72c/1/2,MIG-4b1c");
  ASSERT_EQ(list.entries.size(), 5u);
  EXPECT_EQ(list.entries[0].kind, VisibleKind::index);
  EXPECT_EQ(list.entries[0].index, 2u);
  EXPECT_EQ(list.entries[1].index, 0u);
  EXPECT_EQ(list.entries[2].kind, VisibleKind::gpu_uuid);
  EXPECT_EQ(list.entries[2].text, "GPU-8932f937");
  EXPECT_EQ(list.entries[3].kind, VisibleKind::mig);
  EXPECT_EQ(list.entries[4].kind, VisibleKind::mig);
  EXPECT_FALSE(list.stopped_at);
}

TEST(CudaVisibleParser, StopsAtTheFirstEntryThatIsNoIdentifier) {
  // The guide's own example: "0,2,-1,1" shows devices 0 and 2.
  auto list = parse_cuda_visible_devices("0,2,-1,1");
  ASSERT_EQ(list.entries.size(), 2u);
  EXPECT_EQ(list.entries[1].index, 2u);
  EXPECT_EQ(list.stopped_at, "-1");
  EXPECT_TRUE(parse_cuda_visible_devices("").entries.empty());
  EXPECT_TRUE(parse_cuda_visible_devices("-1").entries.empty());
  EXPECT_TRUE(parse_cuda_visible_devices("none").entries.empty());
  EXPECT_TRUE(parse_cuda_visible_devices("GPU-").entries.empty());
  EXPECT_EQ(parse_cuda_visible_devices("0,,1").stopped_at, "");
  // A trailing comma ends the list where it ends anyway.
  list = parse_cuda_visible_devices("0,");
  EXPECT_EQ(list.entries.size(), 1u);
  EXPECT_FALSE(list.stopped_at);
  // An index too large for any number is no device either.
  EXPECT_TRUE(parse_cuda_visible_devices("99999999999999999999999").entries.empty());
}

TEST(CudaVisibility, AgainstTheMachinesGpus) {
  Inventory inv = two_gpus();
  EXPECT_FALSE(cuda_visibility(inv)) << "unset: nothing to apply";
  (*inv.environment)["CUDA_VISIBLE_DEVICES"] = "1,0";
  auto v = cuda_visibility(inv);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->visible, 2);
  EXPECT_TRUE(v->hidden.empty());
  // An index past the GPUs, a repeated one and an unknown UUID stop the list.
  for (const char* value : {"0,5,1", "0,0,1", "0,GPU-ffff,1"}) {
    (*inv.environment)["CUDA_VISIBLE_DEVICES"] = value;
    v = cuda_visibility(inv);
    EXPECT_EQ(v->visible, 1) << value;
    EXPECT_EQ(v->hidden, std::vector<std::string>{"1"}) << value;
  }
  // By UUID prefix, case-blind: the hidden one is named by its UUID, and it is the GPU itself.
  (*inv.environment)["CUDA_VISIBLE_DEVICES"] = "gpu-9c1e";
  v = cuda_visibility(inv);
  EXPECT_EQ(v->visible, 1);
  EXPECT_EQ(v->hidden, std::vector<std::string>{*inv.gpus[0].uuid});
  ASSERT_EQ(v->hidden_gpus.size(), 1u);
  EXPECT_EQ(v->hidden_gpus[0], &inv.gpus[0]);
  // "GPU-" alone matches both: ambiguous, so no GPU is visible.
  (*inv.environment)["CUDA_VISIBLE_DEVICES"] = "GPU-";
  EXPECT_EQ(cuda_visibility(inv)->visible, 0);
  // Not recorded at all (an older file): no visibility to speak of.
  inv.environment.reset();
  EXPECT_FALSE(cuda_visibility(inv));
}

TEST(CudaVisibility, IndicesNameGpusOnlyWhereTheOrderIsKnown) {
  // Index 0 under CUDA's default order: which GPU that is comes from the CUDA probe (it saw only the 3090).
  Inventory inv = with_visible(two_gpus(), "0", {1});
  auto v = cuda_visibility(inv);
  ASSERT_EQ(v->hidden_gpus.size(), 1u);
  EXPECT_EQ(v->hidden_gpus[0]->name, "NVIDIA GeForce RTX 3060");
  // Under PCI_BUS_ID the index is the PCI position: 0 is the 3060, so the 3090 is hidden.
  (*inv.environment)["CUDA_DEVICE_ORDER"] = "PCI_BUS_ID";
  v = cuda_visibility(inv);
  ASSERT_EQ(v->hidden_gpus.size(), 1u);
  EXPECT_EQ(v->hidden_gpus[0]->name, "NVIDIA GeForce RTX 3090");
  // Neither: the index alone is said.
  inv.environment->erase("CUDA_DEVICE_ORDER");
  inv.cuda.error = ProbeError{"cuda", "cuInit", "failed", 999};
  v = cuda_visibility(inv);
  EXPECT_EQ(v->hidden, std::vector<std::string>{"1"});
  EXPECT_TRUE(v->hidden_gpus.empty());
}

// --- The findings -------------------------------------------------------------------------------------------------

TEST(RulesEnvironment, EmptyValueHidesEveryGpuAndIsTheCause) {
  const auto e = run(with_visible(two_gpus(), "", {}));
  const auto* f = find(e, "cuda-visible-devices-empty");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, "warning");
  EXPECT_TRUE(contains(f->message, "empty value")) << f->message;
  EXPECT_TRUE(contains(f->message, "2 NVIDIA GPU")) << f->message;
  EXPECT_TRUE(contains(f->fix, "unset CUDA_VISIBLE_DEVICES")) << f->fix;
  EXPECT_TRUE(contains(f->fix, "os.environ.pop")) << f->fix;
  EXPECT_TRUE(contains(f->fix, "%env CUDA_VISIBLE_DEVICES=0")) << f->fix;
  // It blocks: cuda-no-device (the container guess) does not repeat it.
  EXPECT_TRUE(e.blocked);
  EXPECT_FALSE(codes_of(e).count("cuda-no-device"));
  // "-1" hides them too, and is quoted; Windows gets PowerShell's step.
  Inventory minus = with_visible(two_gpus(), "-1", {});
  minus.os.family = "windows";
  const auto m = run(minus);
  f = find(m, "cuda-visible-devices-empty");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(contains(f->message, "CUDA_VISIBLE_DEVICES=\"-1\"")) << f->message;
  EXPECT_TRUE(contains(f->fix, "Remove-Item Env:CUDA_VISIBLE_DEVICES")) << f->fix;
  // A value that names a GPU is no trap.
  EXPECT_FALSE(codes_of(run(with_visible(two_gpus(), "0", {1}))).count("cuda-visible-devices-empty"));
}

TEST(RulesEnvironment, HidesNamesTheHiddenGpus) {
  const auto e = run(with_visible(two_gpus(), "0", {1}));
  const auto* f = find(e, "cuda-visible-devices-hides");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, "info");
  EXPECT_TRUE(contains(f->message, "CUDA_VISIBLE_DEVICES=\"0\"")) << f->message;
  EXPECT_TRUE(contains(f->message, "1 of the 2")) << f->message;
  EXPECT_TRUE(contains(f->message, "hidden: 1 (NVIDIA GeForce RTX 3060 at 0000:01:00.0)")) << f->message;
  EXPECT_FALSE(e.blocked);
  // Where the list stops early, the entry is named.
  const auto stop = run(with_visible(two_gpus(), "0,-1,1", {1}));
  f = find(stop, "cuda-visible-devices-hides");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(contains(f->message, "only up to \"-1\"")) << f->message;
  // Every GPU listed: nothing hidden.
  EXPECT_FALSE(codes_of(run(with_visible(two_gpus(), "1,0", {1, 0}))).count("cuda-visible-devices-hides"));
}

TEST(RulesEnvironment, DeviceOrderOnlyWhereTheGpusReorder) {
  // The 3090 is CUDA's 0 and nvidia-smi's 1.
  const auto e = run(two_gpus());
  const auto* f = find(e, "cuda-device-order");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(contains(f->message, "cuda:0 is nvidia-smi's GPU 1 (NVIDIA GeForce RTX 3090)")) << f->message;
  EXPECT_TRUE(contains(f->fix, "CUDA_DEVICE_ORDER=PCI_BUS_ID")) << f->fix;
  // The same order in both, the variable set, or no recorded environment: silent.
  Inventory same = two_gpus();
  same.gpus[0].cuda_index = 0;
  same.gpus[1].cuda_index = 1;
  EXPECT_FALSE(codes_of(run(same)).count("cuda-device-order"));
  Inventory chosen = two_gpus();
  (*chosen.environment)["CUDA_DEVICE_ORDER"] = "FASTEST_FIRST";
  EXPECT_FALSE(codes_of(run(chosen)).count("cuda-device-order"));
  Inventory old = two_gpus();
  old.environment.reset();
  EXPECT_FALSE(codes_of(run(old)).count("cuda-device-order"));
}

TEST(RulesEnvironment, LaunchBlockingOnlyWhenOne) {
  Inventory inv = two_gpus();
  (*inv.environment)["CUDA_DEVICE_ORDER"] = "PCI_BUS_ID";
  (*inv.environment)["CUDA_LAUNCH_BLOCKING"] = "1";
  const auto e = run(inv);
  const auto* f = find(e, "cuda-launch-blocking");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, "info");
  EXPECT_TRUE(contains(f->fix, "unset CUDA_LAUNCH_BLOCKING")) << f->fix;
  (*inv.environment)["CUDA_LAUNCH_BLOCKING"] = "0";
  EXPECT_FALSE(codes_of(run(inv)).count("cuda-launch-blocking"));
}

TEST(RulesEnvironment, NoDeviceBlamesTheVariableOnlyWhenItIsNotRecorded) {
  // Recorded and unset: the container, not CUDA_VISIBLE_DEVICES.
  Inventory unset = with_visible(two_gpus(), "", {});
  unset.environment->erase("CUDA_VISIBLE_DEVICES");
  const auto e = run(unset);
  const auto* f = find(e, "cuda-no-device");
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(contains(f->message, "CUDA_VISIBLE_DEVICES")) << f->message;
  EXPECT_FALSE(contains(f->fix, "CUDA_VISIBLE_DEVICES")) << f->fix;
  EXPECT_TRUE(contains(f->fix, "--gpus all")) << f->fix;
  // Set to a GPU: quoted, and cleared.
  const auto set = run(with_visible(two_gpus(), "0", {}));
  f = find(set, "cuda-no-device");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(contains(f->message, "CUDA_VISIBLE_DEVICES=\"0\" names a GPU")) << f->message;
  // An older inventory: both causes stay possible.
  Inventory old = unset;
  old.environment.reset();
  const auto o = run(old);
  f = find(o, "cuda-no-device");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(contains(f->message, "CUDA_VISIBLE_DEVICES may hide it")) << f->message;
}

TEST(RulesEnvironment, FewThreadsQuotesOmpNumThreads) {
  Inventory inv = with_torch(two_gpus(), "2.5.1+cu121", "12.1", true);
  (*inv.environment)["CUDA_DEVICE_ORDER"] = "PCI_BUS_ID";
  inv.cpu.logical_cpus = 16;
  inv.cpu.physical_cores = 8;
  inv.torch->num_threads = 1;
  const auto plain = run(inv);
  const auto* f = find(plain, "torch-few-threads");
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(contains(f->message, "OMP_NUM_THREADS")) << f->message;
  (*inv.environment)["OMP_NUM_THREADS"] = "1";
  const auto omp = run(inv);
  f = find(omp, "torch-few-threads");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(contains(f->message, "OMP_NUM_THREADS=\"1\" is set")) << f->message;
  EXPECT_TRUE(contains(f->fix, "OMP_NUM_THREADS=8")) << f->fix;
}

TEST(RulesEnvironment, BusyGpuThatTheListHidesIsNotReported) {
  Inventory inv = two_gpus();
  (*inv.environment)["CUDA_DEVICE_ORDER"] = "PCI_BUS_ID";
  inv.gpus[0].utilization_gpu_pct = 95;  // the 3060, busy with someone else's job
  EXPECT_TRUE(codes_of(run(inv)).count("gpu-busy"));
  (*inv.environment)["CUDA_VISIBLE_DEVICES"] = "GPU-9c1e";  // only the 3090 for this process
  EXPECT_FALSE(codes_of(run(inv)).count("gpu-busy"));
}

TEST(RulesEnvironment, MixedMemoryCountsOnlyTheGpusThisProcessSees) {
  Inventory inv = two_gpus();
  (*inv.environment)["CUDA_DEVICE_ORDER"] = "PCI_BUS_ID";
  inv.gpus[0].memory_total_bytes = 12ULL << 30;
  EXPECT_TRUE(codes_of(run(inv)).count("mixed-vram"));
  (*inv.environment)["CUDA_VISIBLE_DEVICES"] = "1";  // the 24 GiB card alone, by PCI position
  EXPECT_FALSE(codes_of(run(inv)).count("mixed-vram"));
}
