// Fake libnvidia-ml.so.1: the public NVML C ABI answering from a scenario file
// (GPUSCOUT_FAKE_SCENARIO, format in ../scenarios/README.md). Built twice: the full library and,
// with FAKE_OLD_DRIVER, one that lacks the late-added entry points so callers' fallbacks run.
#include "vendor/nvml_abi.hpp"
#include "scenario.hpp"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace nvml = gpuscout::vendor::nvml;

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

nvml::Device handle_of(std::size_t index) { return reinterpret_cast<nvml::Device>(&device_tokens[index]); }

nvml::Return as_return(int code) { return static_cast<nvml::Return>(code); }

std::size_t device_count(const Scenario& s) { return s.gpus.size() < max_devices ? s.gpus.size() : max_devices; }

const Gpu* gpu_of(const Scenario& s, nvml::Device handle) {
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
nvml::Return system_call(const char* function, Body body) {
    auto& st = state();
    std::lock_guard lock(st.mutex);
    if (st.refcount == 0) return nvml::ERROR_UNINITIALIZED;
    if (const int e = scenario_error(st.scenario, function)) return as_return(e);
    return body(st.scenario);
}

// Like system_call, for a device handle; the GPU's own injected errors apply after the handle check.
template <class Body>
nvml::Return device_call(const char* function, nvml::Device device, Body body) {
    return system_call(function, [&](const Scenario& s) {
        const Gpu* gpu = gpu_of(s, device);
        if (gpu == nullptr) return nvml::ERROR_INVALID_ARGUMENT;
        if (const int e = gpu->error_for(function)) return as_return(e);
        return body(*gpu);
    });
}

template <class T, class Out>
nvml::Return put(const std::optional<T>& value, Out* out) {
    if (out == nullptr) return nvml::ERROR_INVALID_ARGUMENT;
    if (!value) return nvml::ERROR_NOT_SUPPORTED;
    *out = static_cast<Out>(*value);
    return nvml::SUCCESS;
}

nvml::Return put_string(const std::string& text, char* buf, unsigned int length) {
    if (buf == nullptr) return nvml::ERROR_INVALID_ARGUMENT;
    return gpuscout_fake::copy_string(text, buf, length) ? nvml::SUCCESS : nvml::ERROR_INSUFFICIENT_SIZE;
}

nvml::Return init(const char* function) {
    Scenario fresh;
    if (!gpuscout_fake::load_scenario_from_env(fresh)) return nvml::ERROR_UNKNOWN;
    // A wedged driver blocks in init, before anything else; the caller's timeout must catch it.
    if (fresh.nvml.hang_seconds > 0) std::this_thread::sleep_for(std::chrono::seconds(fresh.nvml.hang_seconds));
    if (fresh.nvml.init_error != 0) return as_return(fresh.nvml.init_error);
    if (const int e = scenario_error(fresh, function)) return as_return(e);
    auto& st = state();
    std::lock_guard lock(st.mutex);
    if (st.refcount == 0) st.scenario = std::move(fresh);
    ++st.refcount;
    return nvml::SUCCESS;
}

template <class Info>
nvml::Return running_processes(const char* function, nvml::Device device, unsigned int* count, Info* infos) {
    return device_call(function, device, [&](const Gpu& gpu) {
        if (count == nullptr) return nvml::ERROR_INVALID_ARGUMENT;
        const auto n = static_cast<unsigned int>(gpu.processes.size());
        if (*count < n || (infos == nullptr && n > 0)) {
            *count = n;
            return nvml::ERROR_INSUFFICIENT_SIZE;
        }
        for (unsigned int i = 0; i < n; ++i) {
            const auto& p = gpu.processes[i];
            Info info{};
            info.pid = p.pid;
            info.usedGpuMemory = p.used_bytes.value_or(nvml::VALUE_NOT_AVAILABLE);
            if constexpr (sizeof(Info) == sizeof(nvml::ProcessInfo)) {
                info.gpuInstanceId = 0xFFFFFFFFU;
                info.computeInstanceId = 0xFFFFFFFFU;
            }
            infos[i] = info;
        }
        *count = n;
        return nvml::SUCCESS;
    });
}

nvml::Return memory_v1(nvml::Device device, nvml::Memory* memory) {
    return device_call("nvmlDeviceGetMemoryInfo", device, [&](const Gpu& gpu) {
        if (memory == nullptr) return nvml::ERROR_INVALID_ARGUMENT;
        memory->total = gpu.memory_total;
        memory->used = gpu.memory_used_v1;
        memory->free = gpu.memory_total - gpu.memory_used_v1;
        return nvml::SUCCESS;
    });
}

template <class Pick>
nvml::Return clock(const char* function, nvml::Device device, unsigned type, unsigned int* out, Pick pick) {
    return device_call(function, device, [&](const Gpu& gpu) {
        if (static_cast<int>(type) < 0 || static_cast<int>(type) > 3) return nvml::ERROR_INVALID_ARGUMENT;
        return put(pick(gpu, type), out);
    });
}

nvml::Return pci_bus_id_lookup(const char* function, const char* bus_id, nvml::Device* device) {
    return system_call(function, [&](const Scenario& s) {
        if (bus_id == nullptr || device == nullptr) return nvml::ERROR_INVALID_ARGUMENT;
        std::uint32_t domain = 0, bus = 0, dev = 0, fn = 0;
        if (!gpuscout_fake::parse_bus_id(bus_id, domain, bus, dev, fn)) return nvml::ERROR_INVALID_ARGUMENT;
        for (std::size_t i = 0; i < device_count(s); ++i) {
            const Gpu& g = s.gpus[i];
            if (g.domain == domain && g.bus == bus && g.device == dev && g.function == fn) {
                if (const int e = g.error_for(function)) return as_return(e);
                *device = handle_of(i);
                return nvml::SUCCESS;
            }
        }
        return nvml::ERROR_NOT_FOUND;
    });
}

nvml::Return handle_by_index(const char* function, unsigned int index, nvml::Device* device) {
    return system_call(function, [&](const Scenario& s) {
        if (device == nullptr || index >= device_count(s)) return nvml::ERROR_INVALID_ARGUMENT;
        if (const int e = s.gpus[index].error_for(function)) return as_return(e);
        *device = handle_of(index);
        return nvml::SUCCESS;
    });
}

nvml::Return count(const char* function, unsigned int* n) {
    return system_call(function, [&](const Scenario& s) {
        if (n == nullptr) return nvml::ERROR_INVALID_ARGUMENT;
        *n = static_cast<unsigned int>(device_count(s));
        return nvml::SUCCESS;
    });
}

nvml::Return cuda_driver_version(const char* function, int* version) {
    return system_call(function, [&](const Scenario& s) {
        if (version == nullptr) return nvml::ERROR_INVALID_ARGUMENT;
        *version = s.nvml.cuda_driver_version;
        return nvml::SUCCESS;
    });
}

nvml::Return throttle_reasons(const char* function, nvml::Device device, unsigned long long* reasons) {
    return device_call(function, device, [&](const Gpu& gpu) { return put(gpu.throttle_reasons, reasons); });
}

}  // namespace

