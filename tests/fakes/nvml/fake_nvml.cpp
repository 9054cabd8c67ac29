// Fake libnvidia-ml.so.1: the public NVML C ABI answering from a scenario file
// (GPUSCOUT_FAKE_SCENARIO, format in ../scenarios/README.md). Built twice: the full library and,
// with FAKE_OLD_DRIVER, one that lacks the late-added entry points so callers' fallbacks run.
#include "nvml_abi.hpp"
#include "scenario.hpp"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#define FAKE_API extern "C" __attribute__((visibility("default")))

namespace {

using gpuscout_fake::Gpu;
using gpuscout_fake::Scenario;

constexpr std::size_t max_devices = 64;

struct State {
    std::mutex mutex;
    int refcount = 0;  // nvmlInit* / nvmlShutdown pairs, as the real library counts them
    Scenario scenario;
};

State& state() {
    static State s;
    return s;
}

// Device handles point into this array: stable, non-null and checkable, like real opaque handles.
char device_tokens[max_devices];

nvmlDevice_t handle_of(std::size_t index) { return reinterpret_cast<nvmlDevice_t>(&device_tokens[index]); }

nvmlReturn_t as_return(int code) { return static_cast<nvmlReturn_t>(code); }

std::size_t device_count(const Scenario& s) { return s.gpus.size() < max_devices ? s.gpus.size() : max_devices; }

const Gpu* gpu_of(const Scenario& s, nvmlDevice_t handle) {
    const auto p = reinterpret_cast<std::uintptr_t>(handle);
    const auto base = reinterpret_cast<std::uintptr_t>(&device_tokens[0]);
    if (p < base || p >= base + device_count(s)) return nullptr;
    return &s.gpus[p - base];
}

int scenario_error(const Scenario& s, const char* function) {
    const auto it = s.nvml.errors.find(function);
    return it == s.nvml.errors.end() ? 0 : it->second;
}

// Runs body(scenario) for a call that needs an initialised library, after the scenario's
// injected error for `function`, if any.
template <class Body>
nvmlReturn_t system_call(const char* function, Body body) {
    auto& st = state();
    std::lock_guard lock(st.mutex);
    if (st.refcount == 0) return NVML_ERROR_UNINITIALIZED;
    if (const int e = scenario_error(st.scenario, function)) return as_return(e);
    return body(st.scenario);
}

// Like system_call, for a device handle; the GPU's own injected errors apply after the handle check.
template <class Body>
nvmlReturn_t device_call(const char* function, nvmlDevice_t device, Body body) {
    return system_call(function, [&](const Scenario& s) {
        const Gpu* gpu = gpu_of(s, device);
        if (gpu == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
        if (const int e = gpu->error_for(function)) return as_return(e);
        return body(*gpu);
    });
}

template <class T, class Out>
nvmlReturn_t put(const std::optional<T>& value, Out* out) {
    if (out == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
    if (!value) return NVML_ERROR_NOT_SUPPORTED;
    *out = static_cast<Out>(*value);
    return NVML_SUCCESS;
}

nvmlReturn_t put_string(const std::string& text, char* buf, unsigned int length) {
    if (buf == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
    return gpuscout_fake::copy_string(text, buf, length) ? NVML_SUCCESS : NVML_ERROR_INSUFFICIENT_SIZE;
}

nvmlReturn_t init(const char* function) {
    Scenario fresh;
    if (!gpuscout_fake::load_scenario_from_env(fresh)) return NVML_ERROR_UNKNOWN;
    // A wedged driver blocks in init, before anything else; the caller's timeout must catch it.
    if (fresh.nvml.hang_seconds > 0) std::this_thread::sleep_for(std::chrono::seconds(fresh.nvml.hang_seconds));
    if (fresh.nvml.init_error != 0) return as_return(fresh.nvml.init_error);
    if (const int e = scenario_error(fresh, function)) return as_return(e);
    auto& st = state();
    std::lock_guard lock(st.mutex);
    if (st.refcount == 0) st.scenario = std::move(fresh);
    ++st.refcount;
    return NVML_SUCCESS;
}

template <class Info>
nvmlReturn_t running_processes(const char* function, nvmlDevice_t device, unsigned int* count, Info* infos) {
    return device_call(function, device, [&](const Gpu& gpu) {
        if (count == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
        const auto n = static_cast<unsigned int>(gpu.processes.size());
        if (*count < n || (infos == nullptr && n > 0)) {
            *count = n;
            return NVML_ERROR_INSUFFICIENT_SIZE;
        }
        for (unsigned int i = 0; i < n; ++i) {
            const auto& p = gpu.processes[i];
            Info info{};
            info.pid = p.pid;
            info.usedGpuMemory = p.used_bytes.value_or(NVML_VALUE_NOT_AVAILABLE);
            if constexpr (sizeof(Info) == sizeof(nvmlProcessInfo_t)) {
                info.gpuInstanceId = 0xFFFFFFFFU;
                info.computeInstanceId = 0xFFFFFFFFU;
            }
            infos[i] = info;
        }
        *count = n;
        return NVML_SUCCESS;
    });
}

nvmlReturn_t memory_v1(nvmlDevice_t device, nvmlMemory_t* memory) {
    return device_call("nvmlDeviceGetMemoryInfo", device, [&](const Gpu& gpu) {
        if (memory == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
        memory->total = gpu.memory_total;
        memory->used = gpu.memory_used_v1;
        memory->free = gpu.memory_total - gpu.memory_used_v1;
        return NVML_SUCCESS;
    });
}

template <class Pick>
nvmlReturn_t clock(const char* function, nvmlDevice_t device, nvmlClockType_t type, unsigned int* out, Pick pick) {
    return device_call(function, device, [&](const Gpu& gpu) {
        if (static_cast<int>(type) < 0 || static_cast<int>(type) > 3) return NVML_ERROR_INVALID_ARGUMENT;
        return put(pick(gpu, type), out);
    });
}

nvmlReturn_t pci_bus_id_lookup(const char* function, const char* bus_id, nvmlDevice_t* device) {
    return system_call(function, [&](const Scenario& s) {
        if (bus_id == nullptr || device == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
        std::uint32_t domain = 0, bus = 0, dev = 0, fn = 0;
        if (!gpuscout_fake::parse_bus_id(bus_id, domain, bus, dev, fn)) return NVML_ERROR_INVALID_ARGUMENT;
        for (std::size_t i = 0; i < device_count(s); ++i) {
            const Gpu& g = s.gpus[i];
            if (g.domain == domain && g.bus == bus && g.device == dev && g.function == fn) {
                if (const int e = g.error_for(function)) return as_return(e);
                *device = handle_of(i);
                return NVML_SUCCESS;
            }
        }
        return NVML_ERROR_NOT_FOUND;
    });
}

nvmlReturn_t handle_by_index(const char* function, unsigned int index, nvmlDevice_t* device) {
    return system_call(function, [&](const Scenario& s) {
        if (device == nullptr || index >= device_count(s)) return NVML_ERROR_INVALID_ARGUMENT;
        if (const int e = s.gpus[index].error_for(function)) return as_return(e);
        *device = handle_of(index);
        return NVML_SUCCESS;
    });
}

nvmlReturn_t count(const char* function, unsigned int* n) {
    return system_call(function, [&](const Scenario& s) {
        if (n == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
        *n = static_cast<unsigned int>(device_count(s));
        return NVML_SUCCESS;
    });
}

nvmlReturn_t cuda_driver_version(const char* function, int* version) {
    return system_call(function, [&](const Scenario& s) {
        if (version == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
        *version = s.nvml.cuda_driver_version;
        return NVML_SUCCESS;
    });
}

nvmlReturn_t throttle_reasons(const char* function, nvmlDevice_t device, unsigned long long* reasons) {
    return device_call(function, device, [&](const Gpu& gpu) { return put(gpu.throttle_reasons, reasons); });
}

}  // namespace

// ---- initialisation ---------------------------------------------------------------------------

FAKE_API nvmlReturn_t nvmlInit(void) { return init(__func__); }

#ifndef FAKE_OLD_DRIVER
FAKE_API nvmlReturn_t nvmlInit_v2(void) { return init(__func__); }
FAKE_API nvmlReturn_t nvmlInitWithFlags(unsigned int /*flags*/) { return init(__func__); }
#endif

FAKE_API nvmlReturn_t nvmlShutdown(void) {
    auto& st = state();
    std::lock_guard lock(st.mutex);
    if (st.refcount == 0) return NVML_ERROR_UNINITIALIZED;
    --st.refcount;
    return NVML_SUCCESS;
}

FAKE_API const char* nvmlErrorString(nvmlReturn_t result) {
    switch (result) {
    case NVML_SUCCESS: return "Success";
    case NVML_ERROR_UNINITIALIZED: return "Uninitialized";
    case NVML_ERROR_INVALID_ARGUMENT: return "Invalid Argument";
    case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
    case NVML_ERROR_NO_PERMISSION: return "Insufficient Permissions";
    case NVML_ERROR_ALREADY_INITIALIZED: return "Already Initialized";
    case NVML_ERROR_NOT_FOUND: return "Not Found";
    case NVML_ERROR_INSUFFICIENT_SIZE: return "Insufficient Size";
    case NVML_ERROR_INSUFFICIENT_POWER: return "Insufficient External Power";
    case NVML_ERROR_DRIVER_NOT_LOADED: return "Driver Not Loaded";
    case NVML_ERROR_TIMEOUT: return "Timeout";
    case NVML_ERROR_IRQ_ISSUE: return "Interrupt Request Issue";
    case NVML_ERROR_LIBRARY_NOT_FOUND: return "NVML Shared Library Not Found";
    case NVML_ERROR_FUNCTION_NOT_FOUND: return "Function Not Found";
    case NVML_ERROR_CORRUPTED_INFOROM: return "Corrupted infoROM";
    case NVML_ERROR_GPU_IS_LOST: return "GPU is lost";
    case NVML_ERROR_RESET_REQUIRED: return "GPU requires restart";
    case NVML_ERROR_OPERATING_SYSTEM: return "The operating system has blocked the request.";
    case NVML_ERROR_LIB_RM_VERSION_MISMATCH: return "RM has detected an NVML/RM version mismatch.";
    case NVML_ERROR_IN_USE: return "In use by another client";
    case NVML_ERROR_MEMORY: return "Insufficient Memory";
    case NVML_ERROR_NO_DATA: return "No data";
    case NVML_ERROR_VGPU_ECC_NOT_SUPPORTED: return "vGPU ECC not supported";
    case NVML_ERROR_INSUFFICIENT_RESOURCES: return "Insufficient Resources";
    case NVML_ERROR_FREQ_NOT_SUPPORTED: return "Frequency not supported";
    case NVML_ERROR_ARGUMENT_VERSION_MISMATCH: return "Argument version mismatch";
    case NVML_ERROR_DEPRECATED: return "Deprecated";
    case NVML_ERROR_NOT_READY: return "Not Ready";
    case NVML_ERROR_GPU_NOT_FOUND: return "GPU not found";
    case NVML_ERROR_INVALID_STATE: return "Invalid state";
    case NVML_ERROR_UNKNOWN: return "Unknown Error";
    }
    return "Unknown Error";
}

// ---- system queries ---------------------------------------------------------------------------

FAKE_API nvmlReturn_t nvmlSystemGetDriverVersion(char* version, unsigned int length) {
    return system_call(__func__, [&](const Scenario& s) { return put_string(s.nvml.driver_version, version, length); });
}

FAKE_API nvmlReturn_t nvmlSystemGetNVMLVersion(char* version, unsigned int length) {
    return system_call(__func__, [&](const Scenario& s) { return put_string(s.nvml.nvml_version, version, length); });
}

FAKE_API nvmlReturn_t nvmlSystemGetCudaDriverVersion(int* version) { return cuda_driver_version(__func__, version); }

#ifndef FAKE_OLD_DRIVER
FAKE_API nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int* version) { return cuda_driver_version(__func__, version); }
#endif

FAKE_API nvmlReturn_t nvmlSystemGetProcessName(unsigned int pid, char* name, unsigned int length) {
    return system_call(__func__, [&](const Scenario& s) {
        if (name == nullptr || length == 0) return NVML_ERROR_INVALID_ARGUMENT;
        for (const auto& gpu : s.gpus) {
            for (const auto& p : gpu.processes) {
                if (p.pid != pid) continue;
                const auto n = p.name.size() < length ? p.name.size() : length - 1;  // truncates, as the real one
                std::memcpy(name, p.name.data(), n);
                name[n] = '\0';
                return NVML_SUCCESS;
            }
        }
        return NVML_ERROR_NOT_FOUND;
    });
}

// ---- enumeration ------------------------------------------------------------------------------

FAKE_API nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int* n) { return count(__func__, n); }
FAKE_API nvmlReturn_t nvmlDeviceGetCount(unsigned int* n) { return count(__func__, n); }

FAKE_API nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t* device) {
    return handle_by_index(__func__, index, device);
}
FAKE_API nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned int index, nvmlDevice_t* device) {
    return handle_by_index(__func__, index, device);
}

FAKE_API nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char* bus_id, nvmlDevice_t* device) {
    return pci_bus_id_lookup(__func__, bus_id, device);
}
FAKE_API nvmlReturn_t nvmlDeviceGetHandleByPciBusId(const char* bus_id, nvmlDevice_t* device) {
    return pci_bus_id_lookup(__func__, bus_id, device);
}

// ---- identity ---------------------------------------------------------------------------------

FAKE_API nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char* name, unsigned int length) {
    return device_call(__func__, device, [&](const Gpu& gpu) { return put_string(gpu.name, name, length); });
}

FAKE_API nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char* uuid, unsigned int length) {
    return device_call(__func__, device, [&](const Gpu& gpu) { return put_string(gpu.uuid, uuid, length); });
}

#ifndef FAKE_OLD_DRIVER
FAKE_API nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t* pci) {
    return device_call(__func__, device, [&](const Gpu& gpu) {
        if (pci == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
        *pci = nvmlPciInfo_t{};
        gpuscout_fake::copy_string(gpu.legacy_bus_id(), pci->busIdLegacy, sizeof pci->busIdLegacy);
        gpuscout_fake::copy_string(gpu.nvml_bus_id(), pci->busId, sizeof pci->busId);
        pci->domain = gpu.domain;
        pci->bus = gpu.bus;
        pci->device = gpu.device;
        pci->pciDeviceId = gpu.pci_device_id;
        pci->pciSubSystemId = gpu.pci_subsystem_id;
        return NVML_SUCCESS;
    });
}
#endif

FAKE_API nvmlReturn_t nvmlDeviceGetPciInfo(nvmlDevice_t device, nvmlPciInfo_v1_t* pci) {
    return device_call(__func__, device, [&](const Gpu& gpu) {
        if (pci == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
        *pci = nvmlPciInfo_v1_t{};
        gpuscout_fake::copy_string(gpu.legacy_bus_id(), pci->busId, sizeof pci->busId);
        pci->domain = gpu.domain;
        pci->bus = gpu.bus;
        pci->device = gpu.device;
        pci->pciDeviceId = gpu.pci_device_id;
        pci->pciSubSystemId = gpu.pci_subsystem_id;
        return NVML_SUCCESS;
    });
}

FAKE_API nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t device, int* major, int* minor) {
    return device_call(__func__, device, [&](const Gpu& gpu) {
        if (major == nullptr || minor == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
        *major = gpu.cc_major;
        *minor = gpu.cc_minor;
        return NVML_SUCCESS;
    });
}

#ifndef FAKE_OLD_DRIVER
FAKE_API nvmlReturn_t nvmlDeviceGetNumGpuCores(nvmlDevice_t device, unsigned int* cores) {
    return device_call(__func__, device, [&](const Gpu& gpu) { return put(gpu.num_gpu_cores, cores); });
}

FAKE_API nvmlReturn_t nvmlDeviceGetMemoryBusWidth(nvmlDevice_t device, unsigned int* width) {
    return device_call(__func__, device, [&](const Gpu& gpu) { return put(gpu.memory_bus_width, width); });
}
#endif

// ---- memory -----------------------------------------------------------------------------------

FAKE_API nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t* memory) {
    return memory_v1(device, memory);
}

#ifndef FAKE_OLD_DRIVER
FAKE_API nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t device, nvmlMemory_v2_t* memory) {
    return device_call(__func__, device, [&](const Gpu& gpu) {
        if (memory == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
        if (memory->version != nvmlMemory_v2) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
        memory->total = gpu.memory_total;
        memory->reserved = gpu.memory_reserved;
        memory->used = gpu.memory_used;
        memory->free = gpu.memory_total - gpu.memory_reserved - gpu.memory_used;
        return NVML_SUCCESS;
    });
}
#endif

// ---- telemetry --------------------------------------------------------------------------------

FAKE_API nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, nvmlTemperatureSensors_t sensor,
                                               unsigned int* temp) {
    return device_call(__func__, device, [&](const Gpu& gpu) {
        if (sensor != NVML_TEMPERATURE_GPU) return NVML_ERROR_INVALID_ARGUMENT;
        return put(gpu.temperature_c, temp);
    });
}

