// Fake libcuda.so.1: the public CUDA driver API answering from a scenario file
// (GPUSCOUT_FAKE_SCENARIO, format in ../scenarios/README.md). Honours CUDA_DEVICE_ORDER and
// CUDA_VISIBLE_DEVICES the way the real driver does, so callers must join devices by PCI bus id.
#include "vendor/cuda_abi.hpp"
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

namespace cuda = gpuscout::vendor::cuda;

// Not a driver-API code: the runtime's cudaErrorInsufficientDriver (driver_types.h). The real libcuda never returns
// it; scenarios may inject it to exercise callers (see scenarios/README.md).
constexpr cuda::Status CUDA_ERROR_INSUFFICIENT_DRIVER = 35;

namespace {

using gpuscout_fake::Gpu;
using gpuscout_fake::Scenario;

constexpr std::size_t max_devices = 64;

struct State {
    std::mutex mutex;
    bool attempted = false;  // cuInit ran for `key`; its result is sticky, like the real driver's
    std::string key;         // the environment cuInit saw
    cuda::Status init_result = cuda::ERROR_NOT_INITIALIZED;
    Scenario scenario;
    std::vector<std::size_t> visible;  // CUDA ordinal -> index into scenario.gpus
    std::vector<int> primary_refs;     // per CUDA ordinal
};

State& state() {
    static State s;
    return s;
}

char context_tokens[max_devices];
thread_local cuda::Context current_context = nullptr;

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
cuda::Status api_call(const char* function, Body body) {
    auto& st = state();
    std::lock_guard lock(st.mutex);
    if (!st.attempted || st.init_result != cuda::SUCCESS) return cuda::ERROR_NOT_INITIALIZED;
    if (const int e = scenario_error(st.scenario, function)) return e;
    return body(st);
}

template <class Body>
cuda::Status device_call(const char* function, cuda::Device dev, Body body) {
    return api_call(function, [&](State& st) {
        if (dev < 0 || static_cast<std::size_t>(dev) >= st.visible.size()) return cuda::ERROR_INVALID_DEVICE;
        const Gpu& gpu = st.scenario.gpus[st.visible[static_cast<std::size_t>(dev)]];
        if (const int e = gpu.error_for(function)) return e;
        return body(gpu);
    });
}

cuda::Status copy_truncated(const std::string& text, char* buf, int len) {
    if (buf == nullptr || len <= 0) return cuda::ERROR_INVALID_VALUE;
    const auto n = std::min(text.size(), static_cast<std::size_t>(len) - 1);
    std::memcpy(buf, text.data(), n);
    buf[n] = '\0';
    return cuda::SUCCESS;
}

int max_threads_per_sm(const Gpu& g) {
    if (g.max_threads_per_sm > 0) return g.max_threads_per_sm;
    const int cc = g.cc_major * 10 + g.cc_minor;
    if (cc == 75) return 1024;
    if (cc == 86 || cc == 89 || cc == 120 || cc == 121) return 1536;
    return 2048;
}

cuda::Status uuid_of(const char* function, cuda::Uuid* uuid, cuda::Device dev) {
    return device_call(function, dev, [&](const Gpu& gpu) {
        if (uuid == nullptr) return cuda::ERROR_INVALID_VALUE;
        *uuid = cuda::Uuid{};
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
                uuid->bytes[filled++] = static_cast<unsigned char>((hi << 4) | nibble);
                have_hi = false;
            }
        }
        return cuda::SUCCESS;
    });
}