// ---- initialisation ---------------------------------------------------------------------------

FAKE_API nvml::Return nvmlInit(void) { return init(__func__); }

#ifndef FAKE_OLD_DRIVER
FAKE_API nvml::Return nvmlInit_v2(void) { return init(__func__); }
FAKE_API nvml::Return nvmlInitWithFlags(unsigned int /*flags*/) { return init(__func__); }
#endif

FAKE_API nvml::Return nvmlShutdown(void) {
    auto& st = state();
    std::lock_guard lock(st.mutex);
    if (st.refcount == 0) return nvml::ERROR_UNINITIALIZED;
    --st.refcount;
    return nvml::SUCCESS;
}

FAKE_API const char* nvmlErrorString(nvml::Return result) {
    switch (result) {
    case nvml::SUCCESS: return "Success";
    case nvml::ERROR_UNINITIALIZED: return "Uninitialized";
    case nvml::ERROR_INVALID_ARGUMENT: return "Invalid Argument";
    case nvml::ERROR_NOT_SUPPORTED: return "Not Supported";
    case nvml::ERROR_NO_PERMISSION: return "Insufficient Permissions";
    case nvml::ERROR_ALREADY_INITIALIZED: return "Already Initialized";
    case nvml::ERROR_NOT_FOUND: return "Not Found";
    case nvml::ERROR_INSUFFICIENT_SIZE: return "Insufficient Size";
    case nvml::ERROR_INSUFFICIENT_POWER: return "Insufficient External Power";
    case nvml::ERROR_DRIVER_NOT_LOADED: return "Driver Not Loaded";
    case nvml::ERROR_TIMEOUT: return "Timeout";
    case nvml::ERROR_IRQ_ISSUE: return "Interrupt Request Issue";
    case nvml::ERROR_LIBRARY_NOT_FOUND: return "NVML Shared Library Not Found";
    case nvml::ERROR_FUNCTION_NOT_FOUND: return "Function Not Found";
    case nvml::ERROR_CORRUPTED_INFOROM: return "Corrupted infoROM";
    case nvml::ERROR_GPU_IS_LOST: return "GPU is lost";
    case nvml::ERROR_RESET_REQUIRED: return "GPU requires restart";
    case nvml::ERROR_OPERATING_SYSTEM: return "The operating system has blocked the request.";
    case nvml::ERROR_LIB_RM_VERSION_MISMATCH: return "RM has detected an NVML/RM version mismatch.";
    case nvml::ERROR_IN_USE: return "In use by another client";
    case nvml::ERROR_MEMORY: return "Insufficient Memory";
    case nvml::ERROR_NO_DATA: return "No data";
    case nvml::ERROR_VGPU_ECC_NOT_SUPPORTED: return "vGPU ECC not supported";
    case nvml::ERROR_INSUFFICIENT_RESOURCES: return "Insufficient Resources";
    case nvml::ERROR_FREQ_NOT_SUPPORTED: return "Frequency not supported";
    case nvml::ERROR_ARGUMENT_VERSION_MISMATCH: return "Argument version mismatch";
    case nvml::ERROR_DEPRECATED: return "Deprecated";
    case nvml::ERROR_NOT_READY: return "Not Ready";
    case nvml::ERROR_GPU_NOT_FOUND: return "GPU not found";
    case nvml::ERROR_INVALID_STATE: return "Invalid state";
    case nvml::ERROR_UNKNOWN: return "Unknown Error";
    }
    return "Unknown Error";
}

