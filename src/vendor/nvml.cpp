#include "vendor/nvml.hpp"

#include <fmt/format.h>

#include "vendor/library_path.hpp"

namespace gpuscout::vendor::nvml {

std::string Functions::describe(Return status) const {
  if (error_string) {
    if (const char* text = error_string(status)) return text;
  }
  return fmt::format("NVML error {}", status);
}

Functions resolve(const SymbolLookup& l) {
  Functions f;
  f.init.resolve(l, {"nvmlInit_v2", "nvmlInit"});
  f.shutdown.resolve(l, {"nvmlShutdown"});
  f.error_string.resolve(l, {"nvmlErrorString"});
  f.system_driver_version.resolve(l, {"nvmlSystemGetDriverVersion"});
  f.system_nvml_version.resolve(l, {"nvmlSystemGetNVMLVersion"});
  f.system_cuda_driver_version.resolve(l, {"nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion"});
  f.system_process_name.resolve(l, {"nvmlSystemGetProcessName"});
  f.device_count.resolve(l, {"nvmlDeviceGetCount_v2", "nvmlDeviceGetCount"});
  f.device_by_index.resolve(l, {"nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex"});
  f.device_by_pci_bus_id.resolve(l, {"nvmlDeviceGetHandleByPciBusId_v2", "nvmlDeviceGetHandleByPciBusId"});
  f.device_name.resolve(l, {"nvmlDeviceGetName"});
  f.device_uuid.resolve(l, {"nvmlDeviceGetUUID"});
  f.device_vbios_version.resolve(l, {"nvmlDeviceGetVbiosVersion"});
  f.device_persistence_mode.resolve(l, {"nvmlDeviceGetPersistenceMode"});
  f.device_mig_mode.resolve(l, {"nvmlDeviceGetMigMode"});
  f.device_pci_info.resolve(l, {"nvmlDeviceGetPciInfo_v3", "nvmlDeviceGetPciInfo_v2"});
  f.device_pci_info_v1.resolve(l, {"nvmlDeviceGetPciInfo"});
  f.device_memory_info_v2.resolve(l, {"nvmlDeviceGetMemoryInfo_v2"});
  f.device_memory_info.resolve(l, {"nvmlDeviceGetMemoryInfo"});
  f.device_cuda_compute_capability.resolve(l, {"nvmlDeviceGetCudaComputeCapability"});
  f.device_temperature.resolve(l, {"nvmlDeviceGetTemperature"});
  f.device_temperature_v.resolve(l, {"nvmlDeviceGetTemperatureV"});
  f.device_field_values.resolve(l, {"nvmlDeviceGetFieldValues"});
  f.device_set_cpu_affinity.resolve(l, {"nvmlDeviceSetCpuAffinity"});
  f.device_clear_cpu_affinity.resolve(l, {"nvmlDeviceClearCpuAffinity"});
  f.device_cpu_affinity.resolve(l, {"nvmlDeviceGetCpuAffinity"});
  f.device_clock_info.resolve(l, {"nvmlDeviceGetClockInfo"});
  f.device_max_clock_info.resolve(l, {"nvmlDeviceGetMaxClockInfo"});
  f.device_power_usage.resolve(l, {"nvmlDeviceGetPowerUsage"});
  f.device_enforced_power_limit.resolve(l, {"nvmlDeviceGetEnforcedPowerLimit"});
  f.device_memory_bus_width.resolve(l, {"nvmlDeviceGetMemoryBusWidth"});
  f.device_curr_pcie_link_generation.resolve(l, {"nvmlDeviceGetCurrPcieLinkGeneration"});
  f.device_curr_pcie_link_width.resolve(l, {"nvmlDeviceGetCurrPcieLinkWidth"});
  f.device_max_pcie_link_generation.resolve(l, {"nvmlDeviceGetMaxPcieLinkGeneration"});
  f.device_gpu_max_pcie_link_generation.resolve(l, {"nvmlDeviceGetGpuMaxPcieLinkGeneration"});
  f.device_max_pcie_link_width.resolve(l, {"nvmlDeviceGetMaxPcieLinkWidth"});
  f.device_driver_model.resolve(l, {"nvmlDeviceGetDriverModel_v2", "nvmlDeviceGetDriverModel"});
  f.device_ecc_mode.resolve(l, {"nvmlDeviceGetEccMode"});
  f.device_total_ecc_errors.resolve(l, {"nvmlDeviceGetTotalEccErrors"});
  f.device_retired_pages.resolve(l, {"nvmlDeviceGetRetiredPages"});
  f.device_retired_pages_pending.resolve(l, {"nvmlDeviceGetRetiredPagesPendingStatus"});
  f.device_remapped_rows.resolve(l, {"nvmlDeviceGetRemappedRows"});
  f.device_utilization_rates.resolve(l, {"nvmlDeviceGetUtilizationRates"});
  f.device_clocks_event_reasons.resolve(
      l, {"nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons"});
  f.device_compute_processes.resolve(
      l, {"nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetComputeRunningProcesses_v2"});
  f.device_compute_processes_v1.resolve(l, {"nvmlDeviceGetComputeRunningProcesses"});
  return f;
}

const char* driver_model_name(DriverModel model) {
  switch (model) {
    case DRIVER_WDDM: return "WDDM";
    case DRIVER_WDM: return "TCC";
    case DRIVER_MCDM: return "MCDM";
  }
  return nullptr;
}

Return gpu_temperature_c(const Functions& f, Device device, int& celsius, const char** used) {
  Return r = ERROR_FUNCTION_NOT_FOUND;
  int value = 0;
  if (f.device_temperature_v) {
    if (used) *used = f.device_temperature_v.name;
    Temperature t{kTemperatureV1Version, TEMPERATURE_GPU, 0};
    r = f.device_temperature_v(device, &t);
    value = t.temperature;
  } else if (f.device_temperature) {
    if (used) *used = f.device_temperature.name;
    unsigned v = 0;
    r = f.device_temperature(device, TEMPERATURE_GPU, &v);
    value = v < 1000 ? static_cast<int>(v) : 1000;
  }
  if (r != SUCCESS) return r;
  if (value < -100 || value > 300) return ERROR_UNKNOWN;
  celsius = value;
  return SUCCESS;
}

Result<Library> Library::open() {
  auto library = open_library("GPUSCOUT_NVML_LIBRARY", nvml_library_names());
  if (!library) return std::unexpected(library.error());
  Library out;
  out.library_ = std::move(*library);
  out.functions_ = resolve([&lib = out.library_](const char* name) { return lib.raw_symbol(name); });
  return out;
}

}  // namespace gpuscout::vendor::nvml
