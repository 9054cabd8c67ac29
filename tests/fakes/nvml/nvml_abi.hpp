// Hand-declared subset of the public NVML C ABI (nvml.h is not shipped on build machines).
// Layouts and values checked against nvml.h of the CUDA 12.x/13.x toolkits and the NVML API
// reference (docs.nvidia.com/deploy/nvml-api); static_asserts pin the sizes on LP64.
#pragma once

#include <cstddef>

extern "C" {

typedef struct nvmlDevice_st* nvmlDevice_t;

typedef enum nvmlReturn_enum {
    NVML_SUCCESS = 0,
    NVML_ERROR_UNINITIALIZED = 1,
    NVML_ERROR_INVALID_ARGUMENT = 2,
    NVML_ERROR_NOT_SUPPORTED = 3,
    NVML_ERROR_NO_PERMISSION = 4,
    NVML_ERROR_ALREADY_INITIALIZED = 5,
    NVML_ERROR_NOT_FOUND = 6,
    NVML_ERROR_INSUFFICIENT_SIZE = 7,
    NVML_ERROR_INSUFFICIENT_POWER = 8,
    NVML_ERROR_DRIVER_NOT_LOADED = 9,
    NVML_ERROR_TIMEOUT = 10,
    NVML_ERROR_IRQ_ISSUE = 11,
    NVML_ERROR_LIBRARY_NOT_FOUND = 12,
    NVML_ERROR_FUNCTION_NOT_FOUND = 13,
    NVML_ERROR_CORRUPTED_INFOROM = 14,
    NVML_ERROR_GPU_IS_LOST = 15,
    NVML_ERROR_RESET_REQUIRED = 16,
    NVML_ERROR_OPERATING_SYSTEM = 17,
    NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18,
    NVML_ERROR_IN_USE = 19,
    NVML_ERROR_MEMORY = 20,
    NVML_ERROR_NO_DATA = 21,
    NVML_ERROR_VGPU_ECC_NOT_SUPPORTED = 22,
    NVML_ERROR_INSUFFICIENT_RESOURCES = 23,
    NVML_ERROR_FREQ_NOT_SUPPORTED = 24,
    NVML_ERROR_ARGUMENT_VERSION_MISMATCH = 25,
    NVML_ERROR_DEPRECATED = 26,
    NVML_ERROR_NOT_READY = 27,
    NVML_ERROR_GPU_NOT_FOUND = 28,
    NVML_ERROR_INVALID_STATE = 29,
    NVML_ERROR_UNKNOWN = 999
} nvmlReturn_t;

typedef enum nvmlTemperatureSensors_enum { NVML_TEMPERATURE_GPU = 0 } nvmlTemperatureSensors_t;

typedef enum nvmlClockType_enum {
    NVML_CLOCK_GRAPHICS = 0,
    NVML_CLOCK_SM = 1,
    NVML_CLOCK_MEM = 2,
    NVML_CLOCK_VIDEO = 3
} nvmlClockType_t;

enum {
    NVML_DEVICE_NAME_BUFFER_SIZE = 64,
    NVML_DEVICE_NAME_V2_BUFFER_SIZE = 96,
    NVML_DEVICE_UUID_BUFFER_SIZE = 80,
    NVML_DEVICE_UUID_V2_BUFFER_SIZE = 96,
    NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE = 80,
    NVML_SYSTEM_NVML_VERSION_BUFFER_SIZE = 80,
    NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE = 32,
    NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE = 16,
};

/// nvmlDeviceGetPciInfo_v3 (and the nvmlDeviceGetPciInfo macro of current headers).
typedef struct nvmlPciInfo_st {
    char busIdLegacy[NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE];  ///< "0000:01:00.0"
    unsigned int domain;
    unsigned int bus;
    unsigned int device;
    unsigned int pciDeviceId;     ///< (device id << 16) | vendor id
    unsigned int pciSubSystemId;  ///< (subsystem device id << 16) | subsystem vendor id
    char busId[NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE];  ///< "00000000:01:00.0"
} nvmlPciInfo_t;

/// The unversioned nvmlDeviceGetPciInfo symbol (v1, from the NVML 3.x-era header).
typedef struct nvmlPciInfo_v1_st {
    char busId[16];  ///< "0000:01:00.0"
    unsigned int domain;
    unsigned int bus;
    unsigned int device;
    unsigned int pciDeviceId;
    unsigned int pciSubSystemId;
    unsigned int reserved0, reserved1, reserved2, reserved3;
} nvmlPciInfo_v1_t;

typedef struct nvmlMemory_st {
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
} nvmlMemory_t;

typedef struct nvmlMemory_v2_st {
    unsigned int version;  ///< must be nvmlMemory_v2
    unsigned long long total;
    unsigned long long reserved;
    unsigned long long free;
    unsigned long long used;
} nvmlMemory_v2_t;

#define FAKE_NVML_STRUCT_VERSION(type, ver) (static_cast<unsigned int>(sizeof(type) | ((ver) << 24U)))
#define nvmlMemory_v2 FAKE_NVML_STRUCT_VERSION(nvmlMemory_v2_t, 2)

typedef struct nvmlUtilization_st {
    unsigned int gpu;     ///< percent
    unsigned int memory;  ///< percent
} nvmlUtilization_t;

/// nvmlDeviceGetComputeRunningProcesses (v1 symbol).
typedef struct nvmlProcessInfo_v1_st {
    unsigned int pid;
    unsigned long long usedGpuMemory;
} nvmlProcessInfo_v1_t;

/// nvmlDeviceGetComputeRunningProcesses_v2 and _v3 (nvmlProcessInfo_t in current headers).
typedef struct nvmlProcessInfo_st {
    unsigned int pid;
    unsigned long long usedGpuMemory;  ///< NVML_VALUE_NOT_AVAILABLE when unknown
    unsigned int gpuInstanceId;        ///< 0xFFFFFFFF when not MIG
    unsigned int computeInstanceId;    ///< 0xFFFFFFFF when not MIG
} nvmlProcessInfo_t;

}  // extern "C"

#define NVML_VALUE_NOT_AVAILABLE (~0ULL)
#define NVML_INIT_FLAG_NO_GPUS 1U
#define NVML_INIT_FLAG_NO_ATTACH 2U

static_assert(sizeof(nvmlPciInfo_t) == 68 && offsetof(nvmlPciInfo_t, busId) == 36);
static_assert(sizeof(nvmlPciInfo_v1_t) == 52);
static_assert(sizeof(nvmlMemory_t) == 24);
static_assert(sizeof(nvmlMemory_v2_t) == 40 && nvmlMemory_v2 == 0x02000028U);
static_assert(sizeof(nvmlProcessInfo_v1_t) == 16);
static_assert(sizeof(nvmlProcessInfo_t) == 24);
