// The Windows facts turned into the Inventory's cpu, memory, disks, os, platform and gpus. Pure: the live .exe and
// a recorded machine replayed on Linux go through the same code.
#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "core/text.hpp"
#include "probe/sources.hpp"
#include "probe/windows_facts.hpp"

namespace gpuscout::probe::windows {
namespace {

int count_logical(const std::vector<GroupMask>& masks) {
  int n = 0;
  for (const auto& m : masks) n += std::popcount(m.mask);
  return n;
}

bool covers(const std::vector<GroupMask>& masks, const GroupMask& cpu) {
  return std::any_of(masks.begin(), masks.end(), [&](const GroupMask& m) { return m.group == cpu.group && (m.mask & cpu.mask); });
}

std::string cache_type_name(uint32_t type) {
  switch (type) {
    case 0: return "Unified";
    case 1: return "Instruction";
    case 2: return "Data";
    case 3: return "Trace";
    default: return fmt::format("type {}", type);
  }
}

std::string arch_name(const std::optional<std::string>& processor_architecture) {
  const std::string a = text::to_lower(processor_architecture.value_or(""));
  if (a == "amd64") return "x86_64";
  if (a == "arm64") return "aarch64";
  if (a == "x86") return "i686";
  return a.empty() ? "unknown" : a;
}

void fill_cpu(const Facts& f, CpuInfo& cpu) {
  const Processors& p = f.processors;
  cpu.arch = arch_name(f.processor_architecture);
  cpu.vendor = f.cpuid.vendor;
  cpu.model = f.cpuid.brand;
  int group_active = 0;
  for (const auto& g : p.groups) group_active += g.active_processors;
  if (group_active > 0) cpu.online_cpus = group_active;
  if (!p.cores.empty()) {
    int logical = 0;
    for (const auto& c : p.cores) logical += count_logical(c.masks);
    cpu.physical_cores = static_cast<int>(p.cores.size());
    cpu.logical_cpus = logical;
    if (!cpu.online_cpus) cpu.online_cpus = logical;
  } else if (group_active > 0) {
    cpu.logical_cpus = group_active;
  }
  if (!p.packages.empty()) cpu.sockets = static_cast<int>(p.packages.size());
  // The caches of the first logical processor, as Linux reports cpu0's.
  if (!p.cores.empty() && !p.cores.front().masks.empty() && p.cores.front().masks.front().mask != 0) {
    const GroupMask& first = p.cores.front().masks.front();
    const GroupMask cpu0{first.group, first.mask & (~first.mask + 1)};  // the lowest set bit
    for (const auto& c : p.caches)
      if (covers(c.masks, cpu0)) cpu.caches.push_back({c.level, cache_type_name(c.type), c.size, count_logical(c.masks)});
  }
  cpu.features = f.cpuid.features;
  cpu.hypervisor = f.cpuid.hypervisor_present;
  if (f.registry.processor_mhz && *f.registry.processor_mhz > 0) cpu.base_mhz = double(*f.registry.processor_mhz);
}

void fill_memory(const Facts& f, MemoryInfo& mem) {
  if (!f.memory) return;
  const MemoryStatus& m = *f.memory;
  mem.total_bytes = m.total_phys;
  mem.available_bytes = m.avail_phys;
  // The page file: the commit limit less RAM, and what is left of it beyond the free RAM.
  mem.swap_total_bytes = m.total_page_file > m.total_phys ? m.total_page_file - m.total_phys : 0;
  mem.swap_free_bytes = std::min(*mem.swap_total_bytes, m.avail_page_file > m.avail_phys ? m.avail_page_file - m.avail_phys : 0);
}

/// Fixed drives with their sizes, as `df` lists real file systems.
std::vector<Disk> disks(const Facts& f) {
  std::vector<Disk> out;
  for (const auto& d : f.drives) {
    if (d.type != kDriveFixed || !d.total_bytes || *d.total_bytes == 0) continue;
    const std::string label = d.label.value_or("");
    const uint64_t available = d.available_bytes.value_or(d.free_bytes.value_or(0));
    std::optional<uint64_t> used;
    if (d.free_bytes) used = used_bytes(os::FsSpace{*d.total_bytes, *d.free_bytes, available});
    out.push_back({d.root, label.empty() ? d.root : label, d.file_system.value_or(""), *d.total_bytes, available, used});
  }
  return out;
}

/// Hyper-V's root partition (the Windows host itself, under VBS, WSL2 or Hyper-V) has the CreatePartitions privilege.
bool in_root_partition(const Cpuid& c) {
  return c.hypervisor_vendor == "Microsoft Hv" && c.hyperv_privileges_ebx && (*c.hyperv_privileges_ebx & 1u);
}

std::optional<std::string> virtualization(const Facts& f) {
  if (auto named = virtualization_from_firmware(f.smbios.manufacturer.value_or(""), f.smbios.product.value_or(""), ""))
    return named;
  const Cpuid& c = f.cpuid;
  if (!c.hypervisor_present || in_root_partition(c)) return std::nullopt;
  // Microsoft's hypervisor without its privileges recorded: Windows with VBS on bare metal looks the same; the
  // firmware strings above decide instead.
  if (c.hypervisor_vendor == "Microsoft Hv" && !c.hyperv_privileges_ebx) return std::nullopt;
  if (c.hypervisor_vendor)
    if (auto named = hypervisor_name(*c.hypervisor_vendor)) return named;
  return "unknown-hypervisor";
}

void fill_os(const Facts& f, OsInfo& os) {
  os.family = "windows";
  os.id = "windows";
  const std::string version = fmt::format("{}.{}.{}", f.version.major, f.version.minor, f.version.build);
  if (f.version.major > 0) {
    os.version_id = version;
    os.kernel = f.registry.ubr ? fmt::format("{}.{}", version, *f.registry.ubr) : version;
    os.pretty_name = pretty_name(f);
  }
  os.virtualization = virtualization(f);
  WindowsInfo w;
  w.build = f.registry.ubr ? fmt::format("{}.{}", f.version.build, *f.registry.ubr) : fmt::format("{}", f.version.build);
  w.display_version = f.registry.display_version ? f.registry.display_version : f.registry.release_id;
  w.edition = f.registry.edition_id;
  if (f.registry.long_paths_enabled) w.long_paths_enabled = *f.registry.long_paths_enabled != 0;
  os.windows = std::move(w);
}

void fill_platform(const Facts& f, const OsInfo& os, PlatformInfo& p) {
  p.system_vendor = f.smbios.manufacturer;
  p.product_name = f.smbios.product;
  p.chassis_type = f.smbios.chassis_type;
  p.battery = f.battery_flag && *f.battery_flag != 128 && *f.battery_flag != 255;  // no system battery / unknown
  p.laptop = (p.chassis_type && laptop_chassis(*p.chassis_type)) || (p.battery && !os.virtualization);
  if (p.laptop) p.kind = "laptop";
  else if (os.virtualization) p.kind = "vm";
  else if (p.chassis_type) p.kind = chassis_kind(*p.chassis_type).value_or(p.kind);
}

std::optional<Gpu> gpu_of(const Adapter& a) {
  if ((a.flags & kAdapterFlagSoftware) || a.vendor_id > 0xffff || a.device_id > 0xffff) return std::nullopt;
  const auto vendor_id = static_cast<uint16_t>(a.vendor_id);
  if (is_display_only_adapter(vendor_id)) return std::nullopt;  // Hyper-V video, VMware SVGA, ...
  Gpu g;
  g.vendor = vendor_key(vendor_id, "");
  g.name = a.description;
  g.pci_vendor_id = vendor_id;
  g.pci_device_id = static_cast<uint16_t>(a.device_id);
  g.pci_subsystem_vendor_id = static_cast<uint16_t>(a.subsys_id & 0xffff);
  g.pci_subsystem_device_id = static_cast<uint16_t>(a.subsys_id >> 16);
  // Integrated graphics get a small carve-out (128 MiB on Iris Xe) and use shared system memory.
  constexpr uint64_t kCarveOutMax = 1ull << 30;
  g.integrated = (g.vendor == "intel" || g.vendor == "amd") && a.dedicated_video_memory < kCarveOutMax;
  const uint64_t memory = g.integrated ? a.dedicated_video_memory + a.shared_system_memory : a.dedicated_video_memory;
  if (memory > 0) g.memory_total_bytes = memory;
  g.luid = fmt::format("0x{:08x}:0x{:08x}", static_cast<uint32_t>(a.luid_high), a.luid_low);
  if (a.pci_bus && a.pci_device && a.pci_function && *a.pci_bus < 256 && *a.pci_device < 32 && *a.pci_function < 8)
    g.pci_bus_id = fmt::format("0000:{:02x}:{:02x}.{:x}", *a.pci_bus, *a.pci_device, *a.pci_function);
  // Windows' inbox driver for a card whose own driver is not installed: it shows the screen, nothing more.
  if (a.description == "Microsoft Basic Display Adapter") g.kernel_driver = "BasicDisplay";
  g.sources = {"dxgi"};
  return g;
}

std::vector<Gpu> gpus(const Facts& f) {
  std::vector<Gpu> out;
  for (const auto& a : f.adapters)
    if (auto g = gpu_of(a)) out.push_back(std::move(*g));
  // PCI order, as on Linux; adapters without a known location after them, in DXGI's order.
  std::stable_sort(out.begin(), out.end(), [](const Gpu& a, const Gpu& b) {
    if (a.pci_bus_id.has_value() != b.pci_bus_id.has_value()) return a.pci_bus_id.has_value();
    return a.pci_bus_id && *a.pci_bus_id < *b.pci_bus_id;
  });
  for (size_t i = 0; i < out.size(); ++i) out[i].index = static_cast<int>(i);
  return out;
}

}  // namespace

std::optional<std::string> nvidia_driver_version(std::string_view windows_version) {
  const auto fields = text::split(windows_version, '.');
  if (fields.size() != 4) return std::nullopt;
  for (auto field : fields)
    if (field.empty() || field.size() > 5 || !text::parse_uint(field)) return std::nullopt;
  // 32.0.15.8157: "15" + "8157" -> "158157", the last five digits "58157" -> "581.57".
  const std::string digits = std::string(fields[2]) + fmt::format("{:0>4}", fields[3]);
  if (digits.size() < 5) return std::nullopt;
  const std::string last5 = digits.substr(digits.size() - 5);
  return fmt::format("{}.{}", last5.substr(0, 3), last5.substr(3));
}

std::string pretty_name(const Facts& f) {
  std::string name = f.registry.product_name.value_or("Windows");
  // Windows 11 kept "Windows 10" in ProductName; build 22000 is Windows 11's first.
  if (f.version.build >= 22000 && name.starts_with("Windows 10")) name.replace(0, 10, "Windows 11");
  const auto& display = f.registry.display_version ? f.registry.display_version : f.registry.release_id;
  if (display && !display->empty()) name += " " + *display;
  return name;
}

void fill_nvidia(const Facts& f, NvidiaInfo& nvidia) {
  for (const auto& a : f.adapters) {
    if (a.vendor_id != 0x10de || !a.driver_version || (a.flags & kAdapterFlagSoftware)) continue;
    if (a.description == "Microsoft Basic Display Adapter") continue;  // Windows' inbox driver, not NVIDIA's
    nvidia.windows_driver_version = a.driver_version;
    if (!nvidia.driver_version) nvidia.driver_version = nvidia_driver_version(*a.driver_version);
    return;
  }
}

void fill_inventory(const Facts& f, Inventory& inv) {
  fill_cpu(f, inv.cpu);
  fill_memory(f, inv.memory);
  inv.disks = disks(f);
  fill_os(f, inv.os);
  fill_platform(f, inv.os, inv.platform);
  inv.gpus = gpus(f);
  fill_nvidia(f, inv.nvidia);
  for (const auto& e : f.errors) {
    if (e.source == "cpu") inv.cpu.errors.push_back(e);
    else if (e.source == "memory") inv.memory.errors.push_back(e);
    else if (e.source == "disks") inv.disk_errors.push_back(e);
    else if (e.source == "dxgi" || e.source == "pci") inv.pci_errors.push_back(e);
    else inv.os.errors.push_back(e);
  }
}

}  // namespace gpuscout::probe::windows
