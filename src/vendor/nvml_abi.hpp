#pragma once
/// NVML's public C ABI, declared by hand (there is no nvml.h without the driver's development files),
/// as nvtop does: the only declaration of it in the tree (the probes, bench's sampler and the fake driver in
/// tests/fakes/nvml all include this file). Only what gpuscout calls. Values from NVIDIA's NVML API reference
/// (nvml.h of the 5xx drivers).
#include <cstdint>

namespace gpuscout::vendor::nvml {

using Return = int;
using Device = struct nvmlDevice_st*;

enum : Return {
  SUCCESS = 0, ERROR_UNINITIALIZED = 1, ERROR_INVALID_ARGUMENT = 2, ERROR_NOT_SUPPORTED = 3, ERROR_NO_PERMISSION = 4,
  ERROR_NOT_FOUND = 6, ERROR_INSUFFICIENT_SIZE = 7, ERROR_DRIVER_NOT_LOADED = 9, ERROR_TIMEOUT = 10,
  ERROR_LIBRARY_NOT_FOUND = 12, ERROR_FUNCTION_NOT_FOUND = 13, ERROR_GPU_IS_LOST = 15, ERROR_LIB_RM_VERSION_MISMATCH = 18,
  ERROR_ARGUMENT_VERSION_MISMATCH = 25, ERROR_UNKNOWN = 999
};

constexpr unsigned TEMPERATURE_GPU = 0;
constexpr unsigned CLOCK_SM = 1;
constexpr unsigned CLOCK_MEM = 2;
constexpr unsigned long long VALUE_NOT_AVAILABLE = ~0ULL;

struct Memory {
  unsigned long long total, free, used;
};
struct MemoryV2 {
  unsigned int version;
  unsigned long long total, reserved, free, used;
};
/// nvmlMemory_v2: the struct size or'ed with the API version in the top byte.
constexpr unsigned int kMemoryV2Version = static_cast<unsigned int>(sizeof(MemoryV2)) | (2u << 24);

struct PciInfoV3 {  ///< nvmlPciInfo_t as filled by nvmlDeviceGetPciInfo_v2/_v3
  char busIdLegacy[16];
  unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
  char busId[32];
};
struct PciInfoV1 {  ///< the original layout, nvmlDeviceGetPciInfo
  char busId[16];
  unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
  unsigned int reserved[4];
};
struct Utilization {
  unsigned int gpu, memory;
};
struct ProcessInfoV1 {
  unsigned int pid;
  unsigned long long usedGpuMemory;
};
struct ProcessInfo {  ///< nvmlProcessInfo_t (v2/v3 calls)
  unsigned int pid;
  unsigned long long usedGpuMemory;
  unsigned int gpuInstanceId, computeInstanceId;
};

/// Throttle ("clocks event") reason bits, nvmlClocksEventReason*.
constexpr unsigned long long kReasonGpuIdle = 0x1, kReasonAppClocks = 0x2, kReasonSwPowerCap = 0x4,
                             kReasonHwSlowdown = 0x8, kReasonSyncBoost = 0x10, kReasonSwThermal = 0x20,
                             kReasonHwThermal = 0x40, kReasonHwPowerBrake = 0x80, kReasonDisplayClocks = 0x100;

}  // namespace gpuscout::vendor::nvml
