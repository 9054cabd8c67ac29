#include "report/query.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <iterator>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/i18n.hpp"
#include "core/text.hpp"
#include "inventory/bus_id.hpp"

namespace gpuscout::report {
namespace {

constexpr std::string_view kNotAvailable = "[N/A]";
constexpr double kMiB = 1024.0 * 1024.0;

/// One of nvidia-smi's fields: its name, the other names it accepts, the unit its header and values carry ("" for
/// none) and how its value is read from the inventory (nullopt = "[N/A]").
struct SmiField {
  std::string_view name;
  std::vector<std::string_view> aliases;
  std::string_view unit;
  std::function<std::optional<std::string>(const Inventory&, const Gpu&)> value;
};

template <typename T>
std::optional<std::string> text_of(const std::optional<T>& v) {
  if (!v) return std::nullopt;
  return fmt::format("{}", *v);
}

/// nvidia-smi's MiB: the byte count divided by 2^20, rounded down.
std::optional<std::string> mib(const std::optional<uint64_t>& bytes) {
  if (!bytes) return std::nullopt;
  return fmt::format("{}", *bytes / static_cast<uint64_t>(kMiB));
}

/// nvidia-smi's watts: two decimals.
std::optional<std::string> watts(const std::optional<uint32_t>& mw) {
  if (!mw) return std::nullopt;
  return fmt::format("{:.2f}", *mw / 1000.0);
}

/// A memory-health fact (`gpus[].memory_health`), "[N/A]" where NVML did not answer its call.
template <typename T>
std::optional<T> health(const Gpu& g, std::optional<T> MemoryHealth::* field) {
  return g.memory_health ? (*g.memory_health).*field : std::nullopt;
}

/// nvidia-smi's words for a flag: "Enabled"/"Disabled" for a mode, "Yes"/"No" for a state.
std::optional<std::string> flag(const std::optional<bool>& v, std::string_view on, std::string_view off) {
  if (!v) return std::nullopt;
  return std::string(*v ? on : off);
}

/// The memory-health fields of nvidia-smi --query-gpu (counts as numbers, flags in nvidia-smi's words).
std::vector<SmiField> health_fields() {
  const auto count = [](auto field) {
    return [field](const Inventory&, const Gpu& g) { return text_of(health(g, field)); };
  };
  const auto yes_no = [](auto field) {
    return [field](const Inventory&, const Gpu& g) { return flag(health(g, field), "Yes", "No"); };
  };
  using H = MemoryHealth;
  return {
      {"ecc.mode.current", {}, "",
       [](const Inventory&, const Gpu& g) { return flag(health(g, &H::ecc_enabled), "Enabled", "Disabled"); }},
      {"ecc.mode.pending", {}, "",
       [](const Inventory&, const Gpu& g) {
         const auto pending = health(g, &H::ecc_pending_enabled);  // written only when it differs
         return flag(pending ? pending : health(g, &H::ecc_enabled), "Enabled", "Disabled");
       }},
      {"ecc.errors.corrected.volatile.total", {}, "", count(&H::ecc_errors_corrected_volatile)},
      {"ecc.errors.uncorrected.volatile.total", {}, "", count(&H::ecc_errors_uncorrected_volatile)},
      {"ecc.errors.uncorrected.aggregate.total", {}, "", count(&H::ecc_errors_uncorrected_aggregate)},
      {"retired_pages.single_bit_ecc.count", {"retired_pages.sbe"}, "", count(&H::retired_pages_sbe)},
      {"retired_pages.double_bit.count", {"retired_pages.dbe"}, "", count(&H::retired_pages_dbe)},
      {"retired_pages.pending", {}, "", yes_no(&H::retired_pages_pending)},
      {"remapped_rows.correctable", {}, "", count(&H::remapped_rows_correctable)},
      {"remapped_rows.uncorrectable", {}, "", count(&H::remapped_rows_uncorrectable)},
      {"remapped_rows.pending", {}, "", yes_no(&H::remapped_rows_pending)},
      {"remapped_rows.failure", {}, "", yes_no(&H::remapped_rows_failed)},
  };
}

const std::vector<SmiField>& smi_fields() {
  static const std::vector<SmiField> fields = [] {
    std::vector<SmiField> out = {
        {"index", {}, "", [](const Inventory&, const Gpu& g) { return text_of(g.nvml_index); }},
        {"name", {"gpu_name"}, "", [](const Inventory&, const Gpu& g) { return std::optional(g.name); }},
        {"uuid", {"gpu_uuid"}, "", [](const Inventory&, const Gpu& g) { return g.uuid; }},
        {"pci.bus_id", {"gpu_bus_id"}, "",
         [](const Inventory&, const Gpu& g) { return g.pci_bus_id ? nvidia_smi_bus_id(*g.pci_bus_id) : std::nullopt; }},
        {"driver_version", {}, "", [](const Inventory& inv, const Gpu&) { return inv.nvidia.driver_version; }},
        {"memory.total", {}, "MiB", [](const Inventory&, const Gpu& g) { return mib(g.memory_total_bytes); }},
        {"memory.used", {}, "MiB", [](const Inventory&, const Gpu& g) { return mib(g.memory_used_bytes); }},
        {"memory.free", {}, "MiB", [](const Inventory&, const Gpu& g) { return mib(g.memory_free_bytes); }},
        {"compute_cap", {}, "", [](const Inventory&, const Gpu& g) { return g.compute_capability; }},
        {"temperature.gpu", {}, "", [](const Inventory&, const Gpu& g) { return text_of(g.temperature_c); }},
        {"power.draw", {}, "W", [](const Inventory&, const Gpu& g) { return watts(g.power_draw_mw); }},
        {"power.limit", {}, "W", [](const Inventory&, const Gpu& g) { return watts(g.power_limit_mw); }},
        {"utilization.gpu", {}, "%", [](const Inventory&, const Gpu& g) { return text_of(g.utilization_gpu_pct); }},
        {"pcie.link.gen.current", {"pcie.link.gen.gpucurrent"}, "",
         [](const Inventory&, const Gpu& g) { return text_of(g.pcie_gen); }},
        {"pcie.link.width.current", {}, "", [](const Inventory&, const Gpu& g) { return text_of(g.pcie_width); }},
        // What the card and this slot allow (nvmlDeviceGetMaxPcieLinkGeneration/Width), as nvidia-smi's ".max".
        {"pcie.link.gen.max", {}, "", [](const Inventory&, const Gpu& g) { return text_of(g.pcie_gen_max); }},
        {"pcie.link.width.max", {}, "", [](const Inventory&, const Gpu& g) { return text_of(g.pcie_width_max); }},
        {"utilization.memory", {}, "%", [](const Inventory&, const Gpu& g) { return text_of(g.utilization_memory_pct); }},
        {"clocks.current.sm", {"clocks.sm"}, "MHz", [](const Inventory&, const Gpu& g) { return text_of(g.clock_sm_mhz); }},
        {"clocks.max.sm", {}, "MHz", [](const Inventory&, const Gpu& g) { return text_of(g.max_clock_sm_mhz); }},
        // gpus[].clock_memory_mhz is NVML's maximum memory clock (nvmlDeviceGetMaxClockInfo).
        {"clocks.max.memory", {"clocks.max.mem"}, "MHz",
         [](const Inventory&, const Gpu& g) { return text_of(g.clock_memory_mhz); }},
        {"clocks.max.graphics", {"clocks.max.gr"}, "MHz",
         [](const Inventory&, const Gpu& g) { return text_of(g.max_clock_graphics_mhz); }},
        {"vbios_version", {}, "", [](const Inventory&, const Gpu& g) { return g.vbios_version; }},
        {"persistence_mode", {}, "",
         [](const Inventory&, const Gpu& g) { return flag(g.persistence_mode, "Enabled", "Disabled"); }},
        // A GPU without MIG answers NOT_SUPPORTED, which nvidia-smi prints as "[N/A]".
        {"mig.mode.current", {}, "",
         [](const Inventory&, const Gpu& g) { return flag(g.mig_mode, "Enabled", "Disabled"); }},
    };
    auto more = health_fields();
    out.insert(out.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    return out;
  }();
  return fields;
}

const SmiField* find_smi_field(std::string_view name) {
  for (const auto& f : smi_fields())
    if (f.name == name || std::find(f.aliases.begin(), f.aliases.end(), name) != f.aliases.end()) return &f;
  return nullptr;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

/// A JSON scalar as a CSV cell: strings as they are, numbers and booleans as JSON writes them, null as "[N/A]";
/// nullopt for an object or a list (no single value).
std::optional<std::string> cell(const Json& v) {
  if (v.is_null()) return std::string(kNotAvailable);
  if (v.is_string()) return v.get<std::string>();
  if (v.is_object() || v.is_array()) return std::nullopt;
  return v.dump();
}

std::string not_single(std::string_view field) {
  return trf("Field \"{}\" holds a list or an object, not one value: name a field inside it.", field);
}

/// The GPUs nvidia-smi lists: NVIDIA cards the driver's NVML sees, in PCI order (the inventory's order).
std::vector<const Gpu*> smi_gpus(const Inventory& inv) {
  std::vector<const Gpu*> out;
  for (const auto& g : inv.gpus)
    if (g.vendor == "nvidia" && g.nvml_index) out.push_back(&g);
  return out;
}

/// The keys of a gpus[] object as the inventory writes them (the same for every GPU).
const Json& gpu_keys() {
  static const Json keys = [] {
    Inventory one;
    one.gpus.emplace_back();
    return inventory_to_json(one)["gpus"][0];
  }();
  return keys;
}

std::string join_line(const std::vector<std::string>& cells) { return fmt::format("{}\n", fmt::join(cells, ", ")); }

}  // namespace

Result<QueryFormat> parse_query_format(std::string_view text) {
  QueryFormat format;
  bool csv = false;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view word = trim(text.substr(start, comma - start));
    if (word == "csv") csv = true;
    else if (word == "noheader") format.header = false;
    else if (word == "nounits") format.units = false;
    else return fail(trf("--format '{}': use csv, optionally with noheader and nounits (csv,noheader,nounits)", text));
    start = comma + 1;
  }
  if (!csv) return fail(trf("--format '{}': csv is the only format (csv,noheader,nounits)", text));
  return format;
}

Result<std::vector<std::string>> parse_field_list(std::string_view text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view name = trim(text.substr(start, comma - start));
    if (name.empty()) return fail(trf("'{}': an empty field name (fields are separated by single commas)", text));
    out.emplace_back(name);
    start = comma + 1;
  }
  return out;
}

Result<std::string> render_gpu_query(const Inventory& inv, const std::vector<std::string>& fields, QueryFormat format) {
  const Json doc = inventory_to_json(inv);
  std::vector<const SmiField*> smi;
  std::vector<std::string> header;
  for (const auto& name : fields) {
    const SmiField* f = find_smi_field(name);
    const bool own = !f && gpu_keys().contains(name);
    if (!f && !own) {
      std::vector<std::string> known;
      for (const auto& field : smi_fields()) known.emplace_back(field.name);
      return fail(trf("Field \"{}\" is not a valid field to query. The nvidia-smi fields gpuscout answers: {}; and "
                      "every key of a GPU in `gpuscout info --json`.",
                      text::visible(name), fmt::join(known, ", ")));
    }
    smi.push_back(f);
    const std::string main_name = f ? std::string(f->name) : name;
    header.push_back(f && !f->unit.empty() && format.units ? fmt::format("{} [{}]", main_name, f->unit) : main_name);
  }
  std::string out = format.header ? join_line(header) : std::string();
  for (const Gpu* g : smi_gpus(inv)) {
    const Json& gpu_doc = doc["gpus"][static_cast<size_t>(g - inv.gpus.data())];
    std::vector<std::string> cells;
    for (size_t i = 0; i < fields.size(); ++i) {
      if (!smi[i]) {
        auto c = cell(gpu_doc[fields[i]]);
        if (!c) return fail(not_single(fields[i]));
        cells.push_back(std::move(*c));
        continue;
      }
      const auto v = smi[i]->value(inv, *g);
      if (!v) cells.emplace_back(kNotAvailable);
      else cells.push_back(format.units && !smi[i]->unit.empty() ? fmt::format("{} {}", *v, smi[i]->unit) : *v);
    }
    out += join_line(cells);
  }
  return out;
}

Result<std::string> render_inventory_query(const Json& doc, const std::vector<std::string>& paths, QueryFormat format) {
  std::vector<std::string> cells;
  for (const auto& path : paths) {
    const Json* at = &doc;
    size_t start = 0;
    while (start <= path.size()) {
      const size_t dot = std::min(path.find('.', start), path.size());
      const std::string key = path.substr(start, dot - start);
      const bool index = !key.empty() && key.size() <= 6 && std::all_of(key.begin(), key.end(), ::isdigit);
      if (at->is_object() && at->contains(key)) at = &(*at)[key];
      else if (at->is_array() && index && std::stoul(key) < at->size()) at = &(*at)[std::stoul(key)];
      else return fail(trf("Field \"{}\" is not a valid field to query: see `gpuscout info --json` for the names.", path));
      start = dot + 1;
    }
    auto c = cell(*at);
    if (!c) return fail(not_single(path));
    cells.push_back(std::move(*c));
  }
  return (format.header ? join_line(paths) : std::string()) + join_line(cells);
}

}  // namespace gpuscout::report