FAKE_API nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int* power_mw) {
    return device_call(__func__, device, [&](const Gpu& gpu) { return put(gpu.power_mw, power_mw); });
}

FAKE_API nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t device, unsigned int* limit_mw) {
    return device_call(__func__, device, [&](const Gpu& gpu) { return put(gpu.power_limit_mw, limit_mw); });
}

FAKE_API nvmlReturn_t nvmlDeviceGetPowerManagementLimit(nvmlDevice_t device, unsigned int* limit_mw) {
    return device_call(__func__, device, [&](const Gpu& gpu) { return put(gpu.power_management_limit_mw, limit_mw); });
}

FAKE_API nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t* util) {
    return device_call(__func__, device, [&](const Gpu& gpu) {
        if (util == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
        if (!gpu.util_gpu || !gpu.util_memory) return NVML_ERROR_NOT_SUPPORTED;
        util->gpu = *gpu.util_gpu;
        util->memory = *gpu.util_memory;
        return NVML_SUCCESS;
    });
}

FAKE_API nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t device, unsigned int* gen) {
    return device_call(__func__, device, [&](const Gpu& gpu) { return put(gpu.pcie_gen, gen); });
}

FAKE_API nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t device, unsigned int* width) {
    return device_call(__func__, device, [&](const Gpu& gpu) { return put(gpu.pcie_width, width); });
}