// ---- system queries ---------------------------------------------------------------------------

FAKE_API nvml::Return nvmlSystemGetDriverVersion(char* version, unsigned int length) {
    return system_call(__func__, [&](const Scenario& s) { return put_string(s.nvml.driver_version, version, length); });
}

FAKE_API nvml::Return nvmlSystemGetNVMLVersion(char* version, unsigned int length) {
    return system_call(__func__, [&](const Scenario& s) { return put_string(s.nvml.nvml_version, version, length); });
}

FAKE_API nvml::Return nvmlSystemGetCudaDriverVersion(int* version) { return cuda_driver_version(__func__, version); }

#ifndef FAKE_OLD_DRIVER
FAKE_API nvml::Return nvmlSystemGetCudaDriverVersion_v2(int* version) { return cuda_driver_version(__func__, version); }
#endif

FAKE_API nvml::Return nvmlSystemGetProcessName(unsigned int pid, char* name, unsigned int length) {
    return system_call(__func__, [&](const Scenario& s) {
        if (name == nullptr || length == 0) return nvml::ERROR_INVALID_ARGUMENT;
        for (const auto& gpu : s.gpus) {
            for (const auto& p : gpu.processes) {
                if (p.pid != pid) continue;
                const auto n = p.name.size() < length ? p.name.size() : length - 1;  // truncates, as the real one
                std::memcpy(name, p.name.data(), n);
                name[n] = '\0';
                return nvml::SUCCESS;
            }
        }
        return nvml::ERROR_NOT_FOUND;
    });
}

