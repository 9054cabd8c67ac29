// Fake libcuda.so.1: the public CUDA driver API answering from a scenario file
// (GPUSCOUT_FAKE_SCENARIO, format in ../scenarios/README.md). Honours CUDA_DEVICE_ORDER and
// CUDA_VISIBLE_DEVICES the way the real driver does, so callers must join devices by PCI bus id.
#include "cuda_abi.hpp"
#include "scenario.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#define FAKE_API extern "C" __attribute__((visibility("default")))

namespace {

using gpuscout_fake::Gpu;
using gpuscout_fake::Scenario;

constexpr std::size_t max_devices = 64;

struct State {
    std::mutex mutex;
    bool attempted = false;  // cuInit ran for `key`; its result is sticky, like the real driver's
    std::string key;         // the environment cuInit saw
    CUresult init_result = CUDA_ERROR_NOT_INITIALIZED;
    Scenario scenario;
    std::vector<std::size_t> visible;  // CUDA ordinal -> index into scenario.gpus
    std::vector<int> primary_refs;     // per CUDA ordinal
};

State& state() {
    static State s;
    return s;
}

char context_tokens[max_devices];
thread_local CUcontext current_context = nullptr;

std::string env_or(const char* name, const char* fallback) {
    const char* v = std::getenv(name);
    return v == nullptr ? fallback : v;
}

// What cuInit depends on; a change makes the fake re-read (the real driver reads it once per process).
std::string environment_key() {
    return env_or("GPUSCOUT_FAKE_SCENARIO", "") + '\x1f' + env_or("CUDA_VISIBLE_DEVICES", "\x01unset") + '\x1f' +
           env_or("CUDA_DEVICE_ORDER", "");
}

unsigned clock_mhz(const Gpu& g) {
    return g.cuda_clock_mhz.value_or(g.max_clock_sm_mhz.value_or(g.clock_sm_mhz.value_or(0)));
}

// CUDA_DEVICE_ORDER=FASTEST_FIRST (the default) or PCI_BUS_ID. Scenario gpus are in PCI order.
std::vector<std::size_t> device_order(const Scenario& s) {
    std::vector<std::size_t> order(s.gpus.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    if (env_or("CUDA_DEVICE_ORDER", "") == "PCI_BUS_ID") return order;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const Gpu& ga = s.gpus[a];
        const Gpu& gb = s.gpus[b];
        if (ga.cuda_speed_rank || gb.cuda_speed_rank) {
            const int ra = ga.cuda_speed_rank.value_or(INT_MAX);
            const int rb = gb.cuda_speed_rank.value_or(INT_MAX);
            if (ra != rb) return ra < rb;
        }
        const auto pa = static_cast<std::uint64_t>(ga.sm_count) * clock_mhz(ga);
        const auto pb = static_cast<std::uint64_t>(gb.sm_count) * clock_mhz(gb);
        return pa > pb;
    });
    return order;
}

std::string trim(const std::string& text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos) return {};
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

bool starts_with_nocase(const std::string& text, const std::string& prefix) {
    if (prefix.size() > text.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(text[i])) != std::tolower(static_cast<unsigned char>(prefix[i])))
            return false;
    return true;
}

// Applies CUDA_VISIBLE_DEVICES to `order`: indices into it, or GPU-<uuid prefix>; the list stops at
// the first entry that is invalid, unknown, ambiguous or repeated ("-1" and "" hide every device).
std::vector<std::size_t> visible_devices(const Scenario& s, const std::vector<std::size_t>& order) {
    const char* env = std::getenv("CUDA_VISIBLE_DEVICES");
    if (env == nullptr) return order;
    std::vector<std::size_t> out;
    std::string list = env;
    std::size_t start = 0;
    while (start <= list.size()) {
        const auto comma = std::min(list.find(',', start), list.size());
        const std::string entry = trim(list.substr(start, comma - start));
        start = comma + 1;
        std::optional<std::size_t> pick;
        if (!entry.empty() && std::all_of(entry.begin(), entry.end(), [](char c) { return c >= '0' && c <= '9'; })) {
            const auto i = std::strtoull(entry.c_str(), nullptr, 10);
            if (i < order.size()) pick = order[i];
        } else if (starts_with_nocase(entry, "GPU-") && entry.size() > 4) {
            int matches = 0;
            for (std::size_t idx : order) {
                if (starts_with_nocase(s.gpus[idx].uuid, entry)) {
                    pick = idx;
                    ++matches;
                }
            }
            if (matches != 1) pick.reset();
        }
        if (!pick || std::find(out.begin(), out.end(), *pick) != out.end()) break;
        out.push_back(*pick);
    }
    return out;
}

