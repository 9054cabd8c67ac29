// What Windows adds to the NVIDIA probes, through the vendor floor's tables in process (on Linux, as every test
// here): the driver model from NVML, the LUID from the CUDA driver, the DXGI adapter joined by that LUID, and
// the places nvml.dll and nvcuda.dll are looked for.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "nvml_one_gpu.hpp"
#include "probe/sources.hpp"
#include "vendor/library_path.hpp"

namespace {

namespace nvml = gpuscout::vendor::nvml;
namespace cuda = gpuscout::vendor::cuda;
namespace vendor = gpuscout::vendor;
using gpuscout::probe::probe_cuda_driver;
using gpuscout::probe::probe_nvml;

// --- NVML: the driver model ---
struct WindowsNvmlState {
  nvml::Return driver_model = nvml::SUCCESS;
  int current = nvml::DRIVER_WDDM, pending = nvml::DRIVER_WDDM;
} windows_nvml;

nvml::Return n_driver_model(nvml::Device, nvml::DriverModel* current, nvml::DriverModel* pending) {
  if (windows_nvml.driver_model != nvml::SUCCESS) return windows_nvml.driver_model;
  *current = static_cast<nvml::DriverModel>(windows_nvml.current);
  *pending = static_cast<nvml::DriverModel>(windows_nvml.pending);
  return nvml::SUCCESS;
}

nvml::Functions windows_nvml_table(bool with_driver_model = true) {
  nvml::Functions f = gpuscout::test_nvml::one_gpu_table();
  if (with_driver_model) f.device_driver_model = {&n_driver_model, "nvmlDeviceGetDriverModel_v2"};
  return f;
}

class WindowsNvml : public ::testing::Test {
 protected:
  void SetUp() override { windows_nvml = WindowsNvmlState{}; }
};

TEST_F(WindowsNvml, DriverModelIsNamedAsNvidiaSmiNamesIt) {
  const std::pair<int, const char*> cases[] = {
      {nvml::DRIVER_WDDM, "WDDM"}, {nvml::DRIVER_WDM, "TCC"}, {nvml::DRIVER_MCDM, "MCDM"}};
  for (const auto& [value, name] : cases) {
    windows_nvml.current = value;
    const auto report = probe_nvml(windows_nvml_table());
    ASSERT_EQ(report.gpus.size(), 1u);
    EXPECT_EQ(report.gpus[0].driver_model, std::optional<std::string>(name)) << value;
    EXPECT_TRUE(report.gpus[0].errors.empty());
  }
}

TEST_F(WindowsNvml, TheCurrentModelIsReportedNotThePendingOne) {
  windows_nvml.current = nvml::DRIVER_WDDM;  // `nvidia-smi -dm TCC` run, the reboot still to come
  windows_nvml.pending = nvml::DRIVER_WDM;
  EXPECT_EQ(probe_nvml(windows_nvml_table()).gpus[0].driver_model, "WDDM");
}

TEST_F(WindowsNvml, LinuxDriversNotSupportingItAreSilent) {
  windows_nvml.driver_model = nvml::ERROR_NOT_SUPPORTED;
  const auto report = probe_nvml(windows_nvml_table());
  EXPECT_FALSE(report.gpus[0].driver_model);
  EXPECT_TRUE(report.gpus[0].errors.empty());
  const auto old = probe_nvml(windows_nvml_table(false));  // a library without the call at all
  EXPECT_FALSE(old.gpus[0].driver_model);
  EXPECT_TRUE(old.gpus[0].errors.empty());
}

TEST_F(WindowsNvml, AFailingCallIsRecordedWithItsName) {
  windows_nvml.driver_model = nvml::ERROR_GPU_IS_LOST;
  const auto report = probe_nvml(windows_nvml_table());
  EXPECT_FALSE(report.gpus[0].driver_model);
  ASSERT_EQ(report.gpus[0].errors.size(), 1u);
  EXPECT_EQ(report.gpus[0].errors[0].what, "nvmlDeviceGetDriverModel_v2");
  EXPECT_EQ(report.gpus[0].errors[0].message, "GPU is lost");
  EXPECT_EQ(report.gpus[0].errors[0].code, nvml::ERROR_GPU_IS_LOST);
}

TEST_F(WindowsNvml, AModelThisTableLacksIsUnknown) {
  windows_nvml.current = 7;
  const auto report = probe_nvml(windows_nvml_table());
  EXPECT_FALSE(report.gpus[0].driver_model);
  EXPECT_TRUE(report.gpus[0].errors.empty());
}

TEST(WindowsVendorTables, ResolveTheNewestNameFirst) {
  std::vector<std::string> asked;
  const auto n = nvml::resolve([&](const char* name) -> void* {
    asked.emplace_back(name);
    return std::strcmp(name, "nvmlDeviceGetDriverModel") == 0 ? reinterpret_cast<void*>(&n_driver_model) : nullptr;
  });
  const auto v2 = std::find(asked.begin(), asked.end(), "nvmlDeviceGetDriverModel_v2");
  ASSERT_NE(v2, asked.end());
  ASSERT_NE(v2 + 1, asked.end());
  EXPECT_EQ(*(v2 + 1), "nvmlDeviceGetDriverModel");
  EXPECT_STREQ(n.device_driver_model.name, "nvmlDeviceGetDriverModel");  // an older driver's only name
  EXPECT_TRUE(n.device_driver_model);
  std::vector<std::string> cuda_asked;
  const auto c = cuda::resolve([&](const char* name) -> void* {
    cuda_asked.emplace_back(name);
    return nullptr;
  });
  EXPECT_NE(std::find(cuda_asked.begin(), cuda_asked.end(), "cuDeviceGetLuid"), cuda_asked.end());
  EXPECT_FALSE(c.device_get_luid);
}

// --- CUDA: the LUID ---
struct WindowsCudaState {
  cuda::Status luid = cuda::SUCCESS;
  unsigned char bytes[8] = {0xc4, 0xe1, 0, 0, 0, 0, 0, 0};  // LowPart 0x0000e1c4, HighPart 0
} windows_cuda;

cuda::Status windows_c_init(unsigned) { return cuda::SUCCESS; }
cuda::Status windows_c_count(int* c) {
  *c = 1;
  return cuda::SUCCESS;
}
cuda::Status c_luid(char* luid, unsigned* node_mask, cuda::Device) {
  if (windows_cuda.luid != cuda::SUCCESS) return windows_cuda.luid;
  std::memcpy(luid, windows_cuda.bytes, 8);
  *node_mask = 1;
  return cuda::SUCCESS;
}

cuda::Functions windows_cuda_table() {
  cuda::Functions f;
  f.init = {&windows_c_init, "cuInit"};
  f.device_get_count = {&windows_c_count, "cuDeviceGetCount"};
  f.device_get_luid = {&c_luid, "cuDeviceGetLuid"};
  return f;
}

class WindowsCuda : public ::testing::Test {
 protected:
  void SetUp() override { windows_cuda = WindowsCudaState{}; }
};

TEST_F(WindowsCuda, LuidIsWrittenHighPartFirstAsDxgisIs) {
  auto info = probe_cuda_driver(windows_cuda_table());
  ASSERT_EQ(info.devices.size(), 1u);
  EXPECT_EQ(info.devices[0].luid, "0x00000000:0x0000e1c4");
  const unsigned char both[8] = {0x78, 0x56, 0x34, 0x12, 0x01, 0x00, 0x00, 0x80};  // LowPart, then HighPart
  std::memcpy(windows_cuda.bytes, both, 8);
  info = probe_cuda_driver(windows_cuda_table());
  EXPECT_EQ(info.devices[0].luid, "0x80000001:0x12345678");
}

TEST_F(WindowsCuda, NoLuidWhereTheDriverHasNone) {
  windows_cuda.luid = cuda::ERROR_NOT_SUPPORTED;  // Linux
  auto info = probe_cuda_driver(windows_cuda_table());
  EXPECT_FALSE(info.devices[0].luid);
  EXPECT_FALSE(info.error);
  windows_cuda = WindowsCudaState{};
  std::memset(windows_cuda.bytes, 0, 8);  // an all-zero LUID names no adapter
  info = probe_cuda_driver(windows_cuda_table());
  EXPECT_FALSE(info.devices[0].luid);
}

TEST(WindowsLuid, TextHasEightLowerCaseDigitsPerPart) {
  EXPECT_EQ(gpuscout::probe::luid_text(0, 0x1a2b3), "0x00000000:0x0001a2b3");
  EXPECT_EQ(gpuscout::probe::luid_text(0xFFFFFFFFu, 0xABCDEF01u), "0xffffffff:0xabcdef01");
}

// --- The join: a DXGI adapter has a LUID and no bus id ---
TEST(WindowsJoin, DxgiAdapterTakesTheBusIdOfTheCudaDeviceWithItsLuid) {
  gpuscout::Inventory inv;
  gpuscout::Gpu intel, nvidia;
  intel.vendor = "intel";
  intel.name = "Intel(R) Iris(R) Xe Graphics";
  intel.luid = "0x00000000:0x0000d2f1";
  intel.sources = {"dxgi"};
  nvidia.vendor = "nvidia";
  nvidia.name = "NVIDIA GeForce RTX 4060 Laptop GPU";
  nvidia.luid = "0x00000000:0x0000e1c4";
  nvidia.pci_device_id = 0x28e0;
  nvidia.sources = {"dxgi"};
  inv.gpus = {intel, nvidia};
  gpuscout::CudaDevice d;
  d.name = "NVIDIA GeForce RTX 4060 Laptop GPU";
  d.pci_bus_id = "0000:01:00.0";
  d.luid = "0x00000000:0x0000e1c4";
  d.sm_count = 24;
  inv.cuda.devices = {d};
  gpuscout::probe::NvmlReport report;
  gpuscout::Gpu n;
  n.vendor = "nvidia";
  n.name = "NVIDIA GeForce RTX 4060 Laptop GPU";
  n.pci_bus_id = "0000:01:00.0";
  n.nvml_index = 0;
  n.driver_model = "WDDM";
  n.sources = {"nvml"};
  report.gpus = {n};
  gpuscout::probe::join_gpus(inv, report);
  ASSERT_EQ(inv.gpus.size(), 2u);  // no third entry for NVML's or CUDA's view of the same card
  const auto& g = inv.gpus[0];     // the one with a bus id sorts first
  EXPECT_EQ(g.pci_bus_id, "0000:01:00.0");
  EXPECT_EQ(g.luid, "0x00000000:0x0000e1c4");
  EXPECT_EQ(g.nvml_index, 0);
  EXPECT_EQ(g.cuda_index, 0);
  EXPECT_EQ(g.sm_count, 24);
  EXPECT_EQ(g.sources, (std::vector<std::string>{"dxgi", "nvml", "cuda"}));
  EXPECT_EQ(inv.gpus[1].vendor, "intel");
  EXPECT_FALSE(inv.gpus[1].pci_bus_id);
}

// --- Where the libraries are looked for ---
TEST(WindowsLibraryNames, NvmlFromSystem32ThenTheNvsmiFolder) {
  using vendor::LibraryOs;
  EXPECT_EQ(vendor::nvml_library_names(LibraryOs::windows, std::string("C:\\Program Files")),
            (std::vector<std::string>{"nvml.dll", "C:\\Program Files\\NVIDIA Corporation\\NVSMI\\nvml.dll"}));
  EXPECT_EQ(vendor::nvml_library_names(LibraryOs::windows, std::string("D:\\Programme\\")),
            (std::vector<std::string>{"nvml.dll", "D:\\Programme\\NVIDIA Corporation\\NVSMI\\nvml.dll"}));
  EXPECT_EQ(vendor::nvml_library_names(LibraryOs::windows, std::nullopt), (std::vector<std::string>{"nvml.dll"}));
  EXPECT_EQ(vendor::nvml_library_names(LibraryOs::posix, std::string("C:\\Program Files")),
            (std::vector<std::string>{"libnvidia-ml.so.1"}));
  EXPECT_EQ(vendor::cuda_library_names(LibraryOs::windows), (std::vector<std::string>{"nvcuda.dll"}));
  EXPECT_EQ(vendor::cuda_library_names(LibraryOs::posix), (std::vector<std::string>{"libcuda.so.1"}));
}

TEST(WindowsLibraryNames, EveryPlaceTriedIsNamedWhenNoneLoads) {
  // A variable nobody sets (this file also runs as part of the Windows unit-test program, which has no unsetenv).
  const auto r = vendor::open_library("GPUSCOUT_TEST_NEVER_SET_LIBRARY", {"libgpuscout-none-1.so.1", "libgpuscout-none-2.so.1"});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("libgpuscout-none-1.so.1"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("libgpuscout-none-2.so.1"), std::string::npos) << r.error().message;
}

}  // namespace
