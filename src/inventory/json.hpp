#pragma once
/// The JSON form of an Inventory ("schema": "gpuscout.inventory/1", documented in docs/json.md).
/// Absent facts are null; unknown keys are ignored on input, so newer files load in older tools
/// as long as the schema's major number matches.
#include <optional>
#include <string_view>

#include "core/error.hpp"
#include "core/json.hpp"
#include "inventory/inventory.hpp"

namespace gpuscout {

using Json = nlohmann::ordered_json;

/// One list of fields per section gives both the JSON conversions (nlohmann's, inline, so probes can ship parts of
/// an inventory between processes) and `read_fields`, the checked reader that load_inventory_file uses for
/// files from outside: a field added to a section is written and read back without a second list.
#define GPUSCOUT_JSON_READ_FIELD(member) fields.read(#member, value.member);
#define GPUSCOUT_INVENTORY_JSON(Type, ...)                                          \
  NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Type, __VA_ARGS__)                \
  template <typename Fields>                                                        \
  void read_fields(Fields& fields, Type& value) {                                   \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(GPUSCOUT_JSON_READ_FIELD, __VA_ARGS__)) \
  }

GPUSCOUT_INVENTORY_JSON(ProbeError, source, what, message, code)
GPUSCOUT_INVENTORY_JSON(CpuCache, level, type, size_bytes, shared_by_cpus)
GPUSCOUT_INVENTORY_JSON(NumaNode, node, cpus, memory_total_bytes)
GPUSCOUT_INVENTORY_JSON(CpuInfo, arch, vendor, model, family, model_number, stepping, microcode, sockets, physical_cores, logical_cpus, online_cpus, cpu_quota,
                        base_mhz, max_mhz, cpuinfo_mhz_max, caches, features, hypervisor, allowed_cpus, numa_nodes, errors)
GPUSCOUT_INVENTORY_JSON(MemoryInfo, total_bytes, available_bytes, swap_total_bytes, swap_free_bytes,
                        cgroup_limit_bytes, shm_total_bytes, shm_available_bytes, errors)
GPUSCOUT_INVENTORY_JSON(Disk, mount, device, fstype, total_bytes, free_bytes, used_bytes)
GPUSCOUT_INVENTORY_JSON(WindowsInfo, build, display_version, edition, long_paths_enabled)
GPUSCOUT_INVENTORY_JSON(OsInfo, family, id, version_id, pretty_name, kernel, container, virtualization, wsl, windows,
                        errors)
GPUSCOUT_INVENTORY_JSON(PlatformInfo, kind, cloud, notebook, laptop, battery, chassis_type, system_vendor,
                        product_name)
GPUSCOUT_INVENTORY_JSON(GpuProcess, pid, used_bytes, name)
GPUSCOUT_INVENTORY_JSON(MemoryHealth, ecc_enabled, ecc_pending_enabled, ecc_errors_uncorrected_volatile,
                        ecc_errors_uncorrected_aggregate, ecc_errors_corrected_volatile, retired_pages_sbe,
                        retired_pages_dbe, retired_pages_pending, remapped_rows_correctable,
                        remapped_rows_uncorrectable, remapped_rows_pending, remapped_rows_failed)
GPUSCOUT_INVENTORY_JSON(Gpu, index, vendor, name, pci_bus_id, pci_vendor_id, pci_device_id, pci_subsystem_vendor_id,
                        pci_subsystem_device_id, pci_name, kernel_driver, numa_node, integrated, nvml_index, cuda_index, uuid,
                        memory_total_bytes, memory_used_bytes, memory_free_bytes, memory_reserved_bytes,
                        compute_capability, architecture, catalog_name, temperature_c, power_draw_mw, power_limit_mw,
                        utilization_gpu_pct, utilization_memory_pct, pcie_gen, pcie_width, pcie_gen_max,
                        pcie_width_max, sm_count, clock_sm_mhz, max_clock_sm_mhz, clock_memory_mhz, max_clock_graphics_mhz,
                        vbios_version, persistence_mode, mig_mode,
                        memory_bus_width_bits, l2_bytes, processes, gfx_target, luid, driver_model, memory_health,
                        sources, errors)
GPUSCOUT_INVENTORY_JSON(NvidiaInfo, library_found, library_path, driver_version, windows_driver_version, cuda_driver_version,
                        nvml_version,
                        kernel_module_version, kernel_module_loaded, uvm_loaded, nouveau_loaded, timed_out, error)
GPUSCOUT_INVENTORY_JSON(CudaDevice, index, name, compute_capability, sm_count, clock_mhz, memory_clock_mhz,
                        memory_bus_width_bits, l2_bytes, total_memory_bytes, pci_bus_id, uuid, integrated, luid)
GPUSCOUT_INVENTORY_JSON(CudaInfo, library_found, library_path, available, device_count, driver_version, timed_out,
                        error, devices)
GPUSCOUT_INVENTORY_JSON(RocmInfo, kfd_present, hsa_override_gfx_version)
GPUSCOUT_INVENTORY_JSON(ProbeTimings, nvml_ms, cuda_ms)
GPUSCOUT_INVENTORY_JSON(ToolkitInfo, nvcc_path, nvcc_version, cudnn_version, cudnn_path, errors)
GPUSCOUT_INVENTORY_JSON(TorchDevice, index, name, capability, total_memory_bytes, multi_processor_count)
GPUSCOUT_INVENTORY_JSON(TorchInfo, version, cuda, hip, cuda_available, device_count, arch_list, cudnn_version,
                        mps_available, xpu_available, devices, warnings, debug, cpu_capability, num_threads,
                        num_interop_threads, blas, lapack)
GPUSCOUT_INVENTORY_JSON(OtherPython, executable, version, torch_version, torch_cuda)
GPUSCOUT_INVENTORY_JSON(PythonPackage, name, version)
GPUSCOUT_INVENTORY_JSON(PythonInfo, probed, executable, version, selected_by, in_venv, externally_managed,
                        has_pip, has_ensurepip, environment_tool, torch_installed, timed_out, error, others, store_alias, build, implementation, libc, packages)


/// The whole inventory as JSON, keys in a stable, documented order.
Json inventory_to_json(const Inventory& inventory);
/// `json` as text (indented by `indent`, -1 for one line) that never throws: a string that is not valid UTF-8
/// (the probes clean every string, this is the last defence) comes out with U+FFFD in place of the bad bytes.
std::string json_text(const Json& json, int indent = 2);

/// Reads an inventory back, checking every field, as for a file from another person: numbers finite, whole
/// where they count or measure bytes, within range; version strings and compute capabilities ("8.9") parsed;
/// every type as the schema says; strings cleaned to UTF-8. The error names `source` and the field
/// ("SOURCE: field nvidia.cuda_driver_version: '' is not a version like 12.8").
Result<Inventory> inventory_from_json(const nlohmann::json& document, std::string_view source);
/// Reads `info --json` / `doctor --json` output from a file, as inventory_from_json does; the error names the
/// file and, for a damaged document or a wrong field, the line and column ("FILE: line 3 column 25: field ...").
Result<Inventory> load_inventory_file(const std::string& path);

}  // namespace gpuscout
