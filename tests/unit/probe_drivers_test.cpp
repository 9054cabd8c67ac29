// The NVML and CUDA probe logic through the vendor floor's tables of functions, in process: the calls a driver
// answers, the ones an old driver lacks, the errors it returns, and the strings it writes.
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "probe/sources.hpp"

namespace {

namespace nvml = gpuscout::vendor::nvml;
namespace cuda = gpuscout::vendor::cuda;
using gpuscout::probe::probe_cuda_driver;
using gpuscout::probe::probe_nvml;

// --- NVML ---
struct NvmlState {
  nvml::Return init = nvml::SUCCESS;
  unsigned count = 1;
  nvml::Return by_index = nvml::SUCCESS;
  const char* name = "NVIDIA GeForce RTX 4090";
  const char* driver = "570.86.16";
  nvml::Return memory_v2 = nvml::SUCCESS;
  int shutdowns = 0;
} g_nvml;

nvml::Device device_handle() { return reinterpret_cast<nvml::Device>(static_cast<uintptr_t>(0x1000)); }
nvml::Return n_init() { return g_nvml.init; }
nvml::Return n_shutdown() {
  ++g_nvml.shutdowns;
  return nvml::SUCCESS;
}
const char* n_error_string(nvml::Return r) { return r == nvml::ERROR_LIB_RM_VERSION_MISMATCH ? "RM has detected an NVML/RM version mismatch." : "Unknown Error"; }
nvml::Return n_driver_version(char* buf, unsigned size) {
  std::snprintf(buf, size, "%s", g_nvml.driver);
  return nvml::SUCCESS;
}
nvml::Return n_cuda_version(int* v) {
  *v = 12080;
  return nvml::SUCCESS;
}
nvml::Return n_count(unsigned* c) {
  *c = g_nvml.count;
  return nvml::SUCCESS;
}
nvml::Return n_by_index(unsigned, nvml::Device* d) {
  *d = device_handle();
  return g_nvml.by_index;
}
nvml::Return n_name(nvml::Device, char* buf, unsigned size) {
  std::snprintf(buf, size, "%s", g_nvml.name);
  return nvml::SUCCESS;
}
nvml::Return n_pci_v1(nvml::Device, nvml::PciInfoV1* p) {
  std::snprintf(p->busId, sizeof p->busId, "%s", "0000:01:00.0");  // the legacy 16-byte form
  p->pciDeviceId = 0x268410de;
  return nvml::SUCCESS;
}
nvml::Return n_memory_v2(nvml::Device, nvml::MemoryV2* m) {
  if (g_nvml.memory_v2 != nvml::SUCCESS) return g_nvml.memory_v2;
  EXPECT_EQ(m->version, nvml::kMemoryV2Version);
  m->total = 24ull << 30;
  m->reserved = 512ull << 20;
  m->used = 1ull << 30;
  m->free = m->total - m->reserved - m->used;
  return nvml::SUCCESS;
}
nvml::Return n_memory_v1(nvml::Device, nvml::Memory* m) {
  m->total = 24ull << 30;
  m->used = 2ull << 30;
  m->free = 22ull << 30;
  return nvml::SUCCESS;
}
nvml::Return n_power(nvml::Device, unsigned*) { return nvml::ERROR_NOT_SUPPORTED; }

nvml::Functions nvml_table() {
  nvml::Functions f;
  f.init = {&n_init, "nvmlInit_v2"};
  f.shutdown = {&n_shutdown, "nvmlShutdown"};
  f.error_string = {&n_error_string, "nvmlErrorString"};
  f.system_driver_version = {&n_driver_version, "nvmlSystemGetDriverVersion"};
  f.system_cuda_driver_version = {&n_cuda_version, "nvmlSystemGetCudaDriverVersion_v2"};
  f.device_count = {&n_count, "nvmlDeviceGetCount_v2"};
  f.device_by_index = {&n_by_index, "nvmlDeviceGetHandleByIndex_v2"};
  f.device_name = {&n_name, "nvmlDeviceGetName"};
  f.device_pci_info_v1 = {&n_pci_v1, "nvmlDeviceGetPciInfo"};  // an old driver: no _v3/_v2
  f.device_memory_info_v2 = {&n_memory_v2, "nvmlDeviceGetMemoryInfo_v2"};
  f.device_memory_info = {&n_memory_v1, "nvmlDeviceGetMemoryInfo"};
  f.device_power_usage = {&n_power, "nvmlDeviceGetPowerUsage"};
  return f;
}

class NvmlProbe : public ::testing::Test {
 protected:
  void SetUp() override { g_nvml = NvmlState{}; }
};

TEST_F(NvmlProbe, ReadsSystemAndDeviceThroughTheTable) {
  const auto report = probe_nvml(nvml_table());
  ASSERT_FALSE(report.info.error);
  EXPECT_EQ(report.info.driver_version, "570.86.16");
  EXPECT_EQ(report.info.cuda_driver_version, "12.8");
  ASSERT_EQ(report.gpus.size(), 1u);
  const auto& g = report.gpus[0];
  EXPECT_EQ(g.name, "NVIDIA GeForce RTX 4090");
  EXPECT_EQ(g.pci_bus_id, "0000:01:00.0");  // from the v1 layout
  EXPECT_EQ(g.pci_vendor_id, 0x10de);
  EXPECT_EQ(g.pci_device_id, 0x2684);
  EXPECT_EQ(g.memory_total_bytes, 24ull << 30);
  EXPECT_EQ(g.memory_reserved_bytes, 512ull << 20);
  // An unsupported call is recorded with its name; an absent one (temperature) is silent.
  ASSERT_EQ(g.errors.size(), 1u);
  EXPECT_EQ(g.errors[0].what, "nvmlDeviceGetPowerUsage");
  EXPECT_EQ(g.errors[0].code, nvml::ERROR_NOT_SUPPORTED);
  EXPECT_FALSE(g.temperature_c);
  EXPECT_EQ(g_nvml.shutdowns, 1);
}

TEST_F(NvmlProbe, InitFailureNamesTheCallAndKeepsTheCode) {
  g_nvml.init = nvml::ERROR_LIB_RM_VERSION_MISMATCH;
  const auto report = probe_nvml(nvml_table());
  ASSERT_TRUE(report.info.error);
  EXPECT_EQ(report.info.error->what, "nvmlInit_v2");
  EXPECT_EQ(report.info.error->code, nvml::ERROR_LIB_RM_VERSION_MISMATCH);
  EXPECT_EQ(report.info.error->message, "RM has detected an NVML/RM version mismatch.");
  EXPECT_TRUE(report.gpus.empty());
}

TEST_F(NvmlProbe, MissingInitIsNotAnNvmlLibrary) {
  auto table = nvml_table();
  table.init = {};
  const auto report = probe_nvml(table);
  ASSERT_TRUE(report.info.error);
  EXPECT_NE(report.info.error->message.find("not an NVML library"), std::string::npos);
}

TEST_F(NvmlProbe, FallsBackToTheV1MemoryCall) {
  auto table = nvml_table();
  table.device_memory_info_v2 = {};
  const auto report = probe_nvml(table);
  ASSERT_EQ(report.gpus.size(), 1u);
  EXPECT_EQ(report.gpus[0].memory_used_bytes, 2ull << 30);
  EXPECT_FALSE(report.gpus[0].memory_reserved_bytes);
}

// A v2 call that fails while the v1 fallback fills the figures is no error of the probe's.
TEST_F(NvmlProbe, FailingV2MemoryCallIsNoErrorWhenV1Answers) {
  g_nvml.memory_v2 = nvml::ERROR_ARGUMENT_VERSION_MISMATCH;
  const auto report = probe_nvml(nvml_table());
  ASSERT_EQ(report.gpus.size(), 1u);
  const auto& g = report.gpus[0];
  EXPECT_EQ(g.memory_used_bytes, 2ull << 30);
  for (const auto& e : g.errors) EXPECT_NE(e.what, "nvmlDeviceGetMemoryInfo_v2");
}

// NVML's two-call protocol: more processes than the first room answers INSUFFICIENT_SIZE with the real count.
unsigned g_processes = 0;
nvml::Return n_processes(nvml::Device, unsigned* count, nvml::ProcessInfo* infos) {
  if (*count < g_processes) {
    *count = g_processes;
    return nvml::ERROR_INSUFFICIENT_SIZE;
  }
  for (unsigned i = 0; i < g_processes; ++i) infos[i] = nvml::ProcessInfo{1000 + i, 1ull << 20, 0, 0};
  *count = g_processes;
  return nvml::SUCCESS;
}

TEST_F(NvmlProbe, MoreThan64ProcessesAreAllListed) {
  auto table = nvml_table();
  table.device_compute_processes = {&n_processes, "nvmlDeviceGetComputeRunningProcesses_v3"};
  for (unsigned n : {0u, 3u, 64u, 65u, 200u}) {
    g_processes = n;
    const auto report = probe_nvml(table);
    ASSERT_EQ(report.gpus.size(), 1u);
    EXPECT_EQ(report.gpus[0].processes.size(), n) << n;
    if (n > 0) EXPECT_EQ(report.gpus[0].processes.back().pid, 1000 + n - 1) << n;
    for (const auto& e : report.gpus[0].errors) EXPECT_NE(e.what, "nvmlDeviceGetComputeRunningProcesses_v3") << n;
  }
}

// nvmlDeviceGetTemperature is deprecated since CUDA 13.0: the versioned call is asked first.
nvml::Return n_temperature_v(nvml::Device, nvml::Temperature* t) {
  if (t->version != nvml::kTemperatureV1Version || t->sensorType != nvml::TEMPERATURE_GPU)
    return nvml::ERROR_ARGUMENT_VERSION_MISMATCH;
  t->temperature = 47;
  return nvml::SUCCESS;
}
nvml::Return n_temperature_old(nvml::Device, unsigned, unsigned* v) {
  *v = 12;
  return nvml::SUCCESS;
}

TEST_F(NvmlProbe, TemperatureThroughTheVersionedCallFirst) {
  auto table = nvml_table();
  table.device_temperature = {&n_temperature_old, "nvmlDeviceGetTemperature"};
  EXPECT_EQ(probe_nvml(table).gpus[0].temperature_c, 12);  // a driver before TemperatureV
  table.device_temperature_v = {&n_temperature_v, "nvmlDeviceGetTemperatureV"};
  EXPECT_EQ(probe_nvml(table).gpus[0].temperature_c, 47);
}

TEST_F(NvmlProbe, LostGpuStillCountsAndGarbageCountIsCapped) {
  g_nvml.by_index = nvml::ERROR_GPU_IS_LOST;
  g_nvml.count = 1000000;
  const auto report = probe_nvml(nvml_table());
  ASSERT_EQ(report.gpus.size(), 64u);
  EXPECT_NE(report.gpus[0].name.find("unreachable"), std::string::npos);
  EXPECT_EQ(report.gpus[0].errors.at(0).code, nvml::ERROR_GPU_IS_LOST);
}

TEST_F(NvmlProbe, DriverVersionThatIsNotAVersionIsUnknown) {
  g_nvml.driver = "banana";
  EXPECT_FALSE(probe_nvml(nvml_table()).info.driver_version);
}

TEST_F(NvmlProbe, NonUtf8NameComesOutValid) {
  g_nvml.name = "NVIDIA Caf\xE9 GPU\xFF";
  const auto report = probe_nvml(nvml_table());
  ASSERT_EQ(report.gpus.size(), 1u);
  EXPECT_EQ(report.gpus[0].name, "NVIDIA Caf\xEF\xBF\xBD GPU\xEF\xBF\xBD");
}

// --- CUDA ---
struct CudaState {
  cuda::Status init = cuda::SUCCESS;
  int count = 1;
  const char* name = "NVIDIA GeForce RTX 4090";
} g_cuda;

cuda::Status c_error_name(cuda::Status r, const char** s) {
  *s = r == cuda::ERROR_NO_DEVICE ? "CUDA_ERROR_NO_DEVICE" : "CUDA_ERROR_UNKNOWN";
  return cuda::SUCCESS;
}
cuda::Status c_version(int* v) {
  *v = 12080;
  return cuda::SUCCESS;
}
cuda::Status c_init(unsigned) { return g_cuda.init; }
cuda::Status c_count(int* c) {
  *c = g_cuda.count;
  return cuda::SUCCESS;
}
cuda::Status c_name(char* buf, int size, cuda::Device) {
  std::snprintf(buf, static_cast<size_t>(size), "%s", g_cuda.name);
  return cuda::SUCCESS;
}
cuda::Status c_attribute(int* v, int which, cuda::Device) {
  switch (which) {
    case cuda::ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 8; return cuda::SUCCESS;
    case cuda::ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 9; return cuda::SUCCESS;
    case cuda::ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 128; return cuda::SUCCESS;
    default: return cuda::ERROR_INVALID_VALUE;
  }
}
cuda::Status c_bus(char* buf, int size, cuda::Device) {
  std::snprintf(buf, static_cast<size_t>(size), "%s", "0000:01:00.0");
  return cuda::SUCCESS;
}

cuda::Functions cuda_table() {
  cuda::Functions f;
  f.get_error_name = {&c_error_name, "cuGetErrorName"};
  f.driver_get_version = {&c_version, "cuDriverGetVersion"};
  f.init = {&c_init, "cuInit"};
  f.device_get_count = {&c_count, "cuDeviceGetCount"};
  f.device_get_name = {&c_name, "cuDeviceGetName"};
  f.device_get_attribute = {&c_attribute, "cuDeviceGetAttribute"};
  f.device_get_pci_bus_id = {&c_bus, "cuDeviceGetPCIBusId"};
  return f;
}

class CudaProbe : public ::testing::Test {
 protected:
  void SetUp() override { g_cuda = CudaState{}; }
};

TEST_F(CudaProbe, ReadsDevicesThroughTheTable) {
  const auto info = probe_cuda_driver(cuda_table());
  ASSERT_FALSE(info.error);
  EXPECT_EQ(info.driver_version, "12.8");
  EXPECT_TRUE(info.available);
  ASSERT_EQ(info.devices.size(), 1u);
  EXPECT_EQ(info.devices[0].compute_capability, "8.9");
  EXPECT_EQ(info.devices[0].sm_count, 128);
  EXPECT_EQ(info.devices[0].pci_bus_id, "0000:01:00.0");
  EXPECT_FALSE(info.devices[0].clock_mhz);  // the driver refused that attribute
}

TEST_F(CudaProbe, InitErrorKeepsCodeAndName) {
  g_cuda.init = cuda::ERROR_NO_DEVICE;
  const auto info = probe_cuda_driver(cuda_table());
  ASSERT_TRUE(info.error);
  EXPECT_EQ(info.error->what, "cuInit");
  EXPECT_EQ(info.error->code, cuda::ERROR_NO_DEVICE);
  EXPECT_EQ(info.error->message, "CUDA_ERROR_NO_DEVICE");
  EXPECT_FALSE(info.available);
}

TEST_F(CudaProbe, GarbageCountMeansNoDevice) {
  g_cuda.count = -5;
  EXPECT_EQ(probe_cuda_driver(cuda_table()).device_count, 0);
  g_cuda.count = 1 << 30;
  EXPECT_TRUE(probe_cuda_driver(cuda_table()).devices.empty());
}

TEST_F(CudaProbe, NonUtf8NameComesOutValid) {
  g_cuda.name = "GPU \xC3";  // a truncated two-byte sequence
  const auto info = probe_cuda_driver(cuda_table());
  ASSERT_EQ(info.devices.size(), 1u);
  EXPECT_EQ(info.devices[0].name, "GPU \xEF\xBF\xBD");
}

}  // namespace
