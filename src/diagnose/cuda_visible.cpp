#include "diagnose/cuda_visible.hpp"

#include <algorithm>

#include "core/text.hpp"

namespace gpuscout::diagnose {
namespace {

bool starts_with_icase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && text::to_lower(s.substr(0, prefix.size())) == text::to_lower(prefix);
}

std::optional<VisibleEntry> identifier(std::string_view entry) {
  if (entry.empty()) return std::nullopt;
  if (std::all_of(entry.begin(), entry.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) {
    // More digits than any machine has GPUs: an index no device has, so the list stops there.
    const auto index = text::parse_uint(entry);
    if (!index) return std::nullopt;
    return VisibleEntry{VisibleKind::index, std::string(entry), *index};
  }
  if (entry.size() <= 4) return std::nullopt;
  if (starts_with_icase(entry, "GPU-")) return VisibleEntry{VisibleKind::gpu_uuid, std::string(entry), 0};
  if (starts_with_icase(entry, "MIG-")) return VisibleEntry{VisibleKind::mig, std::string(entry), 0};
  return std::nullopt;
}

std::vector<const Gpu*> nvidia_gpus(const Inventory& inv) {
  std::vector<const Gpu*> out;
  for (const auto& g : inv.gpus)
    if (g.vendor == "nvidia") out.push_back(&g);
  return out;
}

/// The GPU a UUID prefix names: the one NVIDIA GPU whose UUID starts with it (nullptr for none or several).
const Gpu* gpu_by_uuid(const std::vector<const Gpu*>& gpus, std::string_view prefix) {
  const Gpu* found = nullptr;
  for (const Gpu* g : gpus) {
    if (!g->uuid || !starts_with_icase(*g->uuid, prefix)) continue;
    if (found) return nullptr;
    found = g;
  }
  return found;
}

/// A MIG entry's parent GPU, for the "MIG-GPU-<uuid>/gi/ci" form; the newer "MIG-<uuid>" names no GPU we record.
const Gpu* mig_parent(const std::vector<const Gpu*>& gpus, std::string_view entry) {
  const std::string_view rest = entry.substr(4);
  if (!starts_with_icase(rest, "GPU-")) return nullptr;
  return gpu_by_uuid(gpus, rest.substr(0, rest.find('/')));
}

/// Walks the entries as CUDA does: the indices and GPUs they name, how many, and where CUDA stops.
struct Walk {
  std::vector<unsigned long long> indices;
  std::vector<const Gpu*> named;
  int count = 0;
  bool all_indices = true;  ///< every visible entry is an index
  bool all_named = true;    ///< every other visible entry names a GPU we know (a UUID without recorded UUIDs does not)
  std::optional<std::string> stopped_at;
};

Walk walk(const VisibleList& list, const std::vector<const Gpu*>& gpus) {
  Walk w;
  const bool uuids_known = std::any_of(gpus.begin(), gpus.end(), [](const Gpu* g) { return g->uuid.has_value(); });
  for (const auto& e : list.entries) {
    bool valid = true;
    if (e.kind == VisibleKind::index) {
      valid = e.index < gpus.size() && std::find(w.indices.begin(), w.indices.end(), e.index) == w.indices.end();
      if (valid) w.indices.push_back(e.index);
    } else {
      const Gpu* g = e.kind == VisibleKind::gpu_uuid ? gpu_by_uuid(gpus, e.text) : mig_parent(gpus, e.text);
      // Without recorded UUIDs (NVML failed) a UUID cannot be checked: counted as naming a GPU.
      if (e.kind == VisibleKind::gpu_uuid && uuids_known) valid = g != nullptr;
      const bool repeated = std::find(w.named.begin(), w.named.end(), g) != w.named.end();
      if (g && e.kind == VisibleKind::gpu_uuid && repeated) valid = false;
      if (valid) {
        if (g) w.named.push_back(g);
        w.all_indices = false;
        w.all_named = w.all_named && g != nullptr;
      }
    }
    if (!valid) {
      w.stopped_at = e.text;
      return w;
    }
    ++w.count;
  }
  w.stopped_at = list.stopped_at;
  return w;
}

bool pci_bus_order(const Inventory& inv) {
  return inv.environment && inv.environment->count("CUDA_DEVICE_ORDER") &&
         text::trim(inv.environment->at("CUDA_DEVICE_ORDER")) == "PCI_BUS_ID";
}

/// Which GPUs are hidden, in the list's terms and, where the inventory tells, as GPUs.
void name_hidden(const Inventory& inv, const std::vector<const Gpu*>& gpus, const Walk& w, CudaVisibility& out) {
  const bool by_index = w.all_indices;
  if (!by_index && !w.all_named) return;  // a MIG instance or unchecked UUID: which GPU it is, we cannot tell
  for (size_t i = 0; i < gpus.size(); ++i) {
    const Gpu* g = gpus[i];
    if (by_index) {
      if (std::find(w.indices.begin(), w.indices.end(), i) != w.indices.end()) continue;
      out.hidden.push_back(std::to_string(i));
      if (pci_bus_order(inv)) out.hidden_gpus.push_back(g);
    } else if (std::find(w.named.begin(), w.named.end(), g) == w.named.end()) {
      out.hidden.push_back(g->uuid.value_or(g->name));
      out.hidden_gpus.push_back(g);
    }
  }
  // CUDA's order is its own: without PCI_BUS_ID, the CUDA probe (run with this environment) tells which it saw.
  const bool cuda_answered = inv.cuda.library_found && !inv.cuda.error && !inv.cuda.timed_out;
  if (by_index && out.hidden_gpus.empty() && cuda_answered)
    for (const Gpu* g : gpus)
      if (!g->cuda_index) out.hidden_gpus.push_back(g);
}

}  // namespace

VisibleList parse_cuda_visible_devices(std::string_view value) {
  VisibleList list;
  const auto parts = text::split(value, ',');
  for (size_t i = 0; i < parts.size(); ++i) {
    const auto part = text::trim(parts[i]);
    auto entry = identifier(part);
    if (!entry) {
      // A trailing comma ("0,") ends the list where it would end anyway: not worth naming.
      if (!part.empty() || i + 1 < parts.size()) list.stopped_at = std::string(part);
      break;
    }
    list.entries.push_back(std::move(*entry));
  }
  return list;
}

std::optional<CudaVisibility> cuda_visibility(const Inventory& inv) {
  if (!inv.environment) return std::nullopt;
  const auto it = inv.environment->find("CUDA_VISIBLE_DEVICES");
  if (it == inv.environment->end()) return std::nullopt;
  const auto gpus = nvidia_gpus(inv);
  const Walk w = walk(parse_cuda_visible_devices(it->second), gpus);
  CudaVisibility out;
  out.value = it->second;
  out.nvidia_gpus = static_cast<int>(gpus.size());
  out.visible = std::min(w.count, out.nvidia_gpus);
  out.stopped_at = w.stopped_at;
  if (out.visible < out.nvidia_gpus) name_hidden(inv, gpus, w, out);
  return out;
}

}  // namespace gpuscout::diagnose