// ---- enumeration ------------------------------------------------------------------------------

FAKE_API nvml::Return nvmlDeviceGetCount_v2(unsigned int* n) { return count(__func__, n); }
FAKE_API nvml::Return nvmlDeviceGetCount(unsigned int* n) { return count(__func__, n); }

FAKE_API nvml::Return nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvml::Device* device) {
    return handle_by_index(__func__, index, device);
}
FAKE_API nvml::Return nvmlDeviceGetHandleByIndex(unsigned int index, nvml::Device* device) {
    return handle_by_index(__func__, index, device);
}

FAKE_API nvml::Return nvmlDeviceGetHandleByPciBusId_v2(const char* bus_id, nvml::Device* device) {
    return pci_bus_id_lookup(__func__, bus_id, device);
}
FAKE_API nvml::Return nvmlDeviceGetHandleByPciBusId(const char* bus_id, nvml::Device* device) {
    return pci_bus_id_lookup(__func__, bus_id, device);
}

// ---- identity ---------------------------------------------------------------------------------

FAKE_API nvml::Return nvmlDeviceGetName(nvml::Device device, char* name, unsigned int length) {
    return device_call(__func__, device, [&](const Gpu& gpu) { return put_string(gpu.name, name, length); });
}

FAKE_API nvml::Return nvmlDeviceGetUUID(nvml::Device device, char* uuid, unsigned int length) {
    return device_call(__func__, device, [&](const Gpu& gpu) { return put_string(gpu.uuid, uuid, length); });
}

// nullopt in the scenario: NOT_SUPPORTED, as for a GPU or system without the fact (MIG before Ampere, persistence
// mode on Windows).
FAKE_API nvml::Return nvmlDeviceGetVbiosVersion(nvml::Device device, char* version, unsigned int length) {
    return device_call(__func__, device, [&](const Gpu& gpu) {
        if (!gpu.vbios_version) return nvml::ERROR_NOT_SUPPORTED;
        return put_string(*gpu.vbios_version, version, length);
    });
}

FAKE_API nvml::Return nvmlDeviceGetPersistenceMode(nvml::Device device, nvml::EnableState* mode) {
    return device_call(__func__, device, [&](const Gpu& gpu) {
        if (mode == nullptr) return nvml::ERROR_INVALID_ARGUMENT;
        if (!gpu.persistence_mode) return nvml::ERROR_NOT_SUPPORTED;
        *mode = *gpu.persistence_mode ? nvml::FEATURE_ENABLED : nvml::FEATURE_DISABLED;
        return nvml::SUCCESS;
    });
}

FAKE_API nvml::Return nvmlDeviceGetMigMode(nvml::Device device, unsigned int* current, unsigned int* pending) {
    return device_call(__func__, device, [&](const Gpu& gpu) {
        if (current == nullptr || pending == nullptr) return nvml::ERROR_INVALID_ARGUMENT;
        if (!gpu.mig_mode) return nvml::ERROR_NOT_SUPPORTED;
        *current = *pending = *gpu.mig_mode ? nvml::MIG_ENABLE : nvml::MIG_DISABLE;
        return nvml::SUCCESS;
    });
}

#ifndef FAKE_OLD_DRIVER
FAKE_API nvml::Return nvmlDeviceGetPciInfo_v3(nvml::Device device, nvml::PciInfoV3* pci) {
    return device_call(__func__, device, [&](const Gpu& gpu) {
        if (pci == nullptr) return nvml::ERROR_INVALID_ARGUMENT;
        *pci = nvml::PciInfoV3{};
        gpuscout_fake::copy_string(gpu.legacy_bus_id(), pci->busIdLegacy, sizeof pci->busIdLegacy);
        gpuscout_fake::copy_string(gpu.nvml_bus_id(), pci->busId, sizeof pci->busId);
        pci->domain = gpu.domain;
        pci->bus = gpu.bus;
        pci->device = gpu.device;
        pci->pciDeviceId = gpu.pci_device_id;
        pci->pciSubSystemId = gpu.pci_subsystem_id;
        return nvml::SUCCESS;
    });
}
#endif

