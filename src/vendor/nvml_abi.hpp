#pragma once
/// NVML's public C ABI, declared by hand (there is no nvml.h without the driver's development files),
/// as nvtop does: the only declaration of it in the tree (the probes, bench's sampler and the fake driver in
/// tests/fakes/nvml all include this file). Only what gpuscout calls. Values from NVIDIA's NVML API reference
/// (nvml.h of the 5xx drivers).
#include <cstddef>
#include <cstdint>

namespace gpuscout::vendor::nvml {

using Device = struct nvmlDevice_st*;

/// nvmlReturn_t (an int-sized C enum).
enum Return : int {
  SUCCESS = 0, ERROR_UNINITIALIZED = 1, ERROR_INVALID_ARGUMENT = 2, ERROR_NOT_SUPPORTED = 3, ERROR_NO_PERMISSION = 4,
  ERROR_ALREADY_INITIALIZED = 5, ERROR_NOT_FOUND = 6, ERROR_INSUFFICIENT_SIZE = 7, ERROR_INSUFFICIENT_POWER = 8,
  ERROR_DRIVER_NOT_LOADED = 9, ERROR_TIMEOUT = 10, ERROR_IRQ_ISSUE = 11, ERROR_LIBRARY_NOT_FOUND = 12,
  ERROR_FUNCTION_NOT_FOUND = 13, ERROR_CORRUPTED_INFOROM = 14, ERROR_GPU_IS_LOST = 15, ERROR_RESET_REQUIRED = 16,
  ERROR_OPERATING_SYSTEM = 17, ERROR_LIB_RM_VERSION_MISMATCH = 18, ERROR_IN_USE = 19, ERROR_MEMORY = 20,
  ERROR_NO_DATA = 21, ERROR_VGPU_ECC_NOT_SUPPORTED = 22, ERROR_INSUFFICIENT_RESOURCES = 23,
  ERROR_FREQ_NOT_SUPPORTED = 24, ERROR_ARGUMENT_VERSION_MISMATCH = 25, ERROR_DEPRECATED = 26, ERROR_NOT_READY = 27,
  ERROR_GPU_NOT_FOUND = 28, ERROR_INVALID_STATE = 29, ERROR_UNKNOWN = 999
};

/// nvmlDriverModel_t: the Windows driver model of a GPU (nvmlDeviceGetDriverModel; Linux drivers answer
/// NOT_SUPPORTED). WDM is what nvidia-smi calls TCC; MCDM (compute only, no display) came with the R535 drivers.
enum DriverModel : int { DRIVER_WDDM = 0, DRIVER_WDM = 1, DRIVER_MCDM = 2 };

constexpr unsigned TEMPERATURE_GPU = 0;                                              ///< nvmlTemperatureSensors_t
constexpr unsigned CLOCK_GRAPHICS = 0, CLOCK_SM = 1, CLOCK_MEM = 2, CLOCK_VIDEO = 3;  ///< nvmlClockType_t
constexpr unsigned MIG_DISABLE = 0, MIG_ENABLE = 1;  ///< NVML_DEVICE_MIG_DISABLE / _ENABLE
constexpr unsigned VBIOS_VERSION_BUFFER_SIZE = 32;   ///< NVML_DEVICE_VBIOS_VERSION_BUFFER_SIZE
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

/// nvmlFieldValue_t for nvmlDeviceGetFieldValues: the caller sets fieldId (and scopeId), NVML fills the rest.
union Value {
  double dVal;
  unsigned int uiVal;
  unsigned long ulVal;
  unsigned long long ullVal;
  long long sllVal;
  int siVal;
  unsigned short usVal;
};
struct FieldValue {
  unsigned int fieldId, scopeId;
  long long timestamp, latencyUsec;  ///< microseconds
  int valueType;                     ///< nvmlValueType_t: 1 = unsigned int
  Return nvmlReturn;                 ///< per field: check before reading value
  Value value;
};
/// The board's power right now, in mW (nvmlDeviceGetPowerUsage averages over one second on Ampere and newer).
constexpr unsigned int FI_DEV_POWER_INSTANT = 186;
constexpr int VALUE_TYPE_UNSIGNED_INT = 1;

/// nvmlTemperature_t for nvmlDeviceGetTemperatureV (nvmlDeviceGetTemperature is deprecated since CUDA 13.0).
struct Temperature {
  unsigned int version;
  unsigned int sensorType;  ///< nvmlTemperatureSensors_t
  int temperature;          ///< degrees C
};
constexpr unsigned int kTemperatureV1Version = static_cast<unsigned int>(sizeof(Temperature)) | (1u << 24);

/// Memory health (nvml.h: nvmlEnableState_t, nvmlMemoryErrorType_t, nvmlEccCounterType_t,
/// nvmlPageRetirementCause_t; the calls nvmlDeviceGetEccMode, nvmlDeviceGetTotalEccErrors, nvmlDeviceGetRetiredPages,
/// nvmlDeviceGetRetiredPagesPendingStatus and nvmlDeviceGetRemappedRows, the last from R450 on Ampere and newer).
enum EnableState : int { FEATURE_DISABLED = 0, FEATURE_ENABLED = 1 };
constexpr unsigned MEMORY_ERROR_TYPE_CORRECTED = 0, MEMORY_ERROR_TYPE_UNCORRECTED = 1;  ///< single / double bit
constexpr unsigned VOLATILE_ECC = 0, AGGREGATE_ECC = 1;  ///< since the driver loaded / over the board's life
constexpr unsigned PAGE_RETIREMENT_CAUSE_MULTIPLE_SINGLE_BIT_ECC_ERRORS = 0, PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR = 1;

/// Throttle ("clocks event") reason bits, nvmlClocksEventReason*.
constexpr unsigned long long kReasonGpuIdle = 0x1, kReasonAppClocks = 0x2, kReasonSwPowerCap = 0x4,
                             kReasonHwSlowdown = 0x8, kReasonSyncBoost = 0x10, kReasonSwThermal = 0x20,
                             kReasonHwThermal = 0x40, kReasonHwPowerBrake = 0x80, kReasonDisplayClocks = 0x100;

// The layouts of nvml.h (the fake driver implements them, the probe reads them): the same on LP64 (Linux) and
// LLP64 (Windows), since no struct here holds a `long` outside the 8-byte union.
static_assert(sizeof(PciInfoV3) == 68 && offsetof(PciInfoV3, busId) == 36);
static_assert(sizeof(PciInfoV1) == 52);
static_assert(sizeof(Memory) == 24);
static_assert(sizeof(MemoryV2) == 40 && kMemoryV2Version == 0x02000028U);
static_assert(sizeof(ProcessInfoV1) == 16);
static_assert(sizeof(ProcessInfo) == 24);
static_assert(sizeof(Value) == 8);
static_assert(sizeof(FieldValue) == 40 && offsetof(FieldValue, valueType) == 24 && offsetof(FieldValue, value) == 32);
static_assert(sizeof(DriverModel) == 4 && sizeof(EnableState) == 4);
static_assert(sizeof(Temperature) == 12 && kTemperatureV1Version == 0x0100000CU);

}  // namespace gpuscout::vendor::nvml
