// AMD GPUs as the amdgpu driver describes them in sysfs: VRAM from the PCI device's mem_info_* files, the ISA
// (gfx target) from the KFD topology that ROCm reads, and the environment override ROCm honours.
#include <fmt/format.h>

#include "catalog/catalog.hpp"
#include "core/text.hpp"
#include "os/system.hpp"
#include "probe/sources.hpp"

namespace gpuscout::probe {
namespace {

constexpr const char* kKfdNodes = "/sys/class/kfd/kfd/topology/nodes";

std::optional<uint64_t> read_bytes(const std::string& path) {
  const auto line = os::read_line(path);
  if (!line) return std::nullopt;
  const auto v = text::parse_uint(text::trim(*line));
  if (!v) return std::nullopt;
  return static_cast<uint64_t>(*v);
}

/// KFD topology nodes of GPUs: PCI bus id -> gfx target.
std::vector<std::pair<std::string, std::string>> kfd_gfx_targets() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& node : os::list_dir(kKfdNodes)) {
    const auto text = os::read_file(fmt::format("{}/{}/properties", kKfdNodes, node), 64 * 1024);
    if (!text) continue;
    const auto props = parse_kfd_properties(*text);
    if (props.bus_id && props.gfx_target) out.emplace_back(*props.bus_id, *props.gfx_target);
  }
  return out;
}

}  // namespace

std::optional<std::string> gfx_target_name(uint64_t version) {
  // major * 10000 + minor * 100 + stepping; the name's last two characters are minor and stepping in hex
  // (90010 -> gfx90a, 110000 -> gfx1100, 100300 -> gfx1030). CPU nodes report 0.
  const uint64_t major = version / 10000, minor = (version / 100) % 100, stepping = version % 100;
  if (major == 0 || major > 99 || minor > 15 || stepping > 15) return std::nullopt;
  return fmt::format("gfx{}{:x}{:x}", major, minor, stepping);
}

KfdProperties parse_kfd_properties(std::string_view text) {
  KfdProperties p;
  std::optional<unsigned long long> domain, location, gfx;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const auto line = text::trim(text.substr(start, end - start));
    start = end + 1;
    const size_t space = line.find(' ');
    if (space == std::string_view::npos) continue;
    const auto key = line.substr(0, space);
    const auto value = text::parse_uint(text::trim(line.substr(space + 1)));
    if (key == "domain") domain = value;
    else if (key == "location_id") location = value;
    else if (key == "gfx_target_version") gfx = value;
  }
  if (gfx) p.gfx_target = gfx_target_name(*gfx);
  // location_id is the PCI address as bus << 8 | device << 3 | function.
  if (location && *location <= 0xffff && (!domain || *domain <= 0xffff))
    p.bus_id = fmt::format("{:04x}:{:02x}:{:02x}.{:x}", domain.value_or(0), (*location >> 8) & 0xff,
                           (*location >> 3) & 0x1f, *location & 0x7);
  return p;
}

void probe_amdgpu(std::vector<Gpu>& gpus, RocmInfo& rocm) {
  rocm.kfd_present = os::is_directory(kKfdNodes);
  if (auto v = os::getenv("HSA_OVERRIDE_GFX_VERSION"); v && !v->empty())
    rocm.hsa_override_gfx_version = text::clean_utf8(v->substr(0, 64));
  const auto targets = rocm.kfd_present ? kfd_gfx_targets() : std::vector<std::pair<std::string, std::string>>{};
  for (auto& g : gpus) {
    if (g.vendor != "amd" || !g.pci_bus_id || g.kernel_driver.value_or("") != "amdgpu") continue;
    const std::string dir = "/sys/bus/pci/devices/" + *g.pci_bus_id;
    // Bounded like every other GPU memory figure: 1 PiB.
    if (auto total = read_bytes(dir + "/mem_info_vram_total"); total && *total > 0 && *total < (1ULL << 50)) {
      g.memory_total_bytes = total;
      if (auto used = read_bytes(dir + "/mem_info_vram_used"); used && *used <= *total) {
        g.memory_used_bytes = used;
        g.memory_free_bytes = *total - *used;
      }
      g.sources.push_back("amdgpu");
    }
    for (const auto& [bus, gfx] : targets)
      if (bus == *g.pci_bus_id) g.gfx_target = gfx;
    // An APU's graphics share the system's memory; its VRAM figure is only the firmware's carve-out.
    if (g.gfx_target && catalog::is_amd_apu(*g.gfx_target)) g.integrated = true;
  }
}

}  // namespace gpuscout::probe
