// The CUDA driver API (libcuda.so.1), loaded at run time: what torch.cuda would report, without Python.
#include <cstdlib>

#include <fmt/format.h>

#include "core/version.hpp"
#include "os/library.hpp"
#include "probe/sources.hpp"

namespace gpuscout::probe {
namespace {

using CUresult = int;
using CUdevice = int;
struct CUuuid {
  unsigned char bytes[16];
};

// CUdevice_attribute values from cuda.h.
enum Attribute : int {
  CLOCK_RATE = 13, MULTIPROCESSOR_COUNT = 16, INTEGRATED = 18, PCI_BUS_ID = 33, PCI_DEVICE_ID = 34,
  MEMORY_CLOCK_RATE = 36, GLOBAL_MEMORY_BUS_WIDTH = 37, L2_CACHE_SIZE = 38, PCI_DOMAIN_ID = 50,
  COMPUTE_CAPABILITY_MAJOR = 75, COMPUTE_CAPABILITY_MINOR = 76
};

std::string soname() {
  if (const char* env = std::getenv("GPUSCOUT_CUDA_LIBRARY")) return env;
  return "libcuda.so.1";  // never libcuda.so: in a toolkit's stubs/ folder it is a stub that answers 34
}

}  // namespace

CudaInfo probe_cuda_driver() {
  CudaInfo info;
  auto lib = os::SharedLibrary::open(soname());
  if (!lib) {
    info.error = ProbeError{"cuda", "dlopen", lib.error().message, std::nullopt};
    return info;
  }
  info.library_found = true;
  if (auto p = lib->path(); !p.empty()) info.library_path = p;
  auto error_name = lib->symbol<CUresult (*)(CUresult, const char**)>("cuGetErrorName");
  auto error_string = lib->symbol<CUresult (*)(CUresult, const char**)>("cuGetErrorString");
  auto describe = [&](CUresult r) {
    const char* name = nullptr;
    const char* text = nullptr;
    if (error_name) error_name(r, &name);
    if (error_string) error_string(r, &text);
    if (name && text) return fmt::format("{}: {}", name, text);
    if (name) return std::string(name);
    return fmt::format("CUDA error {}", r);
  };

  if (auto f = lib->symbol<CUresult (*)(int*)>("cuDriverGetVersion")) {
    int v = 0;
    if (f(&v) == 0 && v > 0) info.driver_version = Version::from_cuda_int(v).major_minor();
  }
  auto init = lib->symbol<CUresult (*)(unsigned)>("cuInit");
  if (!init) {
    info.error = ProbeError{"cuda", "cuInit", "the library has no cuInit: not a CUDA driver", std::nullopt};
    return info;
  }
  if (const CUresult r = init(0); r != 0) {
    info.error = ProbeError{"cuda", "cuInit", describe(r), r};
    return info;
  }
  int count = 0;
  auto get_count = lib->symbol<CUresult (*)(int*)>("cuDeviceGetCount");
  if (!get_count) {
    info.error = ProbeError{"cuda", "cuDeviceGetCount", "symbol missing", std::nullopt};
    return info;
  }
  if (const CUresult r = get_count(&count); r != 0) {
    info.error = ProbeError{"cuda", "cuDeviceGetCount", describe(r), r};
    return info;
  }
  if (count < 0 || count > 64) count = 0;
  info.device_count = count;
  info.available = count > 0;

  auto device_get = lib->symbol<CUresult (*)(CUdevice*, int)>("cuDeviceGet");
  auto get_name = lib->symbol<CUresult (*)(char*, int, CUdevice)>("cuDeviceGetName");
  auto get_attr = lib->symbol<CUresult (*)(int*, int, CUdevice)>("cuDeviceGetAttribute");
  auto total_mem = lib->symbol<CUresult (*)(size_t*, CUdevice)>("cuDeviceTotalMem_v2");
  auto bus_id = lib->symbol<CUresult (*)(char*, int, CUdevice)>("cuDeviceGetPCIBusId");
  auto uuid = lib->symbol<CUresult (*)(CUuuid*, CUdevice)>("cuDeviceGetUuid_v2");
  if (!uuid) uuid = lib->symbol<CUresult (*)(CUuuid*, CUdevice)>("cuDeviceGetUuid");
  for (int i = 0; i < count; ++i) {
    CudaDevice d;
    d.index = i;
    CUdevice dev = i;
    if (device_get && device_get(&dev, i) != 0) continue;
    char name[256] = {0};
    if (get_name && get_name(name, sizeof name - 1, dev) == 0) d.name = name;
    auto attr = [&](int which) -> std::optional<int> {
      int v = 0;
      if (get_attr && get_attr(&v, which, dev) == 0) return v;
      return std::nullopt;
    };
    const auto major = attr(COMPUTE_CAPABILITY_MAJOR), minor = attr(COMPUTE_CAPABILITY_MINOR);
    if (major && minor) d.compute_capability = fmt::format("{}.{}", *major, *minor);
    d.sm_count = attr(MULTIPROCESSOR_COUNT);
    if (auto khz = attr(CLOCK_RATE)) d.clock_mhz = *khz / 1000;
    if (auto khz = attr(MEMORY_CLOCK_RATE)) d.memory_clock_mhz = *khz / 1000;
    d.memory_bus_width_bits = attr(GLOBAL_MEMORY_BUS_WIDTH);
    if (auto l2 = attr(L2_CACHE_SIZE); l2 && *l2 > 0) d.l2_bytes = static_cast<uint64_t>(*l2);
    d.integrated = attr(INTEGRATED).value_or(0) != 0;
    size_t bytes = 0;
    if (total_mem && total_mem(&bytes, dev) == 0) d.total_memory_bytes = bytes;
    char bus[64] = {0};
    if (bus_id && bus_id(bus, sizeof bus - 1, dev) == 0) d.pci_bus_id = normalize_bus_id(bus);
    CUuuid u{};
    if (uuid && uuid(&u, dev) == 0) {
      const unsigned char* b = u.bytes;
      d.uuid = fmt::format("GPU-{:02x}{:02x}{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}",
                           b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
    }
    info.devices.push_back(std::move(d));
  }
  return info;
}

}  // namespace gpuscout::probe