cuda::Status primary_release(const char* function, cuda::Device dev) {
    return api_call(function, [&](State& st) {
        if (dev < 0 || static_cast<std::size_t>(dev) >= st.visible.size()) return cuda::ERROR_INVALID_DEVICE;
        int& refs = st.primary_refs[static_cast<std::size_t>(dev)];
        if (refs == 0) return cuda::ERROR_INVALID_CONTEXT;
        if (--refs == 0 && current_context == reinterpret_cast<cuda::Context>(&context_tokens[dev])) {
            current_context = nullptr;
        }
        return cuda::SUCCESS;
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
cuda::Status mem_info(const char* function, Size* free_bytes, Size* total_bytes) {
    return api_call(function, [&](State& st) {
        if (free_bytes == nullptr || total_bytes == nullptr) return cuda::ERROR_INVALID_VALUE;
        const int dev = current_ordinal(st);
        if (dev < 0) return cuda::ERROR_INVALID_CONTEXT;
        const Gpu& g = st.scenario.gpus[st.visible[static_cast<std::size_t>(dev)]];
        const std::uint64_t free_now = g.memory_total - g.memory_used - g.memory_reserved;
        constexpr auto cap = static_cast<std::uint64_t>(~Size{0});
        *free_bytes = static_cast<Size>(std::min(free_now, cap));
        *total_bytes = static_cast<Size>(std::min(g.memory_total, cap));
        return cuda::SUCCESS;
    });
}

template <class Size>
cuda::Status total_mem(const char* function, Size* bytes, cuda::Device dev) {
    return device_call(function, dev, [&](const Gpu& gpu) {
        if (bytes == nullptr) return cuda::ERROR_INVALID_VALUE;
        constexpr auto cap = static_cast<std::uint64_t>(~Size{0});
        *bytes = static_cast<Size>(std::min(gpu.memory_total, cap));
        return cuda::SUCCESS;
    });
}

}  // namespace

FAKE_API cuda::Status cuInit(unsigned int flags) {
    if (flags != 0) return cuda::ERROR_INVALID_VALUE;
    auto& st = state();
    const std::string key = environment_key();
    {
        std::lock_guard lock(st.mutex);
        if (st.attempted && st.key == key) return st.init_result;
    }
    Scenario fresh;
    cuda::Status result = cuda::SUCCESS;
    if (!gpuscout_fake::load_scenario_from_env(fresh)) result = cuda::ERROR_UNKNOWN;
    if (fresh.cuda.hang_seconds > 0) std::this_thread::sleep_for(std::chrono::seconds(fresh.cuda.hang_seconds));
    std::vector<std::size_t> visible = visible_devices(fresh, device_order(fresh));
    if (visible.size() > max_devices) visible.resize(max_devices);
    if (result == cuda::SUCCESS && fresh.cuda.init_error != 0) result = fresh.cuda.init_error;
    if (result == cuda::SUCCESS && scenario_error(fresh, __func__) != 0) result = scenario_error(fresh, __func__);
    if (result == cuda::SUCCESS && visible.empty()) result = cuda::ERROR_NO_DEVICE;

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

FAKE_API cuda::Status cuDriverGetVersion(int* version) {
    if (version == nullptr) return cuda::ERROR_INVALID_VALUE;
    Scenario s;  // answers before cuInit, as the real one does
    if (!gpuscout_fake::load_scenario_from_env(s)) return cuda::ERROR_UNKNOWN;
    if (const int e = scenario_error(s, __func__)) return e;
    *version = s.cuda_driver_version();
    return cuda::SUCCESS;
}

FAKE_API cuda::Status cuGetErrorName(cuda::Status error, const char** str) {
    if (str == nullptr) return cuda::ERROR_INVALID_VALUE;
    switch (error) {
    case cuda::SUCCESS: *str = "cuda::SUCCESS"; break;
    case cuda::ERROR_INVALID_VALUE: *str = "cuda::ERROR_INVALID_VALUE"; break;
    case cuda::ERROR_OUT_OF_MEMORY: *str = "cuda::ERROR_OUT_OF_MEMORY"; break;
    case cuda::ERROR_NOT_INITIALIZED: *str = "cuda::ERROR_NOT_INITIALIZED"; break;
    case cuda::ERROR_DEINITIALIZED: *str = "cuda::ERROR_DEINITIALIZED"; break;
    case cuda::ERROR_STUB_LIBRARY: *str = "cuda::ERROR_STUB_LIBRARY"; break;
    case CUDA_ERROR_INSUFFICIENT_DRIVER: *str = "CUDA_ERROR_INSUFFICIENT_DRIVER"; break;
    case cuda::ERROR_CALL_REQUIRES_NEWER_DRIVER: *str = "cuda::ERROR_CALL_REQUIRES_NEWER_DRIVER"; break;
    case cuda::ERROR_DEVICE_UNAVAILABLE: *str = "cuda::ERROR_DEVICE_UNAVAILABLE"; break;
    case cuda::ERROR_NO_DEVICE: *str = "cuda::ERROR_NO_DEVICE"; break;
    case cuda::ERROR_INVALID_DEVICE: *str = "cuda::ERROR_INVALID_DEVICE"; break;
    case cuda::ERROR_INVALID_CONTEXT: *str = "cuda::ERROR_INVALID_CONTEXT"; break;
    case cuda::ERROR_OPERATING_SYSTEM: *str = "cuda::ERROR_OPERATING_SYSTEM"; break;
    case cuda::ERROR_NOT_SUPPORTED: *str = "cuda::ERROR_NOT_SUPPORTED"; break;
    case cuda::ERROR_SYSTEM_NOT_READY: *str = "cuda::ERROR_SYSTEM_NOT_READY"; break;
    case cuda::ERROR_SYSTEM_DRIVER_MISMATCH: *str = "cuda::ERROR_SYSTEM_DRIVER_MISMATCH"; break;
    case cuda::ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE: *str = "cuda::ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"; break;
    case cuda::ERROR_UNKNOWN: *str = "cuda::ERROR_UNKNOWN"; break;
    default: *str = nullptr; return cuda::ERROR_INVALID_VALUE;
    }
    return cuda::SUCCESS;
}

FAKE_API cuda::Status cuGetErrorString(cuda::Status error, const char** str) {
    if (str == nullptr) return cuda::ERROR_INVALID_VALUE;
    switch (error) {
    case cuda::SUCCESS: *str = "no error"; break;
    case cuda::ERROR_INVALID_VALUE: *str = "invalid argument"; break;
    case cuda::ERROR_OUT_OF_MEMORY: *str = "out of memory"; break;
    case cuda::ERROR_NOT_INITIALIZED: *str = "initialization error"; break;
    case cuda::ERROR_DEINITIALIZED: *str = "driver shutting down"; break;
    case cuda::ERROR_STUB_LIBRARY: *str = "CUDA driver is a stub library"; break;
    case CUDA_ERROR_INSUFFICIENT_DRIVER:
        *str = "CUDA driver version is insufficient for CUDA runtime version";
        break;
    case cuda::ERROR_CALL_REQUIRES_NEWER_DRIVER: *str = "API call is not supported in the installed CUDA driver"; break;
    case cuda::ERROR_DEVICE_UNAVAILABLE: *str = "CUDA-capable device(s) is/are busy or unavailable"; break;
    case cuda::ERROR_NO_DEVICE: *str = "no CUDA-capable device is detected"; break;
    case cuda::ERROR_INVALID_DEVICE: *str = "invalid device ordinal"; break;
    case cuda::ERROR_INVALID_CONTEXT: *str = "invalid device context"; break;
    case cuda::ERROR_OPERATING_SYSTEM: *str = "OS call failed or operation not supported on this OS"; break;
    case cuda::ERROR_NOT_SUPPORTED: *str = "operation not supported"; break;
    case cuda::ERROR_SYSTEM_NOT_READY: *str = "system not yet initialized"; break;
    case cuda::ERROR_SYSTEM_DRIVER_MISMATCH:
        *str = "system has unsupported display driver / cuda driver combination";
        break;
    case cuda::ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE:
        *str = "forward compatibility was attempted on non supported HW";
        break;
    case cuda::ERROR_UNKNOWN: *str = "unknown error"; break;
    default: *str = nullptr; return cuda::ERROR_INVALID_VALUE;
    }
    return cuda::SUCCESS;
}

FAKE_API cuda::Status cuDeviceGetCount(int* count) {
    return api_call(__func__, [&](State& st) {
        if (count == nullptr) return cuda::ERROR_INVALID_VALUE;
        *count = static_cast<int>(st.visible.size());
        return cuda::SUCCESS;
    });
}

FAKE_API cuda::Status cuDeviceGet(cuda::Device* device, int ordinal) {
    return api_call(__func__, [&](State& st) {
        if (device == nullptr) return cuda::ERROR_INVALID_VALUE;
        if (ordinal < 0 || static_cast<std::size_t>(ordinal) >= st.visible.size()) return cuda::ERROR_INVALID_DEVICE;
        *device = ordinal;
        return cuda::SUCCESS;
    });
}

FAKE_API cuda::Status cuDeviceGetName(char* name, int len, cuda::Device dev) {
    return device_call(__func__, dev, [&](const Gpu& gpu) { return copy_truncated(gpu.name, name, len); });
}

FAKE_API cuda::Status cuDeviceGetPCIBusId(char* bus_id, int len, cuda::Device dev) {
    return device_call(__func__, dev, [&](const Gpu& gpu) { return copy_truncated(gpu.legacy_bus_id(), bus_id, len); });
}

FAKE_API cuda::Status cuDeviceGetUuid(cuda::Uuid* uuid, cuda::Device dev) { return uuid_of(__func__, uuid, dev); }
FAKE_API cuda::Status cuDeviceGetUuid_v2(cuda::Uuid* uuid, cuda::Device dev) { return uuid_of(__func__, uuid, dev); }

// Windows' LUID struct as the driver writes it: LowPart then HighPart, little-endian.
FAKE_API cuda::Status cuDeviceGetLuid(char* luid, unsigned int* device_node_mask, cuda::Device dev) {
    return device_call(__func__, dev, [&](const Gpu& gpu) {
        if (luid == nullptr || device_node_mask == nullptr) return cuda::ERROR_INVALID_VALUE;
        if (!gpu.luid_low || !gpu.luid_high) return cuda::ERROR_NOT_SUPPORTED;
        for (int i = 0; i < 4; ++i) {
            luid[i] = static_cast<char>((*gpu.luid_low >> (8 * i)) & 0xFF);
            luid[4 + i] = static_cast<char>((*gpu.luid_high >> (8 * i)) & 0xFF);
        }
        *device_node_mask = 1;
        return cuda::SUCCESS;
    });
}

FAKE_API cuda::Status cuDeviceTotalMem_v2(std::size_t* bytes, cuda::Device dev) { return total_mem(__func__, bytes, dev); }
FAKE_API cuda::Status cuDeviceTotalMem(unsigned int* bytes, cuda::Device dev) { return total_mem(__func__, bytes, dev); }

FAKE_API cuda::Status cuDeviceGetAttribute(int* value, int attribute, cuda::Device dev) {
    return device_call(__func__, dev, [&](const Gpu& g) {
        if (value == nullptr) return cuda::ERROR_INVALID_VALUE;
        std::uint64_t v = 0;
        switch (attribute) {
        case cuda::ATTRIBUTE_MAX_THREADS_PER_BLOCK: v = 1024; break;
        case cuda::ATTRIBUTE_TOTAL_CONSTANT_MEMORY: v = 65536; break;
        case cuda::ATTRIBUTE_WARP_SIZE: v = 32; break;
        case cuda::ATTRIBUTE_MAX_REGISTERS_PER_BLOCK: v = 65536; break;
        case cuda::ATTRIBUTE_CLOCK_RATE: v = std::uint64_t{clock_mhz(g)} * 1000; break;
        case cuda::ATTRIBUTE_MULTIPROCESSOR_COUNT: v = static_cast<std::uint64_t>(g.sm_count); break;
        case cuda::ATTRIBUTE_INTEGRATED: v = g.integrated ? 1 : 0; break;
        case cuda::ATTRIBUTE_CONCURRENT_KERNELS: v = 1; break;
        case cuda::ATTRIBUTE_ECC_ENABLED: v = g.ecc_enabled ? 1 : 0; break;
        case cuda::ATTRIBUTE_PCI_BUS_ID: v = g.bus; break;
        case cuda::ATTRIBUTE_PCI_DEVICE_ID: v = g.device; break;
        case cuda::ATTRIBUTE_TCC_DRIVER: v = g.driver_model == 1 ? 1 : 0; break;
        case cuda::ATTRIBUTE_MEMORY_CLOCK_RATE: v = std::uint64_t{g.max_clock_mem_mhz.value_or(0)} * 1000; break;
        case cuda::ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: v = g.memory_bus_width.value_or(0); break;
        case cuda::ATTRIBUTE_L2_CACHE_SIZE: v = g.l2_bytes; break;
        case cuda::ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR:
            v = static_cast<std::uint64_t>(max_threads_per_sm(g));
            break;
        case cuda::ATTRIBUTE_ASYNC_ENGINE_COUNT: v = 2; break;
        case cuda::ATTRIBUTE_UNIFIED_ADDRESSING: v = 1; break;
        case cuda::ATTRIBUTE_PCI_DOMAIN_ID: v = g.domain; break;
        case cuda::ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: v = static_cast<std::uint64_t>(g.cc_major); break;
        case cuda::ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: v = static_cast<std::uint64_t>(g.cc_minor); break;
        case cuda::ATTRIBUTE_MANAGED_MEMORY: v = 1; break;
        default: return cuda::ERROR_INVALID_VALUE;
        }
        *value = static_cast<int>(std::min<std::uint64_t>(v, INT_MAX));
        return cuda::SUCCESS;
    });
}

FAKE_API cuda::Status cuDevicePrimaryCtxRetain(cuda::Context* context, cuda::Device dev) {
    return api_call(__func__, [&](State& st) {
        if (context == nullptr) return cuda::ERROR_INVALID_VALUE;
        if (dev < 0 || static_cast<std::size_t>(dev) >= st.visible.size()) return cuda::ERROR_INVALID_DEVICE;
        if (const int e = st.scenario.gpus[st.visible[static_cast<std::size_t>(dev)]].error_for(__func__)) return e;
        ++st.primary_refs[static_cast<std::size_t>(dev)];
        *context = reinterpret_cast<cuda::Context>(&context_tokens[dev]);
        return cuda::SUCCESS;
    });
}

FAKE_API cuda::Status cuDevicePrimaryCtxRelease(cuda::Device dev) { return primary_release(__func__, dev); }
FAKE_API cuda::Status cuDevicePrimaryCtxRelease_v2(cuda::Device dev) { return primary_release(__func__, dev); }

FAKE_API cuda::Status cuCtxSetCurrent(cuda::Context context) {
    return api_call(__func__, [&](State& st) {
        if (context == nullptr) {
            current_context = nullptr;
            return cuda::SUCCESS;
        }
        const cuda::Context previous = current_context;
        current_context = context;
        if (current_ordinal(st) < 0) {
            current_context = previous;
            return cuda::ERROR_INVALID_CONTEXT;
        }
        return cuda::SUCCESS;
    });
}

FAKE_API cuda::Status cuCtxGetCurrent(cuda::Context* context) {
    return api_call(__func__, [&](State&) {
        if (context == nullptr) return cuda::ERROR_INVALID_VALUE;
        *context = current_context;
        return cuda::SUCCESS;
    });
}

FAKE_API cuda::Status cuMemGetInfo_v2(std::size_t* free_bytes, std::size_t* total_bytes) {
    return mem_info(__func__, free_bytes, total_bytes);
}
FAKE_API cuda::Status cuMemGetInfo(unsigned int* free_bytes, unsigned int* total_bytes) {
    return mem_info(__func__, free_bytes, total_bytes);
}