int scenario_error(const Scenario& s, const char* function) {
    const auto it = s.cuda.errors.find(function);
    return it == s.cuda.errors.end() ? 0 : it->second;
}

template <class Body>
CUresult api_call(const char* function, Body body) {
    auto& st = state();
    std::lock_guard lock(st.mutex);
    if (!st.attempted || st.init_result != CUDA_SUCCESS) return CUDA_ERROR_NOT_INITIALIZED;
    if (const int e = scenario_error(st.scenario, function)) return e;
    return body(st);
}

template <class Body>
CUresult device_call(const char* function, CUdevice dev, Body body) {
    return api_call(function, [&](State& st) {
        if (dev < 0 || static_cast<std::size_t>(dev) >= st.visible.size()) return CUDA_ERROR_INVALID_DEVICE;
        const Gpu& gpu = st.scenario.gpus[st.visible[static_cast<std::size_t>(dev)]];
        if (const int e = gpu.error_for(function)) return e;
        return body(gpu);
    });
}

CUresult copy_truncated(const std::string& text, char* buf, int len) {
    if (buf == nullptr || len <= 0) return CUDA_ERROR_INVALID_VALUE;
    const auto n = std::min(text.size(), static_cast<std::size_t>(len) - 1);
    std::memcpy(buf, text.data(), n);
    buf[n] = '\0';
    return CUDA_SUCCESS;
}

int max_threads_per_sm(const Gpu& g) {
    if (g.max_threads_per_sm > 0) return g.max_threads_per_sm;
    const int cc = g.cc_major * 10 + g.cc_minor;
    if (cc == 75) return 1024;
    if (cc == 86 || cc == 89 || cc == 120 || cc == 121) return 1536;
    return 2048;
}

CUresult uuid_of(const char* function, CUuuid* uuid, CUdevice dev) {
    return device_call(function, dev, [&](const Gpu& gpu) {
        if (uuid == nullptr) return CUDA_ERROR_INVALID_VALUE;
        *uuid = CUuuid{};
        std::size_t filled = 0;
        unsigned hi = 0;
        bool have_hi = false;
        for (std::size_t i = starts_with_nocase(gpu.uuid, "GPU-") ? 4 : 0; i < gpu.uuid.size() && filled < 16; ++i) {
            const char c = gpu.uuid[i];
            if (!std::isxdigit(static_cast<unsigned char>(c))) continue;
            const auto nibble = static_cast<unsigned>(std::isdigit(static_cast<unsigned char>(c))
                                                          ? c - '0'
                                                          : std::tolower(static_cast<unsigned char>(c)) - 'a' + 10);
            if (!have_hi) {
                hi = nibble;
                have_hi = true;
            } else {
                uuid->bytes[filled++] = static_cast<char>((hi << 4) | nibble);
                have_hi = false;
            }
        }
        return CUDA_SUCCESS;
    });
}

CUresult primary_release(const char* function, CUdevice dev) {
    return api_call(function, [&](State& st) {
        if (dev < 0 || static_cast<std::size_t>(dev) >= st.visible.size()) return CUDA_ERROR_INVALID_DEVICE;
        int& refs = st.primary_refs[static_cast<std::size_t>(dev)];
        if (refs == 0) return CUDA_ERROR_INVALID_CONTEXT;
        if (--refs == 0 && current_context == reinterpret_cast<CUcontext>(&context_tokens[dev])) {
            current_context = nullptr;
        }
        return CUDA_SUCCESS;
    });
}

// The device behind the calling thread's current context, or -1.
int current_ordinal(const State& st) {
    if (current_context == nullptr) return -1;
    const auto p = reinterpret_cast<std::uintptr_t>(current_context);
    const auto base = reinterpret_cast<std::uintptr_t>(&context_tokens[0]);
    if (p < base || p >= base + st.visible.size()) return -1;
    const auto i = static_cast<int>(p - base);
    return st.primary_refs[static_cast<std::size_t>(i)] > 0 ? i : -1;
}

