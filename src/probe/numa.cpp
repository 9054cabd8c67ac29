// NUMA: the nodes sysfs shows (/sys/devices/system/node/nodeN), each with its CPUs and memory, as lscpu and
// numactl --hardware read them. Which node a GPU hangs off is read with the PCI device (pci.cpp).
#include <algorithm>

#include <fmt/format.h>

#include "core/text.hpp"
#include "os/system.hpp"
#include "probe/sources.hpp"

namespace gpuscout::probe {
namespace {

constexpr long long kMaxNodes = 1024;  // the kernel's MAX_NUMNODES at CONFIG_NODES_SHIFT=10, its largest

/// "node12" -> 12; nullopt for the directory's other entries ("online", "possible", "has_cpu", "power").
std::optional<int> node_number(std::string_view name) {
  if (!name.starts_with("node") || name.size() == 4 || name.size() > 8) return std::nullopt;
  const auto digits = name.substr(4);
  if (digits.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
  const auto n = text::parse_int(digits);
  if (!n || *n >= kMaxNodes) return std::nullopt;
  return static_cast<int>(*n);
}

void add_error(std::vector<ProbeError>& errors, const std::string& what, std::string message) {
  errors.push_back(ProbeError{"cpu", text::clean_utf8(what), std::move(message), std::nullopt});
}

}  // namespace

std::optional<uint64_t> parse_node_meminfo_total(std::string_view text, int node) {
  const std::string key = fmt::format("Node {} MemTotal:", node);
  for (auto line : text::split(text, '\n')) {
    line = text::trim(line);
    if (!line.starts_with(key)) continue;
    auto value = text::trim(line.substr(key.size()));
    if (!value.ends_with("kB")) return std::nullopt;
    const auto kib = text::parse_uint(text::trim(value.substr(0, value.size() - 2)));
    if (!kib || *kib > (1ULL << 52)) return std::nullopt;  // 4 EiB: past any machine, and no overflow below
    return *kib * 1024;
  }
  return std::nullopt;
}

std::optional<int> parse_numa_node(std::string_view text) {
  const auto n = text::parse_int(text::trim(text));
  if (!n || *n < 0 || *n >= kMaxNodes) return std::nullopt;  // -1: the kernel knows no node for the device
  return static_cast<int>(*n);
}

std::vector<NumaNode> probe_numa_nodes(std::vector<ProbeError>& errors) {
  std::vector<NumaNode> nodes;
  const std::string root = "/sys/devices/system/node";
  for (const auto& name : os::list_dir(root)) {
    const auto number = node_number(name);
    if (!number) continue;
    const std::string dir = root + "/" + name;
    NumaNode node;
    node.node = *number;
    if (auto line = os::read_line(dir + "/cpulist")) {
      if (auto cpus = text::parse_cpu_list(*line)) node.cpus = text::format_cpu_list(*cpus);
      else add_error(errors, dir + "/cpulist", "malformed CPU list");
    }
    if (auto meminfo = os::read_file(dir + "/meminfo", 1 << 16)) {
      node.memory_total_bytes = parse_node_meminfo_total(*meminfo, node.node);
      if (!node.memory_total_bytes) add_error(errors, dir + "/meminfo", fmt::format("no valid Node {} MemTotal line", node.node));
    }
    nodes.push_back(std::move(node));
  }
  std::sort(nodes.begin(), nodes.end(), [](const NumaNode& a, const NumaNode& b) { return a.node < b.node; });
  return nodes;
}

}  // namespace gpuscout::probe
