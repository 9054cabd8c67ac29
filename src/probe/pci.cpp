// PCI: every GPU of every vendor, enumerated from sysfs (under the sysroot), named from pci.ids (pci_names).
#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "core/text.hpp"
#include "os/system.hpp"
#include "probe/pci_names.hpp"
#include "probe/sources.hpp"

namespace gpuscout::probe {
namespace {

std::optional<int> link_generation(std::string_view speed) {
  const auto v = text::parse_double(text::split_ws(speed).empty() ? "" : text::split_ws(speed)[0]);
  if (!v) return std::nullopt;
  if (*v >= 60) return 6;
  if (*v >= 30) return 5;
  if (*v >= 15) return 4;
  if (*v >= 7.5) return 3;
  if (*v >= 4.5) return 2;
  if (*v >= 2) return 1;
  return std::nullopt;
}

}  // namespace

std::string vendor_key(uint16_t vendor_id, std::string_view pci_vendor_name) {
  switch (vendor_id) {
    case 0x10de: return "nvidia";
    case 0x1002: case 0x1022: return "amd";
    case 0x8086: return "intel";
    case 0x106b: return "apple";
    case 0x5143: case 0x17cb: return "qualcomm";
    case 0x1ed5: return "moorethreads";
    case 0x19e5: return "huawei";
    default: break;
  }
  std::string name = text::to_lower(pci_vendor_name);
  const auto cut = name.find_first_of(" ,[");
  if (cut != std::string::npos) name.resize(cut);
  return name.empty() ? fmt::format("{:04x}", vendor_id) : name;
}

bool is_display_only_adapter(uint16_t vendor_id) {
  switch (vendor_id) {
    case 0x1a03:  // ASPEED (server BMC)
    case 0x102b:  // Matrox (server BMC)
    case 0x1234:  // QEMU/Bochs VGA
    case 0x1013:  // Cirrus Logic (emulated)
    case 0x15ad:  // VMware SVGA
    case 0x1414:  // Microsoft Hyper-V synthetic video
    case 0x1af4:  // virtio-gpu
    case 0x1b36:  // Red Hat QXL
    case 0x80ee:  // VirtualBox
    case 0x1d0f:  // Amazon EC2 (Nitro) VGA
      return true;
    default: return false;
  }
}

std::string normalize_bus_id(std::string_view id) {
  // NVML: "00000000:01:00.0"; CUDA: "0000:01:00.0"; sysfs: "0000:01:00.0". Keep a 4-digit domain, lower case.
  std::string s = text::to_lower(text::trim(id));
  const auto parts = text::split(s, ':');
  if (parts.size() == 3) {
    auto domain = text::parse_uint(parts[0], 16);
    if (domain) return fmt::format("{:04x}:{}:{}", *domain, parts[1], parts[2]);
  } else if (parts.size() == 2) {
    return "0000:" + s;
  }
  return s;
}

namespace {

/// pci.ids writes "AD107M [GeForce RTX 4060 Max-Q / Mobile]": the bracket holds the marketing name.
void name_device(Gpu& gpu, const std::string& vn, const std::string& dn, uint16_t vendor, uint16_t device) {
  // pci.ids is a text file anyone can edit (and distributions patch): its names are cleaned to UTF-8 here.
  gpu.vendor = text::clean_utf8(vendor_key(vendor, vn));
  if (dn.empty()) {
    gpu.name = fmt::format("{} device {:04x}:{:04x} (not in this pci.ids: `update-pciids` refreshes it)",
                           text::clean_utf8(vn.empty() ? "Unknown vendor" : vn), vendor, device);
    return;
  }
  gpu.pci_name = text::clean_utf8(dn);
  std::string_view n = *gpu.pci_name;
  const auto open = n.find('['), close = n.rfind(']');
  gpu.name = (open != std::string_view::npos && close != std::string_view::npos && close > open)
                 ? std::string(n.substr(open + 1, close - open - 1))
                 : std::string(n);
}

/// The kernel driver bound to the device, its PCIe link and its NUMA node as sysfs reports them.
void read_driver_and_link(Gpu& gpu, const std::string& dir) {
  if (auto link = os::read_link(dir + "/driver")) {
    const auto slash = link->rfind('/');
    gpu.kernel_driver = text::clean_utf8(slash == std::string::npos ? *link : link->substr(slash + 1));
  }
  if (auto sp = os::read_line(dir + "/current_link_speed")) gpu.pcie_gen = link_generation(*sp);
  if (auto sp = os::read_line(dir + "/max_link_speed")) gpu.pcie_gen_max = link_generation(*sp);
  auto width = [&](const char* file, std::optional<int>& out) {
    if (auto sp = os::read_line(dir + "/" + file))
      if (auto v = text::parse_int(*sp); v && *v > 0 && *v <= 32) out = static_cast<int>(*v);
  };
  width("current_link_width", gpu.pcie_width);
  width("max_link_width", gpu.pcie_width_max);
  if (auto node = os::read_line(dir + "/numa_node")) gpu.numa_node = parse_numa_node(*node);
}

/// One entry of /sys/bus/pci/devices: a GPU (display controller, or a GPU vendor's compute accelerator), or nothing.
std::optional<Gpu> read_pci_device(const std::string& address, PciNames& names, std::vector<ProbeError>& errors) {
  const std::string dir = "/sys/bus/pci/devices/" + address;
  const std::string shown_dir = text::clean_utf8(dir);  // a stray entry's name may be any bytes
  auto hex = [&](const char* file) -> std::optional<unsigned long long> {
    auto line = os::read_line(dir + "/" + file);
    if (!line) return std::nullopt;
    return text::parse_uint(*line, 16);
  };
  const auto device_class = hex("class");
  if (!device_class) {
    errors.push_back(ProbeError{"pci", shown_dir + "/class", "missing or not a hex number", std::nullopt});
    return std::nullopt;
  }
  const unsigned cls = static_cast<unsigned>(*device_class >> 8);  // 0x030000 -> 0x0300
  const auto vendor = hex("vendor");
  const auto device = hex("device");
  const bool display = (cls >> 8) == 0x03;
  // Processing accelerators (class 0x12) include NPUs; only the GPU vendors' compute cards count.
  const bool accelerator = cls == 0x1200 && vendor && (*vendor == 0x10de || *vendor == 0x1002);
  if (!display && !accelerator) return std::nullopt;
  if (!vendor || !device || *vendor > 0xffff || *device > 0xffff || *vendor == 0xffff) {
    errors.push_back(ProbeError{"pci", shown_dir, "unreadable vendor or device id", std::nullopt});
    return std::nullopt;
  }
  if (is_display_only_adapter(static_cast<uint16_t>(*vendor))) return std::nullopt;

  Gpu gpu;
  gpu.pci_bus_id = normalize_bus_id(text::clean_utf8(address));
  gpu.pci_vendor_id = static_cast<uint16_t>(*vendor);
  gpu.pci_device_id = static_cast<uint16_t>(*device);
  const auto sub_vendor = hex("subsystem_vendor"), sub_device = hex("subsystem_device");
  if (sub_vendor && sub_device && *sub_vendor && *sub_vendor < 0xffff && *sub_device <= 0xffff) {
    gpu.pci_subsystem_vendor_id = static_cast<uint16_t>(*sub_vendor);
    gpu.pci_subsystem_device_id = static_cast<uint16_t>(*sub_device);
  }
  const auto [vn, dn] = names.lookup(*gpu.pci_vendor_id, *gpu.pci_device_id, errors);
  name_device(gpu, vn, dn, *gpu.pci_vendor_id, *gpu.pci_device_id);
  read_driver_and_link(gpu, dir);
  // Intel graphics on the root bus is the processor's integrated GPU.
  gpu.integrated = *vendor == 0x8086 && gpu.pci_bus_id->size() >= 8 && gpu.pci_bus_id->compare(4, 4, ":00:") == 0;
  gpu.sources.push_back("pci");
  return gpu;
}

}  // namespace

std::vector<Gpu> probe_pci_gpus(std::vector<ProbeError>& errors) {
  std::vector<Gpu> gpus;
  if (!os::is_directory("/sys/bus/pci/devices")) {
    errors.push_back(ProbeError{"pci", "/sys/bus/pci/devices", "not present (no PCI bus visible here)", std::nullopt});
    return gpus;
  }
  // Enumeration reads sysfs directly (so one garbage file costs one device, not the scan); libpci answers
  // the names from pci.ids.
  PciNames names;
  for (const auto& address : os::list_dir("/sys/bus/pci/devices"))
    if (auto gpu = read_pci_device(address, names, errors)) gpus.push_back(std::move(*gpu));
  std::sort(gpus.begin(), gpus.end(), [](const Gpu& a, const Gpu& b) { return a.pci_bus_id < b.pci_bus_id; });
  return gpus;
}

}  // namespace gpuscout::probe