FAKE_API nvml::Return nvmlDeviceGetPciInfo(nvml::Device device, nvml::PciInfoV1* pci) {
    return device_call(__func__, device, [&](const Gpu& gpu) {
        if (pci == nullptr) return nvml::ERROR_INVALID_ARGUMENT;
        *pci = nvml::PciInfoV1{};
        gpuscout_fake::copy_string(gpu.legacy_bus_id(), pci->busId, sizeof pci->busId);
        pci->domain = gpu.domain;
        pci->bus = gpu.bus;
        pci->device = gpu.device;
        pci->pciDeviceId = gpu.pci_device_id;
        pci->pciSubSystemId = gpu.pci_subsystem_id;
        return nvml::SUCCESS;
    });
}

FAKE_API nvml::Return nvmlDeviceGetCudaComputeCapability(nvml::Device device, int* major, int* minor) {
    return device_call(__func__, device, [&](const Gpu& gpu) {
        if (major == nullptr || minor == nullptr) return nvml::ERROR_INVALID_ARGUMENT;
        *major = gpu.cc_major;
        *minor = gpu.cc_minor;
        return nvml::SUCCESS;
    });
}

#ifndef FAKE_OLD_DRIVER
FAKE_API nvml::Return nvmlDeviceGetNumGpuCores(nvml::Device device, unsigned int* cores) {
    return device_call(__func__, device, [&](const Gpu& gpu) { return put(gpu.num_gpu_cores, cores); });
}

FAKE_API nvml::Return nvmlDeviceGetMemoryBusWidth(nvml::Device device, unsigned int* width) {
    return device_call(__func__, device, [&](const Gpu& gpu) { return put(gpu.memory_bus_width, width); });
}
#endif

// ---- Windows -----------------------------------------------------------------------------------

namespace {

// Older drivers have only the unversioned call; _v2 has the same arguments.
nvml::Return driver_model(const char* function, nvml::Device device, nvml::DriverModel* current,
                          nvml::DriverModel* pending) {
    return device_call(function, device, [&](const Gpu& gpu) {
        if (current == nullptr && pending == nullptr) return nvml::ERROR_INVALID_ARGUMENT;
        if (!gpu.driver_model) return nvml::ERROR_NOT_SUPPORTED;
        if (current != nullptr) *current = static_cast<nvml::DriverModel>(*gpu.driver_model);
        if (pending != nullptr) *pending = static_cast<nvml::DriverModel>(gpu.driver_model_pending.value_or(0));
        return nvml::SUCCESS;
    });
}

}  // namespace

FAKE_API nvml::Return nvmlDeviceGetDriverModel(nvml::Device device, nvml::DriverModel* current,
                                               nvml::DriverModel* pending) {
    return driver_model(__func__, device, current, pending);
}

#ifndef FAKE_OLD_DRIVER
FAKE_API nvml::Return nvmlDeviceGetDriverModel_v2(nvml::Device device, nvml::DriverModel* current,
                                                  nvml::DriverModel* pending) {
    return driver_model(__func__, device, current, pending);
}
#endif

// ---- memory health -----------------------------------------------------------------------------

FAKE_API nvml::Return nvmlDeviceGetEccMode(nvml::Device device, nvml::EnableState* current,
                                           nvml::EnableState* pending) {
    return device_call(__func__, device, [&](const Gpu& gpu) {
        if (current == nullptr || pending == nullptr) return nvml::ERROR_INVALID_ARGUMENT;
        const auto& h = gpu.memory_health;
        if (!h.present) return nvml::ERROR_NOT_SUPPORTED;
        const auto state = [](bool on) { return on ? nvml::FEATURE_ENABLED : nvml::FEATURE_DISABLED; };
        *current = state(gpu.ecc_enabled);
        *pending = state(h.ecc_pending.value_or(gpu.ecc_enabled));
        return nvml::SUCCESS;
    });
}

