// NVML, loaded at run time by versioned soname. Every symbol may be missing (older drivers lack the _v2/_v3
// calls): a missing late symbol means "not supported", never a failure of the whole probe.
#include <cstdlib>

#include <fmt/format.h>

#include "core/version.hpp"
#include "os/library.hpp"
#include "os/system.hpp"
#include "vendor/nvml_abi.hpp"
#include "probe/sources.hpp"

namespace gpuscout::probe {
namespace {

namespace nvml = vendor::nvml;
using nvml::Device;
using nvml::Return;

struct Api {
  os::SharedLibrary lib;
  const char* (*error_string)(Return) = nullptr;
  template <typename Fn>
  Fn get(const char* name) const { return lib.symbol<Fn>(name); }
  std::string describe(Return r) const {
    if (error_string) {
      const char* s = error_string(r);
      if (s) return s;
    }
    return fmt::format("NVML error {}", r);
  }
};

std::string soname() {
  // A test seam and an escape hatch: point at a specific driver library.
  if (const char* real = std::getenv("GPUSCOUT_NVML_LIBRARY")) return real;
  return "libnvidia-ml.so.1";  // never the unversioned name: it can be a toolkit stub, not a driver
}

}  // namespace

NvmlReport probe_nvml() {
  NvmlReport report;
  NvidiaInfo& info = report.info;
  auto lib = os::SharedLibrary::open(soname());
  if (!lib) {
    info.error = ProbeError{"nvml", "dlopen", lib.error().message, std::nullopt};
    return report;
  }
  Api api{std::move(*lib)};
  info.library_found = true;
  if (auto p = api.lib.path(); !p.empty()) info.library_path = p;
  api.error_string = api.get<const char* (*)(Return)>("nvmlErrorString");

  auto init = api.get<Return (*)()>("nvmlInit_v2");
  const char* init_name = "nvmlInit_v2";
  if (!init) {
    init = api.get<Return (*)()>("nvmlInit");
    init_name = "nvmlInit";
  }
  if (!init) {
    info.error = ProbeError{"nvml", "nvmlInit_v2", "the library has no nvmlInit: not an NVML library", std::nullopt};
    return report;
  }
  if (const Return r = init(); r != nvml::SUCCESS) {
    info.error = ProbeError{"nvml", init_name, api.describe(r), r};
    return report;
  }

  char buffer[256] = {0};
  if (auto f = api.get<Return (*)(char*, unsigned)>("nvmlSystemGetDriverVersion"); f && f(buffer, sizeof buffer) == 0)
    info.driver_version = std::string(buffer);
  if (auto f = api.get<Return (*)(char*, unsigned)>("nvmlSystemGetNVMLVersion"); f && f(buffer, sizeof buffer) == 0)
    info.nvml_version = std::string(buffer);
  {
    int cuda = 0;
    auto f = api.get<Return (*)(int*)>("nvmlSystemGetCudaDriverVersion_v2");
    if (!f) f = api.get<Return (*)(int*)>("nvmlSystemGetCudaDriverVersion");
    if (f && f(&cuda) == 0 && cuda > 0) info.cuda_driver_version = Version::from_cuda_int(cuda).major_minor();
  }

  unsigned count = 0;
  {
    auto f = api.get<Return (*)(unsigned*)>("nvmlDeviceGetCount_v2");
    if (!f) f = api.get<Return (*)(unsigned*)>("nvmlDeviceGetCount");
    const Return r = f ? f(&count) : nvml::ERROR_FUNCTION_NOT_FOUND;
    if (r != 0) {
      info.error = ProbeError{"nvml", "nvmlDeviceGetCount_v2", api.describe(r), r};
      count = 0;
    }
  }
  auto by_index = api.get<Return (*)(unsigned, Device*)>("nvmlDeviceGetHandleByIndex_v2");
  if (!by_index) by_index = api.get<Return (*)(unsigned, Device*)>("nvmlDeviceGetHandleByIndex");
  if (count > 64) count = 64;  // a garbage count must not make us loop for ever

  for (unsigned i = 0; i < count && by_index; ++i) {
    Device dev = nullptr;
    Gpu gpu;
    gpu.vendor = "nvidia";
    gpu.nvml_index = static_cast<int>(i);
    gpu.sources.push_back("nvml");
    auto record = [&](const char* call, Return r) {
      gpu.errors.push_back(ProbeError{"nvml", call, api.describe(r), r});
    };
    if (const Return r = by_index(i, &dev); r != 0) {
      // A GPU that fell off the bus ("GPU is lost") still counts: report it with what we know.
      record("nvmlDeviceGetHandleByIndex_v2", r);
      gpu.name = fmt::format("NVIDIA GPU {} (unreachable)", i);
      report.gpus.push_back(std::move(gpu));
      continue;
    }
    // Calls that may be absent (older drivers) or unsupported (per GPU): keep going either way.
    auto call = [&](const char* name, auto fn_type, auto&&... args) -> bool {
      using Fn = decltype(fn_type);
      auto f = api.get<Fn>(name);
      if (!f) return false;
      const Return r = f(dev, args...);
      if (r == 0) return true;
      record(name, r);
      return false;
    };
    char text[256] = {0};
    if (call("nvmlDeviceGetName", static_cast<Return (*)(Device, char*, unsigned)>(nullptr), text, 96u))
      gpu.name = text;
    else
      gpu.name = "NVIDIA GPU";
    if (call("nvmlDeviceGetUUID", static_cast<Return (*)(Device, char*, unsigned)>(nullptr), text, 96u))
      gpu.uuid = std::string(text);

    nvml::PciInfoV3 pci{};
    if (api.get<Return (*)(Device, nvml::PciInfoV3*)>("nvmlDeviceGetPciInfo_v3")) {
      if (call("nvmlDeviceGetPciInfo_v3", static_cast<Return (*)(Device, nvml::PciInfoV3*)>(nullptr), &pci))
        gpu.pci_bus_id = normalize_bus_id(pci.busId);
    } else {
      nvml::PciInfoV1 pci1{};
      if (call("nvmlDeviceGetPciInfo", static_cast<Return (*)(Device, nvml::PciInfoV1*)>(nullptr), &pci1)) {
        gpu.pci_bus_id = normalize_bus_id(pci1.busId);
        pci.pciDeviceId = pci1.pciDeviceId;
        pci.pciSubSystemId = pci1.pciSubSystemId;
      }
    }
    if (pci.pciDeviceId) {
      gpu.pci_vendor_id = static_cast<uint16_t>(pci.pciDeviceId & 0xffff);
      gpu.pci_device_id = static_cast<uint16_t>(pci.pciDeviceId >> 16);
    }

    // Memory as nvidia-smi shows it: the v2 call separates driver-reserved memory from "used".
    nvml::MemoryV2 mem2{};
    mem2.version = nvml::kMemoryV2Version;
    bool have_v2 = false;
    if (api.get<Return (*)(Device, nvml::MemoryV2*)>("nvmlDeviceGetMemoryInfo_v2"))
      have_v2 = call("nvmlDeviceGetMemoryInfo_v2", static_cast<Return (*)(Device, nvml::MemoryV2*)>(nullptr), &mem2);
    if (have_v2) {
      gpu.memory_total_bytes = mem2.total;
      gpu.memory_reserved_bytes = mem2.reserved;
      gpu.memory_used_bytes = mem2.used;
      gpu.memory_free_bytes = mem2.free;
    } else {
      nvml::Memory mem{};
      if (call("nvmlDeviceGetMemoryInfo", static_cast<Return (*)(Device, nvml::Memory*)>(nullptr), &mem)) {
        gpu.memory_total_bytes = mem.total;
        gpu.memory_used_bytes = mem.used;  // includes reserved memory on drivers without the v2 call
        gpu.memory_free_bytes = mem.free;
      }
    }
    int major = 0, minor = 0;
    if (call("nvmlDeviceGetCudaComputeCapability", static_cast<Return (*)(Device, int*, int*)>(nullptr), &major, &minor))
      gpu.compute_capability = fmt::format("{}.{}", major, minor);
    unsigned v = 0;
    if (call("nvmlDeviceGetTemperature", static_cast<Return (*)(Device, unsigned, unsigned*)>(nullptr),
             nvml::TEMPERATURE_GPU, &v))
      gpu.temperature_c = static_cast<int>(v);
    if (call("nvmlDeviceGetPowerUsage", static_cast<Return (*)(Device, unsigned*)>(nullptr), &v)) gpu.power_draw_mw = v;
    if (call("nvmlDeviceGetEnforcedPowerLimit", static_cast<Return (*)(Device, unsigned*)>(nullptr), &v))
      gpu.power_limit_mw = v;
    nvml::Utilization util{};
    if (call("nvmlDeviceGetUtilizationRates", static_cast<Return (*)(Device, nvml::Utilization*)>(nullptr), &util)) {
      gpu.utilization_gpu_pct = static_cast<int>(util.gpu);
      gpu.utilization_memory_pct = static_cast<int>(util.memory);
    }
    using UintFn = Return (*)(Device, unsigned*);
    if (call("nvmlDeviceGetCurrPcieLinkGeneration", UintFn{}, &v)) gpu.pcie_gen = static_cast<int>(v);
    if (call("nvmlDeviceGetCurrPcieLinkWidth", UintFn{}, &v)) gpu.pcie_width = static_cast<int>(v);
    if (call("nvmlDeviceGetMaxPcieLinkGeneration", UintFn{}, &v)) gpu.pcie_gen_max = static_cast<int>(v);
    if (call("nvmlDeviceGetMaxPcieLinkWidth", UintFn{}, &v)) gpu.pcie_width_max = static_cast<int>(v);
    using ClockFn = Return (*)(Device, unsigned, unsigned*);
    if (call("nvmlDeviceGetClockInfo", ClockFn{}, nvml::CLOCK_SM, &v)) gpu.clock_sm_mhz = static_cast<int>(v);
    if (call("nvmlDeviceGetMaxClockInfo", ClockFn{}, nvml::CLOCK_SM, &v)) gpu.max_clock_sm_mhz = static_cast<int>(v);
    if (call("nvmlDeviceGetMaxClockInfo", ClockFn{}, nvml::CLOCK_MEM, &v)) gpu.clock_memory_mhz = static_cast<int>(v);
    if (call("nvmlDeviceGetMemoryBusWidth", UintFn{}, &v)) gpu.memory_bus_width_bits = static_cast<int>(v);

    // Processes: ask with room for 64; the v3 call reports the real count when that is too few.
    nvml::ProcessInfo procs[64]{};
    unsigned n = 64;
    bool have_procs = false;
    if (api.get<Return (*)(Device, unsigned*, nvml::ProcessInfo*)>("nvmlDeviceGetComputeRunningProcesses_v3")) {
      have_procs = call("nvmlDeviceGetComputeRunningProcesses_v3",
                        static_cast<Return (*)(Device, unsigned*, nvml::ProcessInfo*)>(nullptr), &n, procs);
    } else {
      nvml::ProcessInfoV1 old[64]{};
      if (call("nvmlDeviceGetComputeRunningProcesses", static_cast<Return (*)(Device, unsigned*, nvml::ProcessInfoV1*)>(nullptr),
               &n, old)) {
        have_procs = true;
        for (unsigned k = 0; k < n && k < 64; ++k) procs[k] = nvml::ProcessInfo{old[k].pid, old[k].usedGpuMemory, 0, 0};
      }
    }
    auto process_name = api.get<Return (*)(unsigned, char*, unsigned)>("nvmlSystemGetProcessName");
    for (unsigned k = 0; have_procs && k < n && k < 64; ++k) {
      GpuProcess p;
      p.pid = procs[k].pid;
      if (procs[k].usedGpuMemory != nvml::VALUE_NOT_AVAILABLE) p.used_bytes = procs[k].usedGpuMemory;
      char pname[256] = {0};
      if (process_name && process_name(p.pid, pname, sizeof pname) == 0) p.name = std::string(pname);
      gpu.processes.push_back(std::move(p));
    }
    report.gpus.push_back(std::move(gpu));
  }
  if (auto shutdown = api.get<Return (*)()>("nvmlShutdown")) shutdown();
  return report;
}

}  // namespace gpuscout::probe