template <class Size>
CUresult mem_info(const char* function, Size* free_bytes, Size* total_bytes) {
    return api_call(function, [&](State& st) {
        if (free_bytes == nullptr || total_bytes == nullptr) return CUDA_ERROR_INVALID_VALUE;
        const int dev = current_ordinal(st);
        if (dev < 0) return CUDA_ERROR_INVALID_CONTEXT;
        const Gpu& g = st.scenario.gpus[st.visible[static_cast<std::size_t>(dev)]];
        const std::uint64_t free_now = g.memory_total - g.memory_used - g.memory_reserved;
        constexpr auto cap = static_cast<std::uint64_t>(~Size{0});
        *free_bytes = static_cast<Size>(std::min(free_now, cap));
        *total_bytes = static_cast<Size>(std::min(g.memory_total, cap));
        return CUDA_SUCCESS;
    });
}

template <class Size>
CUresult total_mem(const char* function, Size* bytes, CUdevice dev) {
    return device_call(function, dev, [&](const Gpu& gpu) {
        if (bytes == nullptr) return CUDA_ERROR_INVALID_VALUE;
        constexpr auto cap = static_cast<std::uint64_t>(~Size{0});
        *bytes = static_cast<Size>(std::min(gpu.memory_total, cap));
        return CUDA_SUCCESS;
    });
}

}  // namespace

FAKE_API CUresult cuInit(unsigned int flags) {
    if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
    auto& st = state();
    const std::string key = environment_key();
    {
        std::lock_guard lock(st.mutex);
        if (st.attempted && st.key == key) return st.init_result;
    }
    Scenario fresh;
    CUresult result = CUDA_SUCCESS;
    if (!gpuscout_fake::load_scenario_from_env(fresh)) result = CUDA_ERROR_UNKNOWN;
    if (fresh.cuda.hang_seconds > 0) std::this_thread::sleep_for(std::chrono::seconds(fresh.cuda.hang_seconds));
    std::vector<std::size_t> visible = visible_devices(fresh, device_order(fresh));
    if (visible.size() > max_devices) visible.resize(max_devices);
    if (result == CUDA_SUCCESS && fresh.cuda.init_error != 0) result = fresh.cuda.init_error;
    if (result == CUDA_SUCCESS && scenario_error(fresh, __func__) != 0) result = scenario_error(fresh, __func__);
    if (result == CUDA_SUCCESS && visible.empty()) result = CUDA_ERROR_NO_DEVICE;

    std::lock_guard lock(st.mutex);
    st.attempted = true;
    st.key = key;
    st.init_result = result;
    st.scenario = std::move(fresh);
    st.primary_refs.assign(visible.size(), 0);
    st.visible = std::move(visible);
    current_context = nullptr;
    return result;
}