FAKE_API nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t device, unsigned int* gen) {
    return device_call(__func__, device, [&](const Gpu& gpu) { return put(gpu.pcie_gen_max, gen); });
}

FAKE_API nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t device, unsigned int* width) {
    return device_call(__func__, device, [&](const Gpu& gpu) { return put(gpu.pcie_width_max, width); });
}

FAKE_API nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t device, nvmlClockType_t type, unsigned int* mhz) {
    return clock(__func__, device, type, mhz, [](const Gpu& gpu, nvmlClockType_t t) {
        switch (t) {
        case NVML_CLOCK_GRAPHICS: return gpu.clock_graphics_mhz;
        case NVML_CLOCK_SM: return gpu.clock_sm_mhz;
        case NVML_CLOCK_MEM: return gpu.clock_mem_mhz;
        case NVML_CLOCK_VIDEO: return gpu.clock_video_mhz;
        }
        return std::optional<unsigned>{};
    });
}

FAKE_API nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t device, nvmlClockType_t type, unsigned int* mhz) {
    return clock(__func__, device, type, mhz, [](const Gpu& gpu, nvmlClockType_t t) {
        switch (t) {
        case NVML_CLOCK_GRAPHICS: return gpu.max_clock_graphics_mhz;
        case NVML_CLOCK_SM: return gpu.max_clock_sm_mhz;
        case NVML_CLOCK_MEM: return gpu.max_clock_mem_mhz;
        case NVML_CLOCK_VIDEO: return gpu.clock_video_mhz;
        }
        return std::optional<unsigned>{};
    });
}

FAKE_API nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t device, unsigned long long* reasons) {
    return throttle_reasons(__func__, device, reasons);
}

#ifndef FAKE_OLD_DRIVER
FAKE_API nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t device, unsigned long long* reasons) {
    return throttle_reasons(__func__, device, reasons);
}
#endif

// ---- processes --------------------------------------------------------------------------------

#ifndef FAKE_OLD_DRIVER
FAKE_API nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t device, unsigned int* count,
                                                              nvmlProcessInfo_t* infos) {
    return running_processes(__func__, device, count, infos);
}
#endif

FAKE_API nvmlReturn_t nvmlDeviceGetComputeRunningProcesses(nvmlDevice_t device, unsigned int* count,
                                                           nvmlProcessInfo_v1_t* infos) {
    return running_processes(__func__, device, count, infos);
}
