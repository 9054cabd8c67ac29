#pragma once
/// NVML as a table of functions: the library opened once by soname, every entry point resolved once with its
/// _v3/_v2/v1 fallbacks. Probe logic takes a `const Functions&`, so unit tests hand it a table of plain C++
/// functions in process, the fake libnvidia-ml.so.1 tests the real loading path, and another operating system's
/// backend fills the same table. Every pointer may be null: older drivers lack the late calls, which then mean
/// "not supported", never a failure of the whole probe.
#include <string>

#include "core/error.hpp"
#include "os/library.hpp"
#include "vendor/entry_point.hpp"
#include "vendor/nvml_abi.hpp"

namespace gpuscout::vendor::nvml {

struct Functions {
  EntryPoint<Return()> init, shutdown;
  EntryPoint<const char*(Return)> error_string;
  EntryPoint<Return(char*, unsigned)> system_driver_version, system_nvml_version;
  EntryPoint<Return(int*)> system_cuda_driver_version;
  EntryPoint<Return(unsigned, char*, unsigned)> system_process_name;
  EntryPoint<Return(unsigned*)> device_count;
  EntryPoint<Return(unsigned, Device*)> device_by_index;
  EntryPoint<Return(const char*, Device*)> device_by_pci_bus_id;
  EntryPoint<Return(Device, char*, unsigned)> device_name, device_uuid, device_vbios_version;
  EntryPoint<Return(Device, PciInfoV3*)> device_pci_info;      ///< _v3 (or _v2, same layout)
  EntryPoint<Return(Device, PciInfoV1*)> device_pci_info_v1;   ///< drivers without _v2/_v3
  EntryPoint<Return(Device, MemoryV2*)> device_memory_info_v2;
  EntryPoint<Return(Device, Memory*)> device_memory_info;
  EntryPoint<Return(Device, int*, int*)> device_cuda_compute_capability;
  EntryPoint<Return(Device, unsigned, unsigned*)> device_temperature, device_clock_info, device_max_clock_info;
  EntryPoint<Return(Device, Temperature*)> device_temperature_v;   ///< nvmlDeviceGetTemperatureV (CUDA 13.0+)
  EntryPoint<Return(Device, int, FieldValue*)> device_field_values;
  EntryPoint<Return(Device)> device_set_cpu_affinity, device_clear_cpu_affinity;
  /// CPU mask words of `unsigned long`: 64 CPUs each on Linux, 32 on Windows (LLP64).
  EntryPoint<Return(Device, unsigned, unsigned long*)> device_cpu_affinity;
  EntryPoint<Return(Device, DriverModel*, DriverModel*)> device_driver_model;  ///< current, pending (Windows)
  EntryPoint<Return(Device, EnableState*, EnableState*)> device_ecc_mode;  ///< current, pending (after a reset)
  /// error type (MEMORY_ERROR_TYPE_*), counter type (VOLATILE_ECC, AGGREGATE_ECC), count
  EntryPoint<Return(Device, unsigned, unsigned, unsigned long long*)> device_total_ecc_errors;
  /// cause (PAGE_RETIREMENT_CAUSE_*), in: room, out: count, addresses (may be null with room 0)
  EntryPoint<Return(Device, unsigned, unsigned*, unsigned long long*)> device_retired_pages;
  EntryPoint<Return(Device, EnableState*)> device_retired_pages_pending, device_persistence_mode;
  /// current, pending: MIG_ENABLE (1) or MIG_DISABLE (0); NOT_SUPPORTED on GPUs without MIG
  EntryPoint<Return(Device, unsigned*, unsigned*)> device_mig_mode;
  /// correctable rows, uncorrectable rows, remapping pending (0/1), remapping failed (0/1)
  EntryPoint<Return(Device, unsigned*, unsigned*, unsigned*, unsigned*)> device_remapped_rows;
  EntryPoint<Return(Device, unsigned*)> device_power_usage, device_enforced_power_limit, device_memory_bus_width,
      device_curr_pcie_link_generation, device_curr_pcie_link_width, device_max_pcie_link_generation,
      device_gpu_max_pcie_link_generation, device_max_pcie_link_width;
  EntryPoint<Return(Device, Utilization*)> device_utilization_rates;
  EntryPoint<Return(Device, unsigned long long*)> device_clocks_event_reasons;  ///< or ...ThrottleReasons
  EntryPoint<Return(Device, unsigned*, ProcessInfo*)> device_compute_processes;      ///< _v3 (or _v2)
  EntryPoint<Return(Device, unsigned*, ProcessInfoV1*)> device_compute_processes_v1;

  /// "NVML_ERROR_LIB_RM_VERSION_MISMATCH"-style text from nvmlErrorString, else "NVML error N".
  std::string describe(Return status) const;
};

/// The GPU's temperature in degrees C through nvmlDeviceGetTemperatureV, else (drivers before it) the deprecated
/// nvmlDeviceGetTemperature; ERROR_FUNCTION_NOT_FOUND when the library has neither. `used`, when given, is set to
/// the name of the entry point that answered, for the caller's error record. A reading outside -100..300 C is
/// refused as ERROR_UNKNOWN.
Return gpu_temperature_c(const Functions& f, Device device, int& celsius, const char** used = nullptr);

/// "WDDM", "TCC" (NVML's WDM: nvidia-smi and NVIDIA's documentation say TCC) or "MCDM"; nullptr for a value
/// this list lacks.
const char* driver_model_name(DriverModel model);

/// Fills a table from a library's symbols (tests pass a lookup that records the names asked for).
Functions resolve(const SymbolLookup& lookup);

/// The driver library: on Linux by soname (never the unversioned name, which can be a toolkit stub), on Windows
/// nvml.dll from System32, else from the NVSMI folder of older drivers (vendor/library_path.hpp); or the file
/// GPUSCOUT_NVML_LIBRARY names (a test seam and an escape hatch; it must be a regular file).
class Library {
 public:
  static Result<Library> open();
  const Functions& functions() const { return functions_; }
  std::string path() const { return library_.path(); }

 private:
  os::SharedLibrary library_;
  Functions functions_;
};

}  // namespace gpuscout::vendor::nvml
