#include <gtest/gtest.h>

#include "core/version.hpp"
#include "diagnose/diagnose.hpp"
#include "diagnose_machines.hpp"

using namespace gpuscout;

using gpuscout::test_machines::machine_with;

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
