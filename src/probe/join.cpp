// Joining: one entry per physical GPU, matched across PCI, NVML and CUDA by PCI bus id (never by index:
// NVML counts in PCI order, CUDA fastest-first unless CUDA_DEVICE_ORDER=PCI_BUS_ID).
#include <algorithm>

#include <fmt/format.h>

#include "catalog/catalog.hpp"
#include "catalog/gpu_match.hpp"
#include "probe/sources.hpp"

namespace gpuscout::probe {
namespace {

template <typename T>
void fill(std::optional<T>& target, const std::optional<T>& source) {
  if (!target && source) target = source;
}

Gpu* find_by_bus(std::vector<Gpu>& gpus, const std::optional<std::string>& bus) {
  if (!bus) return nullptr;
  for (auto& g : gpus)
    if (g.pci_bus_id == bus) return &g;
  return nullptr;
}

// Windows: DXGI's adapters carry a LUID and no bus id, CUDA's devices both; an adapter takes the bus id of the
// CUDA device with its LUID, and NVML and CUDA are then joined to it by bus id as everywhere.
void adopt_bus_ids_by_luid(std::vector<Gpu>& gpus, const std::vector<CudaDevice>& devices) {
  for (const auto& d : devices) {
    if (!d.luid || !d.pci_bus_id) continue;
    for (auto& g : gpus)
      if (g.luid == d.luid && !g.pci_bus_id && !find_by_bus(gpus, d.pci_bus_id)) g.pci_bus_id = d.pci_bus_id;
  }
}

}  // namespace

std::string luid_text(uint32_t high_part, uint32_t low_part) {
  return fmt::format("0x{:08x}:0x{:08x}", high_part, low_part);
}

// What NVML knows of a GPU that PCI found: NVML's facts win (the driver's view of the card).
void adopt_nvml_facts(Gpu* g, const Gpu& n) {
  if (!n.name.empty()) g->name = n.name;  // NVML's name is the product name the driver knows
  g->nvml_index = n.nvml_index;
  g->uuid = n.uuid;
  fill(g->pci_vendor_id, n.pci_vendor_id);
  fill(g->pci_device_id, n.pci_device_id);
  g->memory_total_bytes = n.memory_total_bytes;
  g->memory_used_bytes = n.memory_used_bytes;
  g->memory_free_bytes = n.memory_free_bytes;
  g->memory_reserved_bytes = n.memory_reserved_bytes;
  g->compute_capability = n.compute_capability;
  g->temperature_c = n.temperature_c;
  g->power_draw_mw = n.power_draw_mw;
  g->power_limit_mw = n.power_limit_mw;
  g->utilization_gpu_pct = n.utilization_gpu_pct;
  g->utilization_memory_pct = n.utilization_memory_pct;
  // NVML's link figures account for the slot and the card; sysfs is a fallback.
  if (n.pcie_gen) g->pcie_gen = n.pcie_gen;
  if (n.pcie_width) g->pcie_width = n.pcie_width;
  if (n.pcie_gen_max) g->pcie_gen_max = n.pcie_gen_max;
  if (n.pcie_width_max) g->pcie_width_max = n.pcie_width_max;
  g->clock_sm_mhz = n.clock_sm_mhz;
  g->max_clock_sm_mhz = n.max_clock_sm_mhz;
  g->clock_memory_mhz = n.clock_memory_mhz;
  g->max_clock_graphics_mhz = n.max_clock_graphics_mhz;
  g->vbios_version = n.vbios_version;
  g->persistence_mode = n.persistence_mode;
  g->mig_mode = n.mig_mode;
  g->memory_bus_width_bits = n.memory_bus_width_bits;
  g->processes = n.processes;
  g->memory_health = n.memory_health;
  g->errors.insert(g->errors.end(), n.errors.begin(), n.errors.end());
  g->sources.push_back("nvml");
}

void join_gpus(Inventory& inv, const NvmlReport& nvml) {
  adopt_bus_ids_by_luid(inv.gpus, inv.cuda.devices);
  for (const auto& n : nvml.gpus) {
    Gpu* g = find_by_bus(inv.gpus, n.pci_bus_id);
    if (!g) {
      // NVML sees GPUs that PCI does not (WSL's paravirtualised GPU, a restricted sysfs): keep them.
      inv.gpus.push_back(n);
      continue;
    }
    adopt_nvml_facts(g, n);
  }
  for (const auto& d : inv.cuda.devices) {
    Gpu* g = find_by_bus(inv.gpus, d.pci_bus_id);
    if (!g) {
      Gpu extra;
      extra.vendor = "nvidia";
      extra.name = d.name;
      extra.pci_bus_id = d.pci_bus_id;
      inv.gpus.push_back(extra);
      g = &inv.gpus.back();
    }
    g->cuda_index = d.index;
    fill(g->compute_capability, d.compute_capability);
    fill(g->memory_total_bytes, d.total_memory_bytes);
    fill(g->uuid, d.uuid);
    fill(g->luid, d.luid);
    g->sm_count = d.sm_count;
    fill(g->max_clock_sm_mhz, d.clock_mhz);
    fill(g->memory_bus_width_bits, d.memory_bus_width_bits);
    g->l2_bytes = d.l2_bytes;
    g->integrated = g->integrated || d.integrated;
    if (g->name.empty()) g->name = d.name;
    g->sources.push_back("cuda");
  }
  std::stable_sort(inv.gpus.begin(), inv.gpus.end(), [](const Gpu& a, const Gpu& b) {
    return a.pci_bus_id.value_or("~") < b.pci_bus_id.value_or("~");
  });
  for (size_t i = 0; i < inv.gpus.size(); ++i) {
    Gpu& g = inv.gpus[i];
    g.index = static_cast<int>(i);
    if (const auto m = catalog::match_gpu({g.name, g.pci_vendor_id, g.pci_device_id, g.memory_total_bytes})) {
      const auto* spec = m->spec;
      g.catalog_name = spec->name;
      if (!spec->architecture.empty()) g.architecture = spec->architecture;
      // Only when no driver told us: the catalogue's capability for a card whose driver is missing.
      if (!g.compute_capability && g.vendor == "nvidia") g.compute_capability = spec->compute_capability;
    }
    if (g.compute_capability) {
      if (const auto* cc = catalog::find_compute_capability(*g.compute_capability)) g.architecture = cc->architecture;
    }
  }
}

}  // namespace gpuscout::probe
