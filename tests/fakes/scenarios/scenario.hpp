// The one reader of the fake-driver scenario format (see README.md beside this file).
// Shared by the fake libnvidia-ml.so.1 and libcuda.so.1; not part of gpuscout.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

/// Marks a driver entry point the fake library exports: by visibility on ELF (the version script then keeps only
/// the API's names), by __declspec(dllexport) in a DLL (ld then exports nothing else).
#ifdef _WIN32
#define FAKE_API extern "C" __declspec(dllexport)
#else
#define FAKE_API extern "C" __attribute__((visibility("default")))
#endif

namespace gpuscout_fake {

struct Process {
    std::uint32_t pid = 0;
    std::optional<std::uint64_t> used_bytes;  ///< nullopt -> NVML_VALUE_NOT_AVAILABLE
    std::string name;
};

/// The memory-health calls (README: `memory_health`); a part that is absent answers NOT_SUPPORTED.
struct MemoryHealth {
    bool present = false;                ///< nvmlDeviceGetEccMode answers (with the GPU's ecc_enabled)
    std::optional<bool> ecc_pending;     ///< nullopt -> ecc_enabled
    bool has_ecc_errors = false;
    std::uint64_t ecc_errors[2][2] = {};  ///< [nvmlMemoryErrorType_t][nvmlEccCounterType_t]
    bool has_retired_pages = false;
    std::uint32_t retired_pages[2] = {};  ///< [nvmlPageRetirementCause_t]
    bool retired_pending = false;
    bool has_remapped_rows = false;
    std::uint32_t rows_correctable = 0, rows_uncorrectable = 0;
    bool rows_pending = false, rows_failed = false;
};

struct Gpu {
    // PCI location, parsed from "pci_bus_id" (either "0000:01:00.0" or "00000000:01:00.0").
    std::uint32_t domain = 0, bus = 0, device = 0, function = 0;
    std::string name;
    std::string uuid;  ///< "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
    std::uint32_t pci_device_id = 0;     ///< (device << 16) | vendor, as NVML reports it
    std::uint32_t pci_subsystem_id = 0;  ///< (subsystem device << 16) | subsystem vendor
    std::uint64_t memory_total = 0, memory_reserved = 0, memory_used = 0, memory_used_v1 = 0;
    int cc_major = 0, cc_minor = 0;
    int sm_count = 0;
    // Telemetry: nullopt means the NVML call answers NVML_ERROR_NOT_SUPPORTED.
    std::optional<unsigned> clock_sm_mhz, clock_mem_mhz, clock_graphics_mhz, clock_video_mhz;
    std::optional<unsigned> max_clock_sm_mhz, max_clock_mem_mhz, max_clock_graphics_mhz;
    std::optional<unsigned> cuda_clock_mhz;  ///< CU_DEVICE_ATTRIBUTE_CLOCK_RATE; nullopt -> max_clock_sm_mhz
    std::optional<unsigned> memory_bus_width, temperature_c, power_mw, power_limit_mw, power_management_limit_mw;
    std::optional<unsigned> util_gpu, util_memory, pcie_gen, pcie_width, pcie_gen_max, pcie_width_max;
    std::optional<unsigned> num_gpu_cores;
    std::optional<std::uint64_t> throttle_reasons;
    std::optional<unsigned> power_instant_mw;  ///< field NVML_FI_DEV_POWER_INSTANT; nullopt -> per-field NOT_SUPPORTED
    std::uint64_t l2_bytes = 0;
    int max_threads_per_sm = 0;  ///< 0 -> derived from the compute capability
    bool integrated = false;
    bool ecc_enabled = false;
    std::optional<std::string> vbios_version;  ///< nullopt -> NOT_SUPPORTED
    std::optional<bool> persistence_mode, mig_mode;  ///< nullopt -> NOT_SUPPORTED (Windows; a GPU without MIG)
    MemoryHealth memory_health;
    std::optional<int> cuda_speed_rank;
    // Windows: nvmlDeviceGetDriverModel's current and pending values (nvmlDriverModel_t: 0 WDDM, 1 WDM/TCC,
    // 2 MCDM; nullopt: NOT_SUPPORTED, as on Linux) and cuDeviceGetLuid's LUID (nullopt: NOT_SUPPORTED).
    std::optional<int> driver_model, driver_model_pending;
    std::optional<std::uint32_t> luid_high, luid_low;
    std::vector<Process> processes;
    std::map<std::string, int> errors;  ///< function name -> return code, for this GPU only

    [[nodiscard]] std::string nvml_bus_id() const;    ///< "00000000:01:00.0"
    [[nodiscard]] std::string legacy_bus_id() const;  ///< "0000:01:00.0"
    [[nodiscard]] int error_for(const std::string& api_function) const;  ///< 0 when none
};

struct NvmlPart {
    int init_error = 0;
    unsigned hang_seconds = 0;
    std::string driver_version = "580.95.05";
    int cuda_driver_version = 13000;
    std::string nvml_version;  ///< empty -> "<cuda major>.<driver_version>"
    std::map<std::string, int> errors;
};

struct CudaPart {
    int init_error = 0;
    unsigned hang_seconds = 0;
    std::optional<int> driver_version;  ///< nullopt -> nvml.cuda_driver_version
    std::map<std::string, int> errors;
};

struct Scenario {
    std::string path;  ///< where it came from; empty when GPUSCOUT_FAKE_SCENARIO is unset
    NvmlPart nvml;
    CudaPart cuda;
    std::vector<Gpu> gpus;  ///< sorted by PCI location (NVML order)

    [[nodiscard]] int cuda_driver_version() const {
        return cuda.driver_version.value_or(nvml.cuda_driver_version);
    }
};

/// Reads the scenario named by GPUSCOUT_FAKE_SCENARIO. Unset -> a machine with a working
/// driver and no GPU. On a broken file, prints why to stderr and returns false.
bool load_scenario_from_env(Scenario& out);

/// Parses "0000:01:00.0" / "00000000:01:00.0" (any case). False when malformed.
bool parse_bus_id(const std::string& text, std::uint32_t& domain, std::uint32_t& bus, std::uint32_t& device,
                  std::uint32_t& function);

/// Copies text and a NUL into buf when it fits; false (buf untouched) otherwise.
bool copy_string(const std::string& text, char* buf, std::size_t size);

}  // namespace gpuscout_fake
