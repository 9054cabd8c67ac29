#include "scenario.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <tuple>

namespace gpuscout_fake {
namespace {

using nlohmann::json;

std::uint64_t to_u64(const json& v, const char* key) {
    if (v.is_number_unsigned()) return v.get<std::uint64_t>();
    if (v.is_number_integer()) {
        const auto i = v.get<std::int64_t>();
        if (i < 0) throw std::runtime_error(std::string(key) + ": negative");
        return static_cast<std::uint64_t>(i);
    }
    if (v.is_string()) {  // "0x268410de" or "1234"
        const auto s = v.get<std::string>();
        std::size_t used = 0;
        const auto n = std::stoull(s, &used, 0);
        if (used != s.size()) throw std::runtime_error(std::string(key) + ": not a number: " + s);
        return n;
    }
    throw std::runtime_error(std::string(key) + ": expected a number");
}

template <class T>
void read(const json& obj, const char* key, T& out) {
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return;
    if constexpr (std::is_same_v<T, std::string>) {
        out = it->template get<std::string>();
    } else if constexpr (std::is_same_v<T, bool>) {
        out = it->template get<bool>();
    } else {
        const auto v = to_u64(*it, key);
        out = static_cast<T>(v);
        if (static_cast<std::uint64_t>(out) != v) throw std::runtime_error(std::string(key) + ": out of range");
    }
}

template <class T>
void read(const json& obj, const char* key, std::optional<T>& out) {
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return;
    T value{};
    read(obj, key, value);
    out = value;
}

void read_errors(const json& obj, std::map<std::string, int>& out) {
    const auto it = obj.find("errors");
    if (it == obj.end() || it->is_null()) return;
    for (const auto& [name, code] : it->items()) out[name] = code.get<int>();
}

// "WDDM", "TCC", "WDM", "MCDM" or nvmlDriverModel_t's number.
std::optional<int> read_driver_model(const json& g, const char* key) {
    const auto it = g.find(key);
    if (it == g.end() || it->is_null()) return std::nullopt;
    if (it->is_number_integer()) return it->get<int>();
    const auto name = it->get<std::string>();
    if (name == "WDDM") return 0;
    if (name == "TCC" || name == "WDM") return 1;
    if (name == "MCDM") return 2;
    throw std::runtime_error(std::string(key) + ": expected WDDM, TCC, MCDM or a number, got " + name);
}

// "0xHIGHPART:0xLOWPART", as gpuscout writes a LUID.
// "memory_health": {"ecc_pending", "ecc_errors": {...}, "retired_pages": {...}, "remapped_rows": {...}}.
void read_memory_health(const json& g, MemoryHealth& h) {
    const auto it = g.find("memory_health");
    if (it == g.end() || it->is_null()) return;
    const json& m = *it;
    h.present = true;
    read(m, "ecc_pending", h.ecc_pending);
    if (const auto e = m.find("ecc_errors"); e != m.end() && !e->is_null()) {
        h.has_ecc_errors = true;
        read(*e, "corrected_volatile", h.ecc_errors[0][0]);
        read(*e, "corrected_aggregate", h.ecc_errors[0][1]);
        read(*e, "uncorrected_volatile", h.ecc_errors[1][0]);
        read(*e, "uncorrected_aggregate", h.ecc_errors[1][1]);
    }
    if (const auto r = m.find("retired_pages"); r != m.end() && !r->is_null()) {
        h.has_retired_pages = true;
        read(*r, "sbe", h.retired_pages[0]);
        read(*r, "dbe", h.retired_pages[1]);
        read(*r, "pending", h.retired_pending);
    }
    if (const auto r = m.find("remapped_rows"); r != m.end() && !r->is_null()) {
        h.has_remapped_rows = true;
        read(*r, "correctable", h.rows_correctable);
        read(*r, "uncorrectable", h.rows_uncorrectable);
        read(*r, "pending", h.rows_pending);
        read(*r, "failed", h.rows_failed);
    }
}

void read_luid(const json& g, Gpu& gpu) {
    std::string text;
    read(g, "luid", text);
    if (text.empty()) return;
    unsigned high = 0, low = 0;
    int used = 0;
    if (std::sscanf(text.c_str(), "0x%8x:0x%8x%n", &high, &low, &used) != 2 ||
        static_cast<std::size_t>(used) != text.size())
        throw std::runtime_error("luid: expected \"0xHIGHPART:0xLOWPART\", got " + text);
    gpu.luid_high = high;
    gpu.luid_low = low;
}

Gpu read_gpu(const json& g) {
    Gpu gpu;
    std::string bus_id;
    read(g, "pci_bus_id", bus_id);
    if (!parse_bus_id(bus_id, gpu.domain, gpu.bus, gpu.device, gpu.function))
        throw std::runtime_error("gpu: bad or missing pci_bus_id '" + bus_id + "'");
    read(g, "name", gpu.name);
    read(g, "uuid", gpu.uuid);
    read(g, "pci_device_id", gpu.pci_device_id);
    read(g, "pci_subsystem_id", gpu.pci_subsystem_id);
    read(g, "memory_total", gpu.memory_total);
    read(g, "memory_reserved", gpu.memory_reserved);
    read(g, "memory_used", gpu.memory_used);
    gpu.memory_used_v1 = gpu.memory_used + gpu.memory_reserved;
    read(g, "memory_used_v1", gpu.memory_used_v1);
    if (gpu.memory_reserved + gpu.memory_used > gpu.memory_total || gpu.memory_used_v1 > gpu.memory_total)
        throw std::runtime_error("gpu " + bus_id + ": used + reserved exceed memory_total");
    std::string cc;
    read(g, "cc", cc);
    if (std::sscanf(cc.c_str(), "%d.%d", &gpu.cc_major, &gpu.cc_minor) != 2)
        throw std::runtime_error("gpu " + bus_id + ": cc must look like \"8.9\"");
    read(g, "sm_count", gpu.sm_count);
    read(g, "clock_sm_mhz", gpu.clock_sm_mhz);
    read(g, "clock_mem_mhz", gpu.clock_mem_mhz);
    read(g, "clock_graphics_mhz", gpu.clock_graphics_mhz);
    read(g, "clock_video_mhz", gpu.clock_video_mhz);
    read(g, "max_clock_sm_mhz", gpu.max_clock_sm_mhz);
    read(g, "max_clock_mem_mhz", gpu.max_clock_mem_mhz);
    read(g, "max_clock_graphics_mhz", gpu.max_clock_graphics_mhz);
    read(g, "cuda_clock_mhz", gpu.cuda_clock_mhz);
    if (!gpu.clock_graphics_mhz) gpu.clock_graphics_mhz = gpu.clock_sm_mhz;
    if (!gpu.max_clock_graphics_mhz) gpu.max_clock_graphics_mhz = gpu.max_clock_sm_mhz;
    if (!gpu.max_clock_mem_mhz) gpu.max_clock_mem_mhz = gpu.clock_mem_mhz;
    read(g, "memory_bus_width", gpu.memory_bus_width);
    read(g, "l2_bytes", gpu.l2_bytes);
    read(g, "temperature_c", gpu.temperature_c);
    read(g, "power_mw", gpu.power_mw);
    read(g, "power_instant_mw", gpu.power_instant_mw);
    read(g, "power_limit_mw", gpu.power_limit_mw);
    read(g, "power_management_limit_mw", gpu.power_management_limit_mw);
    if (!gpu.power_management_limit_mw) gpu.power_management_limit_mw = gpu.power_limit_mw;
    read(g, "util_gpu", gpu.util_gpu);
    read(g, "util_memory", gpu.util_memory);
    read(g, "pcie_gen", gpu.pcie_gen);
    read(g, "pcie_width", gpu.pcie_width);
    read(g, "pcie_gen_max", gpu.pcie_gen_max);
    read(g, "pcie_width_max", gpu.pcie_width_max);
    read(g, "num_gpu_cores", gpu.num_gpu_cores);
    read(g, "throttle_reasons", gpu.throttle_reasons);
    read(g, "max_threads_per_sm", gpu.max_threads_per_sm);
    read(g, "integrated", gpu.integrated);
    read(g, "ecc_enabled", gpu.ecc_enabled);
    read(g, "vbios_version", gpu.vbios_version);
    read(g, "persistence_mode", gpu.persistence_mode);
    read(g, "mig_mode", gpu.mig_mode);
    read_memory_health(g, gpu.memory_health);
    read(g, "cuda_speed_rank", gpu.cuda_speed_rank);
    gpu.driver_model = read_driver_model(g, "driver_model");
    gpu.driver_model_pending = read_driver_model(g, "driver_model_pending");
    if (!gpu.driver_model_pending) gpu.driver_model_pending = gpu.driver_model;
    read_luid(g, gpu);
    if (const auto it = g.find("processes"); it != g.end()) {
        for (const auto& p : *it) {
            Process proc;
            read(p, "pid", proc.pid);
            read(p, "used_bytes", proc.used_bytes);
            read(p, "name", proc.name);
            gpu.processes.push_back(std::move(proc));
        }
    }
    read_errors(g, gpu.errors);
    return gpu;
}

Scenario parse(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open");
    const json doc = json::parse(in);
    Scenario s;
    s.path = path;
    if (const auto it = doc.find("nvml"); it != doc.end()) {
        read(*it, "init_error", s.nvml.init_error);
        read(*it, "hang_seconds", s.nvml.hang_seconds);
        read(*it, "driver_version", s.nvml.driver_version);
        read(*it, "cuda_driver_version", s.nvml.cuda_driver_version);
        read(*it, "nvml_version", s.nvml.nvml_version);
        read_errors(*it, s.nvml.errors);
    }
    if (s.nvml.nvml_version.empty())
        s.nvml.nvml_version = std::to_string(s.nvml.cuda_driver_version / 1000) + "." + s.nvml.driver_version;
    if (const auto it = doc.find("cuda"); it != doc.end()) {
        read(*it, "init_error", s.cuda.init_error);
        read(*it, "hang_seconds", s.cuda.hang_seconds);
        read(*it, "driver_version", s.cuda.driver_version);
        read_errors(*it, s.cuda.errors);
    }
    if (const auto it = doc.find("gpus"); it != doc.end())
        for (const auto& g : *it) s.gpus.push_back(read_gpu(g));
    std::sort(s.gpus.begin(), s.gpus.end(), [](const Gpu& a, const Gpu& b) {
        return std::tie(a.domain, a.bus, a.device, a.function) < std::tie(b.domain, b.bus, b.device, b.function);
    });
    return s;
}

std::string format_bus_id(const char* format, const Gpu& g) {
    char buf[32];
    std::snprintf(buf, sizeof buf, format, g.domain, g.bus, g.device, g.function);
    return buf;
}

}  // namespace

std::string Gpu::nvml_bus_id() const { return format_bus_id("%08X:%02X:%02X.%X", *this); }
std::string Gpu::legacy_bus_id() const { return format_bus_id("%04X:%02X:%02X.%X", *this); }

int Gpu::error_for(const std::string& api_function) const {
    const auto it = errors.find(api_function);
    return it == errors.end() ? 0 : it->second;
}

bool parse_bus_id(const std::string& text, std::uint32_t& domain, std::uint32_t& bus, std::uint32_t& device,
                  std::uint32_t& function) {
    unsigned d = 0, b = 0, dev = 0, fn = 0;
    int used = 0;
    if (std::sscanf(text.c_str(), "%x:%x:%x.%x%n", &d, &b, &dev, &fn, &used) != 4) return false;
    if (static_cast<std::size_t>(used) != text.size() || b > 0xff || dev > 0x1f || fn > 7) return false;
    domain = d;
    bus = b;
    device = dev;
    function = fn;
    return true;
}

bool copy_string(const std::string& text, char* buf, std::size_t size) {
    if (buf == nullptr || size < text.size() + 1) return false;
    std::memcpy(buf, text.c_str(), text.size() + 1);
    return true;
}

bool load_scenario_from_env(Scenario& out) {
    const char* path = std::getenv("GPUSCOUT_FAKE_SCENARIO");
    if (path == nullptr || *path == '\0') {
        out = Scenario{};
        out.nvml.nvml_version = "13." + out.nvml.driver_version;
        return true;
    }
    try {
        out = parse(path);
        return true;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpuscout fake driver: scenario %s: %s\n", path, e.what());
        return false;
    }
}

}  // namespace gpuscout_fake