// As the real driver: no counts while ECC is off.
FAKE_API nvml::Return nvmlDeviceGetTotalEccErrors(nvml::Device device, unsigned error_type, unsigned counter_type,
                                                  unsigned long long* count) {
    return device_call(__func__, device, [&](const Gpu& gpu) {
        if (count == nullptr || error_type > 1 || counter_type > 1) return nvml::ERROR_INVALID_ARGUMENT;
        const auto& h = gpu.memory_health;
        if (!h.has_ecc_errors || !gpu.ecc_enabled) return nvml::ERROR_NOT_SUPPORTED;
        *count = h.ecc_errors[error_type][counter_type];
        return nvml::SUCCESS;
    });
}

// NVML's two-call protocol: room smaller than the count answers INSUFFICIENT_SIZE with the count.
FAKE_API nvml::Return nvmlDeviceGetRetiredPages(nvml::Device device, unsigned cause, unsigned int* page_count,
                                                unsigned long long* addresses) {
    return device_call(__func__, device, [&](const Gpu& gpu) {
        if (page_count == nullptr || cause > 1) return nvml::ERROR_INVALID_ARGUMENT;
        const auto& h = gpu.memory_health;
        if (!h.has_retired_pages) return nvml::ERROR_NOT_SUPPORTED;
        const unsigned n = h.retired_pages[cause];
        const unsigned room = *page_count;
        *page_count = n;
        if (room < n) return nvml::ERROR_INSUFFICIENT_SIZE;
        if (n > 0 && addresses == nullptr) return nvml::ERROR_INVALID_ARGUMENT;
        for (unsigned k = 0; k < n; ++k) addresses[k] = 0x100000ULL * (k + 1) + cause;
        return nvml::SUCCESS;
    });
}

FAKE_API nvml::Return nvmlDeviceGetRetiredPagesPendingStatus(nvml::Device device, nvml::EnableState* pending) {
    return device_call(__func__, device, [&](const Gpu& gpu) {
        if (pending == nullptr) return nvml::ERROR_INVALID_ARGUMENT;
        if (!gpu.memory_health.has_retired_pages) return nvml::ERROR_NOT_SUPPORTED;
        *pending = gpu.memory_health.retired_pending ? nvml::FEATURE_ENABLED : nvml::FEATURE_DISABLED;
        return nvml::SUCCESS;
    });
}

FAKE_API nvml::Return nvmlDeviceGetRemappedRows(nvml::Device device, unsigned int* correctable,
                                                unsigned int* uncorrectable, unsigned int* pending,
                                                unsigned int* failed) {
    return device_call(__func__, device, [&](const Gpu& gpu) {
        if (!correctable || !uncorrectable || !pending || !failed) return nvml::ERROR_INVALID_ARGUMENT;
        const auto& h = gpu.memory_health;
        if (!h.has_remapped_rows) return nvml::ERROR_NOT_SUPPORTED;
        *correctable = h.rows_correctable;
        *uncorrectable = h.rows_uncorrectable;
        *pending = h.rows_pending ? 1 : 0;
        *failed = h.rows_failed ? 1 : 0;
        return nvml::SUCCESS;
    });
}

// ---- memory -----------------------------------------------------------------------------------

FAKE_API nvml::Return nvmlDeviceGetMemoryInfo(nvml::Device device, nvml::Memory* memory) {
    return memory_v1(device, memory);
}

#ifndef FAKE_OLD_DRIVER
FAKE_API nvml::Return nvmlDeviceGetMemoryInfo_v2(nvml::Device device, nvml::MemoryV2* memory) {
    return device_call(__func__, device, [&](const Gpu& gpu) {
        if (memory == nullptr) return nvml::ERROR_INVALID_ARGUMENT;
        if (memory->version != nvml::kMemoryV2Version) return nvml::ERROR_ARGUMENT_VERSION_MISMATCH;
        memory->total = gpu.memory_total;
        memory->reserved = gpu.memory_reserved;
        memory->used = gpu.memory_used;
        memory->free = gpu.memory_total - gpu.memory_reserved - gpu.memory_used;
        return nvml::SUCCESS;
    });
}
#endif

