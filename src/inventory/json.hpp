#pragma once
/// The JSON form of an Inventory ("schema": "gpuscout.inventory/1", documented in docs/json.md).
/// Absent facts are null; unknown keys are ignored on input, so newer files load in older tools
/// as long as the schema's major number matches.
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "inventory/inventory.hpp"

namespace nlohmann {
template <typename T>
struct adl_serializer<std::optional<T>> {
  static void to_json(json& j, const std::optional<T>& value) {
    if (value) j = *value;
    else j = nullptr;
  }
  static void from_json(const json& j, std::optional<T>& value) {
    if (j.is_null()) value.reset();
    else value = j.get<T>();
  }
};
}  // namespace nlohmann

namespace gpuscout {

using Json = nlohmann::ordered_json;

// Field-by-field JSON for every section (inline, so probes can ship parts of an inventory between processes).
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ProbeError, source, what, message, code)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CpuCache, level, type, size_bytes, shared_by_cpus)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CpuInfo, arch, vendor, model, sockets, physical_cores, logical_cpus,
                                                online_cpus, cpu_quota, base_mhz, max_mhz, caches, features, hypervisor,
                                                errors)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(MemoryInfo, total_bytes, available_bytes, swap_total_bytes,
                                                swap_free_bytes, cgroup_limit_bytes, errors)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Disk, mount, device, fstype, total_bytes, free_bytes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(OsInfo, id, version_id, pretty_name, kernel, container, virtualization,
                                                wsl, errors)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PlatformInfo, kind, cloud, notebook, laptop, battery, chassis_type,
                                                system_vendor, product_name)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(GpuProcess, pid, used_bytes, name)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Gpu, index, vendor, name, pci_bus_id, pci_vendor_id, pci_device_id,
                                                pci_subsystem_vendor_id, pci_subsystem_device_id, pci_name,
                                                kernel_driver, integrated, nvml_index, cuda_index, uuid,
                                                memory_total_bytes, memory_used_bytes, memory_free_bytes,
                                                memory_reserved_bytes, compute_capability, architecture, catalog_name,
                                                temperature_c, power_draw_mw, power_limit_mw, utilization_gpu_pct,
                                                utilization_memory_pct, pcie_gen, pcie_width, pcie_gen_max,
                                                pcie_width_max, sm_count, clock_sm_mhz, max_clock_sm_mhz,
                                                clock_memory_mhz, memory_bus_width_bits, l2_bytes, processes, sources,
                                                errors)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(NvidiaInfo, library_found, library_path, driver_version,
                                                cuda_driver_version, nvml_version, kernel_module_version,
                                                kernel_module_loaded, uvm_loaded, nouveau_loaded, timed_out, error)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CudaDevice, index, name, compute_capability, sm_count, clock_mhz,
                                                memory_clock_mhz, memory_bus_width_bits, l2_bytes, total_memory_bytes,
                                                pci_bus_id, uuid, integrated)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CudaInfo, library_found, library_path, available, device_count,
                                                driver_version, timed_out, error, devices)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ToolkitInfo, nvcc_path, nvcc_version, cudnn_version, cudnn_path, errors)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TorchDevice, index, name, capability, total_memory_bytes,
                                                multi_processor_count)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TorchInfo, version, cuda, hip, cuda_available, device_count, arch_list,
                                                cudnn_version, mps_available, xpu_available, devices, warnings)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PythonInfo, probed, executable, version, torch_installed, timed_out,
                                                error)


/// The whole inventory as JSON, keys in a stable, documented order.
Json inventory_to_json(const Inventory& inventory);
/// Reads an inventory back; the error says what is wrong with the document (`source` names it).
Result<Inventory> inventory_from_json(const nlohmann::json& document, std::string_view source);
/// Reads `info --json` / `doctor --json` output from a file: a clear error for a missing, empty,
/// truncated or wrong-schema file.
Result<Inventory> load_inventory_file(const std::string& path);

}  // namespace gpuscout