FAKE_API CUresult cuDriverGetVersion(int* version) {
    if (version == nullptr) return CUDA_ERROR_INVALID_VALUE;
    Scenario s;  // answers before cuInit, as the real one does
    if (!gpuscout_fake::load_scenario_from_env(s)) return CUDA_ERROR_UNKNOWN;
    if (const int e = scenario_error(s, __func__)) return e;
    *version = s.cuda_driver_version();
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuGetErrorName(CUresult error, const char** str) {
    if (str == nullptr) return CUDA_ERROR_INVALID_VALUE;
    switch (error) {
    case CUDA_SUCCESS: *str = "CUDA_SUCCESS"; break;
    case CUDA_ERROR_INVALID_VALUE: *str = "CUDA_ERROR_INVALID_VALUE"; break;
    case CUDA_ERROR_OUT_OF_MEMORY: *str = "CUDA_ERROR_OUT_OF_MEMORY"; break;
    case CUDA_ERROR_NOT_INITIALIZED: *str = "CUDA_ERROR_NOT_INITIALIZED"; break;
    case CUDA_ERROR_DEINITIALIZED: *str = "CUDA_ERROR_DEINITIALIZED"; break;
    case CUDA_ERROR_STUB_LIBRARY: *str = "CUDA_ERROR_STUB_LIBRARY"; break;
    case CUDA_ERROR_INSUFFICIENT_DRIVER: *str = "CUDA_ERROR_INSUFFICIENT_DRIVER"; break;
    case CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER: *str = "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER"; break;
    case CUDA_ERROR_DEVICE_UNAVAILABLE: *str = "CUDA_ERROR_DEVICE_UNAVAILABLE"; break;
    case CUDA_ERROR_NO_DEVICE: *str = "CUDA_ERROR_NO_DEVICE"; break;
    case CUDA_ERROR_INVALID_DEVICE: *str = "CUDA_ERROR_INVALID_DEVICE"; break;
    case CUDA_ERROR_INVALID_CONTEXT: *str = "CUDA_ERROR_INVALID_CONTEXT"; break;
    case CUDA_ERROR_OPERATING_SYSTEM: *str = "CUDA_ERROR_OPERATING_SYSTEM"; break;
    case CUDA_ERROR_NOT_SUPPORTED: *str = "CUDA_ERROR_NOT_SUPPORTED"; break;
    case CUDA_ERROR_SYSTEM_NOT_READY: *str = "CUDA_ERROR_SYSTEM_NOT_READY"; break;
    case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH: *str = "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"; break;
    case CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE: *str = "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"; break;
    case CUDA_ERROR_UNKNOWN: *str = "CUDA_ERROR_UNKNOWN"; break;
    default: *str = nullptr; return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuGetErrorString(CUresult error, const char** str) {
    if (str == nullptr) return CUDA_ERROR_INVALID_VALUE;
    switch (error) {
    case CUDA_SUCCESS: *str = "no error"; break;
    case CUDA_ERROR_INVALID_VALUE: *str = "invalid argument"; break;
    case CUDA_ERROR_OUT_OF_MEMORY: *str = "out of memory"; break;
    case CUDA_ERROR_NOT_INITIALIZED: *str = "initialization error"; break;
    case CUDA_ERROR_DEINITIALIZED: *str = "driver shutting down"; break;
    case CUDA_ERROR_STUB_LIBRARY: *str = "CUDA driver is a stub library"; break;
    case CUDA_ERROR_INSUFFICIENT_DRIVER:
        *str = "CUDA driver version is insufficient for CUDA runtime version";
        break;
    case CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER: *str = "API call is not supported in the installed CUDA driver"; break;
    case CUDA_ERROR_DEVICE_UNAVAILABLE: *str = "CUDA-capable device(s) is/are busy or unavailable"; break;
    case CUDA_ERROR_NO_DEVICE: *str = "no CUDA-capable device is detected"; break;
    case CUDA_ERROR_INVALID_DEVICE: *str = "invalid device ordinal"; break;
    case CUDA_ERROR_INVALID_CONTEXT: *str = "invalid device context"; break;
    case CUDA_ERROR_OPERATING_SYSTEM: *str = "OS call failed or operation not supported on this OS"; break;
    case CUDA_ERROR_NOT_SUPPORTED: *str = "operation not supported"; break;
    case CUDA_ERROR_SYSTEM_NOT_READY: *str = "system not yet initialized"; break;
    case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
        *str = "system has unsupported display driver / cuda driver combination";
        break;
    case CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE:
        *str = "forward compatibility was attempted on non supported HW";
        break;
    case CUDA_ERROR_UNKNOWN: *str = "unknown error"; break;
    default: *str = nullptr; return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuDeviceGetCount(int* count) {
    return api_call(__func__, [&](State& st) {
        if (count == nullptr) return CUDA_ERROR_INVALID_VALUE;
        *count = static_cast<int>(st.visible.size());
        return CUDA_SUCCESS;
    });
}

FAKE_API CUresult cuDeviceGet(CUdevice* device, int ordinal) {
    return api_call(__func__, [&](State& st) {
        if (device == nullptr) return CUDA_ERROR_INVALID_VALUE;
        if (ordinal < 0 || static_cast<std::size_t>(ordinal) >= st.visible.size()) return CUDA_ERROR_INVALID_DEVICE;
        *device = ordinal;
        return CUDA_SUCCESS;
    });
}

FAKE_API CUresult cuDeviceGetName(char* name, int len, CUdevice dev) {
    return device_call(__func__, dev, [&](const Gpu& gpu) { return copy_truncated(gpu.name, name, len); });
}

FAKE_API CUresult cuDeviceGetPCIBusId(char* bus_id, int len, CUdevice dev) {
    return device_call(__func__, dev, [&](const Gpu& gpu) { return copy_truncated(gpu.legacy_bus_id(), bus_id, len); });
}

FAKE_API CUresult cuDeviceGetUuid(CUuuid* uuid, CUdevice dev) { return uuid_of(__func__, uuid, dev); }
FAKE_API CUresult cuDeviceGetUuid_v2(CUuuid* uuid, CUdevice dev) { return uuid_of(__func__, uuid, dev); }

FAKE_API CUresult cuDeviceTotalMem_v2(std::size_t* bytes, CUdevice dev) { return total_mem(__func__, bytes, dev); }
FAKE_API CUresult cuDeviceTotalMem(unsigned int* bytes, CUdevice dev) { return total_mem(__func__, bytes, dev); }

FAKE_API CUresult cuDeviceGetAttribute(int* value, CUdevice_attribute attribute, CUdevice dev) {
    return device_call(__func__, dev, [&](const Gpu& g) {
        if (value == nullptr) return CUDA_ERROR_INVALID_VALUE;
        std::uint64_t v = 0;
        switch (attribute) {
        case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: v = 1024; break;
        case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY: v = 65536; break;
        case CU_DEVICE_ATTRIBUTE_WARP_SIZE: v = 32; break;
        case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK: v = 65536; break;
        case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: v = std::uint64_t{clock_mhz(g)} * 1000; break;
        case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: v = static_cast<std::uint64_t>(g.sm_count); break;
        case CU_DEVICE_ATTRIBUTE_INTEGRATED: v = g.integrated ? 1 : 0; break;
        case CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS: v = 1; break;
        case CU_DEVICE_ATTRIBUTE_ECC_ENABLED: v = g.ecc_enabled ? 1 : 0; break;
        case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID: v = g.bus; break;
        case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID: v = g.device; break;
        case CU_DEVICE_ATTRIBUTE_TCC_DRIVER: v = 0; break;
        case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: v = std::uint64_t{g.max_clock_mem_mhz.value_or(0)} * 1000; break;
        case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: v = g.memory_bus_width.value_or(0); break;
        case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: v = g.l2_bytes; break;
        case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR:
            v = static_cast<std::uint64_t>(max_threads_per_sm(g));
            break;
        case CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT: v = 2; break;
        case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING: v = 1; break;
        case CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID: v = g.domain; break;
        case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: v = static_cast<std::uint64_t>(g.cc_major); break;
        case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: v = static_cast<std::uint64_t>(g.cc_minor); break;
        case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY: v = 1; break;
        default: return CUDA_ERROR_INVALID_VALUE;
        }
        *value = static_cast<int>(std::min<std::uint64_t>(v, INT_MAX));
        return CUDA_SUCCESS;
    });
}

FAKE_API CUresult cuDevicePrimaryCtxRetain(CUcontext* context, CUdevice dev) {
    return api_call(__func__, [&](State& st) {
        if (context == nullptr) return CUDA_ERROR_INVALID_VALUE;
        if (dev < 0 || static_cast<std::size_t>(dev) >= st.visible.size()) return CUDA_ERROR_INVALID_DEVICE;
        if (const int e = st.scenario.gpus[st.visible[static_cast<std::size_t>(dev)]].error_for(__func__)) return e;
        ++st.primary_refs[static_cast<std::size_t>(dev)];
        *context = reinterpret_cast<CUcontext>(&context_tokens[dev]);
        return CUDA_SUCCESS;
    });
}

FAKE_API CUresult cuDevicePrimaryCtxRelease(CUdevice dev) { return primary_release(__func__, dev); }
FAKE_API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev) { return primary_release(__func__, dev); }

FAKE_API CUresult cuCtxSetCurrent(CUcontext context) {
    return api_call(__func__, [&](State& st) {
        if (context == nullptr) {
            current_context = nullptr;
            return CUDA_SUCCESS;
        }
        const CUcontext previous = current_context;
        current_context = context;
        if (current_ordinal(st) < 0) {
            current_context = previous;
            return CUDA_ERROR_INVALID_CONTEXT;
        }
        return CUDA_SUCCESS;
    });
}

FAKE_API CUresult cuCtxGetCurrent(CUcontext* context) {
    return api_call(__func__, [&](State&) {
        if (context == nullptr) return CUDA_ERROR_INVALID_VALUE;
        *context = current_context;
        return CUDA_SUCCESS;
    });
}

FAKE_API CUresult cuMemGetInfo_v2(std::size_t* free_bytes, std::size_t* total_bytes) {
    return mem_info(__func__, free_bytes, total_bytes);
}
FAKE_API CUresult cuMemGetInfo(unsigned int* free_bytes, unsigned int* total_bytes) {
    return mem_info(__func__, free_bytes, total_bytes);
}