// ---- telemetry --------------------------------------------------------------------------------

FAKE_API nvml::Return nvmlDeviceGetTemperature(nvml::Device device, unsigned sensor,
                                               unsigned int* temp) {
    return device_call(__func__, device, [&](const Gpu& gpu) {
        if (sensor != nvml::TEMPERATURE_GPU) return nvml::ERROR_INVALID_ARGUMENT;
        return put(gpu.temperature_c, temp);
    });
}

#ifndef FAKE_OLD_DRIVER
FAKE_API nvml::Return nvmlDeviceGetTemperatureV(nvml::Device device, nvml::Temperature* temp) {
    return device_call(__func__, device, [&](const Gpu& gpu) {
        if (temp == nullptr) return nvml::ERROR_INVALID_ARGUMENT;
        if (temp->version != nvml::kTemperatureV1Version) return nvml::ERROR_ARGUMENT_VERSION_MISMATCH;
        if (temp->sensorType != nvml::TEMPERATURE_GPU) return nvml::ERROR_INVALID_ARGUMENT;
        if (!gpu.temperature_c) return nvml::ERROR_NOT_SUPPORTED;
        temp->temperature = static_cast<int>(*gpu.temperature_c);
        return nvml::SUCCESS;
    });
}

// Only NVML_FI_DEV_POWER_INSTANT is known; every other field answers NOT_SUPPORTED in its own nvmlReturn.
FAKE_API nvml::Return nvmlDeviceGetFieldValues(nvml::Device device, int count, nvml::FieldValue* values) {
    return device_call(__func__, device, [&](const Gpu& gpu) {
        if (values == nullptr || count < 0) return nvml::ERROR_INVALID_ARGUMENT;
        for (int i = 0; i < count; ++i) {
            nvml::FieldValue& v = values[i];
            v.timestamp = 0;
            v.latencyUsec = 0;
            v.valueType = nvml::VALUE_TYPE_UNSIGNED_INT;
            v.value.ullVal = 0;
            v.nvmlReturn = nvml::ERROR_NOT_SUPPORTED;
            if (v.fieldId == nvml::FI_DEV_POWER_INSTANT && gpu.power_instant_mw) {
                v.value.uiVal = *gpu.power_instant_mw;
                v.nvmlReturn = nvml::SUCCESS;
            }
        }
        return nvml::SUCCESS;
    });
}

// Affinity: the fake binds nothing (the tests run on any machine); it answers as a driver that can.
FAKE_API nvml::Return nvmlDeviceSetCpuAffinity(nvml::Device device) {
    return device_call(__func__, device, [&](const Gpu&) { return nvml::SUCCESS; });
}

FAKE_API nvml::Return nvmlDeviceClearCpuAffinity(nvml::Device device) {
    return device_call(__func__, device, [&](const Gpu&) { return nvml::SUCCESS; });
}

FAKE_API nvml::Return nvmlDeviceGetCpuAffinity(nvml::Device device, unsigned int size, unsigned long* cpus) {
    return device_call(__func__, device, [&](const Gpu&) {
        if (cpus == nullptr || size == 0) return nvml::ERROR_INVALID_ARGUMENT;
        for (unsigned i = 0; i < size; ++i) cpus[i] = 0;
        cpus[0] = ~0ul;  // CPUs 0-63: one socket's worth
        return nvml::SUCCESS;
    });
}
#endif

FAKE_API nvml::Return nvmlDeviceGetPowerUsage(nvml::Device device, unsigned int* power_mw) {
    return device_call(__func__, device, [&](const Gpu& gpu) { return put(gpu.power_mw, power_mw); });
}

FAKE_API nvml::Return nvmlDeviceGetEnforcedPowerLimit(nvml::Device device, unsigned int* limit_mw) {
    return device_call(__func__, device, [&](const Gpu& gpu) { return put(gpu.power_limit_mw, limit_mw); });
}

FAKE_API nvml::Return nvmlDeviceGetPowerManagementLimit(nvml::Device device, unsigned int* limit_mw) {
    return device_call(__func__, device, [&](const Gpu& gpu) { return put(gpu.power_management_limit_mw, limit_mw); });
}

