#include "inventory/json.hpp"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace gpuscout {

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

Json inventory_to_json(const Inventory& inv) {
  Json j;
  j["schema"] = inv.schema;
  j["gpuscout_version"] = inv.gpuscout_version;
  j["collected_at"] = nlohmann::json(inv.collected_at);
  j["hostname"] = nlohmann::json(inv.hostname);
  j["cpu"] = nlohmann::json(inv.cpu);
  j["memory"] = nlohmann::json(inv.memory);
  j["disks"] = nlohmann::json(inv.disks);
  j["disk_errors"] = nlohmann::json(inv.disk_errors);
  j["os"] = nlohmann::json(inv.os);
  j["platform"] = nlohmann::json(inv.platform);
  j["gpus"] = nlohmann::json(inv.gpus);
  j["pci_errors"] = nlohmann::json(inv.pci_errors);
  j["nvidia"] = nlohmann::json(inv.nvidia);
  j["cuda"] = nlohmann::json(inv.cuda);
  j["toolkit"] = nlohmann::json(inv.toolkit);
  j["python"] = nlohmann::json(inv.python);
  j["torch"] = nlohmann::json(inv.torch);
  j["probe_ms"] = inv.probe_ms;
  return j;
}

Result<Inventory> inventory_from_json(const nlohmann::json& doc, std::string_view source) {
  if (!doc.is_object()) return fail(fmt::format("{}: not a gpuscout inventory (expected a JSON object)", source));
  const auto schema = doc.find("schema");
  if (schema == doc.end() || !schema->is_string())
    return fail(fmt::format("{}: no \"schema\" field: not a saved `gpuscout info --json` (schema {})", source,
                            kInventorySchema));
  const std::string s = schema->get<std::string>();
  if (s != kInventorySchema) {
    if (s.starts_with("gpuscout.inventory/"))
      return fail(fmt::format("{}: inventory schema {} is not supported by this gpuscout (it reads {})", source, s,
                              kInventorySchema));
    return fail(fmt::format("{}: schema is \"{}\", expected \"{}\" (save one with `gpuscout info --json > FILE`)",
                            source, s, kInventorySchema));
  }
  try {
    Inventory inv;
    inv.schema = s;
    inv.gpuscout_version = doc.value("gpuscout_version", std::string());
    auto field = [&](const char* key, auto& out) {
      const auto it = doc.find(key);
      if (it != doc.end() && !it->is_null()) it->get_to(out);
    };
    field("collected_at", inv.collected_at);
    field("hostname", inv.hostname);
    field("cpu", inv.cpu);
    field("memory", inv.memory);
    field("disks", inv.disks);
    field("disk_errors", inv.disk_errors);
    field("os", inv.os);
    field("platform", inv.platform);
    field("gpus", inv.gpus);
    field("pci_errors", inv.pci_errors);
    field("nvidia", inv.nvidia);
    field("cuda", inv.cuda);
    field("toolkit", inv.toolkit);
    field("python", inv.python);
    field("torch", inv.torch);
    inv.probe_ms = doc.value("probe_ms", 0.0);
    return inv;
  } catch (const nlohmann::json::exception& e) {
    return fail(fmt::format("{}: a field has the wrong type for schema {}: {}", source, kInventorySchema, e.what()));
  }
}

Result<Inventory> load_inventory_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(fmt::format("{}: cannot open the file", path));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    return fail(fmt::format("{}: the file is empty (expected the output of `gpuscout info --json`)", path));
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    return fail(fmt::format("{}: not valid JSON (truncated or damaged?): {}", path, e.what()));
  }
  return inventory_from_json(doc, path);
}

}  // namespace gpuscout