FAKE_API nvml::Return nvmlDeviceGetUtilizationRates(nvml::Device device, nvml::Utilization* util) {
    return device_call(__func__, device, [&](const Gpu& gpu) {
        if (util == nullptr) return nvml::ERROR_INVALID_ARGUMENT;
        if (!gpu.util_gpu || !gpu.util_memory) return nvml::ERROR_NOT_SUPPORTED;
        util->gpu = *gpu.util_gpu;
        util->memory = *gpu.util_memory;
        return nvml::SUCCESS;
    });
}

FAKE_API nvml::Return nvmlDeviceGetCurrPcieLinkGeneration(nvml::Device device, unsigned int* gen) {
    return device_call(__func__, device, [&](const Gpu& gpu) { return put(gpu.pcie_gen, gen); });
}

FAKE_API nvml::Return nvmlDeviceGetCurrPcieLinkWidth(nvml::Device device, unsigned int* width) {
    return device_call(__func__, device, [&](const Gpu& gpu) { return put(gpu.pcie_width, width); });
}

FAKE_API nvml::Return nvmlDeviceGetMaxPcieLinkGeneration(nvml::Device device, unsigned int* gen) {
    return device_call(__func__, device, [&](const Gpu& gpu) { return put(gpu.pcie_gen_max, gen); });
}

FAKE_API nvml::Return nvmlDeviceGetMaxPcieLinkWidth(nvml::Device device, unsigned int* width) {
    return device_call(__func__, device, [&](const Gpu& gpu) { return put(gpu.pcie_width_max, width); });
}

FAKE_API nvml::Return nvmlDeviceGetClockInfo(nvml::Device device, unsigned type, unsigned int* mhz) {
    return clock(__func__, device, type, mhz, [](const Gpu& gpu, unsigned t) {
        switch (t) {
        case nvml::CLOCK_GRAPHICS: return gpu.clock_graphics_mhz;
        case nvml::CLOCK_SM: return gpu.clock_sm_mhz;
        case nvml::CLOCK_MEM: return gpu.clock_mem_mhz;
        case nvml::CLOCK_VIDEO: return gpu.clock_video_mhz;
        }
        return std::optional<unsigned>{};
    });
}

FAKE_API nvml::Return nvmlDeviceGetMaxClockInfo(nvml::Device device, unsigned type, unsigned int* mhz) {
    return clock(__func__, device, type, mhz, [](const Gpu& gpu, unsigned t) {
        switch (t) {
        case nvml::CLOCK_GRAPHICS: return gpu.max_clock_graphics_mhz;
        case nvml::CLOCK_SM: return gpu.max_clock_sm_mhz;
        case nvml::CLOCK_MEM: return gpu.max_clock_mem_mhz;
        case nvml::CLOCK_VIDEO: return gpu.clock_video_mhz;
        }
        return std::optional<unsigned>{};
    });
}

FAKE_API nvml::Return nvmlDeviceGetCurrentClocksThrottleReasons(nvml::Device device, unsigned long long* reasons) {
    return throttle_reasons(__func__, device, reasons);
}

#ifndef FAKE_OLD_DRIVER
FAKE_API nvml::Return nvmlDeviceGetCurrentClocksEventReasons(nvml::Device device, unsigned long long* reasons) {
    return throttle_reasons(__func__, device, reasons);
}
#endif

// ---- processes --------------------------------------------------------------------------------

#ifndef FAKE_OLD_DRIVER
FAKE_API nvml::Return nvmlDeviceGetComputeRunningProcesses_v3(nvml::Device device, unsigned int* count,
                                                              nvml::ProcessInfo* infos) {
    return running_processes(__func__, device, count, infos);
}
#endif

FAKE_API nvml::Return nvmlDeviceGetComputeRunningProcesses(nvml::Device device, unsigned int* count,
                                                           nvml::ProcessInfoV1* infos) {
    return running_processes(__func__, device, count, infos);
}
