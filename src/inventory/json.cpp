#include "inventory/json.hpp"

#include <cmath>
#include <concepts>
#include <limits>
#include <type_traits>

#include <fmt/format.h>

#include "core/i18n.hpp"
#include "inventory/bus_id.hpp"
#include "core/json_position.hpp"
#include "core/text.hpp"
#include "core/user_file.hpp"
#include "core/version.hpp"

namespace gpuscout {
namespace {

using core::JsonPath;
using nlohmann::json;

/// The top level of an inventory, in the documented order: one list for the writer and the reader.
template <typename Inv, typename Visit>
void for_each_section(Inv& inv, Visit&& visit) {
  visit("schema", inv.schema);
  visit("gpuscout_version", inv.gpuscout_version);
  visit("collected_at", inv.collected_at);
  visit("hostname", inv.hostname);
  visit("cpu", inv.cpu);
  visit("memory", inv.memory);
  visit("disks", inv.disks);
  visit("disk_errors", inv.disk_errors);
  visit("os", inv.os);
  visit("platform", inv.platform);
  visit("gpus", inv.gpus);
  visit("pci_errors", inv.pci_errors);
  visit("nvidia", inv.nvidia);
  visit("cuda", inv.cuda);
  visit("toolkit", inv.toolkit);
  visit("rocm", inv.rocm);
  visit("environment", inv.environment);
  visit("python", inv.python);
  visit("torch", inv.torch);
  visit("probe_ms", inv.probe_ms);
  visit("probe_timings_ms", inv.probe_timings_ms);
}

// --- What a field of a file from outside may hold -------------------------------------------------------------

/// String fields that later code parses: checked here, once, so no consumer meets an unparsable one.
enum class Shape { text, version, compute_capability, cpu_list };
constexpr std::pair<std::string_view, Shape> kShapes[] = {
    {"driver_version", Shape::version},      {"cuda_driver_version", Shape::version},
    {"kernel_module_version", Shape::version}, {"nvml_version", Shape::version},
    {"nvcc_version", Shape::version},        {"cudnn_version", Shape::version},
    {"cuda", Shape::version},                {"hip", Shape::version},
    {"torch_cuda", Shape::version},
    {"compute_capability", Shape::compute_capability}, {"capability", Shape::compute_capability},
    {"cpus", Shape::cpu_list},               {"allowed_cpus", Shape::cpu_list},
};

/// Integer fields that may be negative; every other count, index, clock or size is >= 0.
constexpr std::string_view kSignedKeys[] = {"code", "temperature_c"};
/// Memory of one GPU: 1 PiB (the largest GPUs hold 288 GB) keeps sums over many GPUs and the estimator's
/// signed headroom far from overflow.
constexpr std::string_view kGpuMemoryKeys[] = {"memory_total_bytes", "memory_used_bytes",  "memory_free_bytes",
                                               "memory_reserved_bytes", "total_memory_bytes", "l2_bytes",
                                               "used_bytes"};
constexpr uint64_t kMaxGpuBytes = 1ULL << 50;
constexpr uint64_t kMaxBytes = 1ULL << 62;  // every other uint64 field is bytes: 4 EiB is past any filesystem
constexpr double kMaxReal = 1e15;           // MHz, CPUs of quota, milliseconds

template <typename Table, typename Key>
bool listed(const Table& table, Key key) {
  for (const auto& entry : table)
    if (entry == key) return true;
  return false;
}

Shape shape_of(std::string_view key) {
  for (const auto& [name, shape] : kShapes)
    if (name == key) return shape;
  return Shape::text;
}

/// A field that does not hold what schema gpuscout.inventory/1 says; thrown while reading and caught once, in
/// read_checked, which adds the source and the line.
struct FieldError {
  JsonPath path;
  std::string message;
};

[[noreturn]] void reject(const JsonPath& path, std::string message) { throw FieldError{path, std::move(message)}; }

/// The value as the message shows it: short, and valid UTF-8 whatever the file held.
std::string shown(const json& j) {
  std::string s = j.is_string() ? j.get_ref<const std::string&>() : j.dump(-1, ' ', false, json::error_handler_t::replace);
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  s = text::clean_utf8(s);
  return j.is_string() ? "'" + s + "'" : s;
}

std::string kind(const json& j) {
  if (j.is_string()) return tr("text");
  if (j.is_number()) return tr("a number");
  if (j.is_boolean()) return tr("true/false");
  if (j.is_object()) return tr("an object");
  if (j.is_array()) return tr("a list");
  return "null";
}

[[noreturn]] void wrong_type(const json& j, const JsonPath& path, std::string_view expected) {
  reject(path, trf("{} is {}, expected {}", shown(j), kind(j), tr(expected)));
}

// --- Reading one value, by the C++ type the Inventory gives it -----------------------------------------------

void read_value(const json& j, const JsonPath& path, std::string_view key, std::string& out) {
  if (!j.is_string()) wrong_type(j, path, N_("text"));
  out = text::clean_utf8(j.get_ref<const std::string&>());  // "\u0000" and ESC arrive decoded
  const Shape shape = shape_of(key);
  if (shape == Shape::version && !Version::parse(out))
    reject(path, trf("{} is not a version like 12.8", shown(j)));
  if (shape == Shape::compute_capability && !is_compute_capability(out))
    reject(path, trf("{} is not a compute capability like 8.9", shown(j)));
  if (shape == Shape::cpu_list && !text::parse_cpu_list(out))
    reject(path, trf("{} is not a CPU list like 0-7,16-23", shown(j)));
}

void read_value(const json& j, const JsonPath& path, std::string_view, bool& out) {
  if (!j.is_boolean()) wrong_type(j, path, N_("true or false"));
  out = j.get<bool>();
}

void read_value(const json& j, const JsonPath& path, std::string_view, double& out) {
  if (!j.is_number()) wrong_type(j, path, N_("a number"));
  const double d = j.get<double>();
  if (!std::isfinite(d) || d < 0 || d > kMaxReal)
    reject(path, trf("{} is out of range (0 to {:g})", shown(j), kMaxReal));
  out = d;
}

template <typename T>
  requires(std::integral<T> && !std::same_as<T, bool>)
void read_value(const json& j, const JsonPath& path, std::string_view key, T& out) {
  if (!j.is_number()) wrong_type(j, path, N_("a whole number"));
  const bool may_be_negative = std::is_signed_v<T> && listed(kSignedKeys, key);
  long long lo = may_be_negative ? static_cast<long long>(std::numeric_limits<T>::min()) : 0;
  unsigned long long hi = static_cast<unsigned long long>(std::numeric_limits<T>::max());
  if constexpr (std::same_as<T, uint64_t>) hi = listed(kGpuMemoryKeys, key) ? kMaxGpuBytes : kMaxBytes;
  const auto out_of_range = [&] { reject(path, trf("{} is out of range ({} to {})", shown(j), lo, hi)); };
  if (j.is_number_float()) {
    // "8e9" is a whole number written as a float; "1.5" bytes is not.
    const double d = j.get<double>();
    if (!std::isfinite(d) || d != std::floor(d)) reject(path, trf("{} is not a whole number", shown(j)));
    if (d < static_cast<double>(lo) || d > static_cast<double>(hi)) out_of_range();
    out = static_cast<T>(d);
  } else if (j.is_number_unsigned()) {
    const auto u = j.get<unsigned long long>();
    if (u > hi) out_of_range();
    out = static_cast<T>(u);
  } else {
    const auto i = j.get<long long>();
    if (i < 0 && !may_be_negative) reject(path, trf("{} is negative", shown(j)));
    if (i < lo || (i > 0 && static_cast<unsigned long long>(i) > hi)) out_of_range();
    out = static_cast<T>(i);
  }
}

/// The recorded environment: an object of strings, bounded as the probe bounds it (names, count, value size).
void read_value(const json& j, const JsonPath& path, std::string_view, Environment& out) {
  if (!j.is_object()) wrong_type(j, path, N_("an object"));
  out.clear();
  for (const auto& [name, value] : j.items()) {
    JsonPath element = path;
    element.emplace_back(name);
    if (!value.is_string()) wrong_type(value, element, N_("text"));
    if (name.empty() || name.size() > kMaxEnvironmentNameBytes) reject(element, tr("is not a variable name"));
    if (out.size() == kMaxEnvironmentVariables)
      reject(path, trf("holds more than {} variables", kMaxEnvironmentVariables));
    const std::string clean = text::clean_utf8(value.get_ref<const std::string&>());
    out[text::clean_utf8(name)] = std::string(text::cut_utf8(clean, kMaxEnvironmentValueBytes));
  }
}

template <typename T>
void read_value(const json& j, const JsonPath& path, std::string_view key, std::optional<T>& out);
template <typename T>
void read_value(const json& j, const JsonPath& path, std::string_view key, std::vector<T>& out);
template <typename T>
  requires(std::is_class_v<T>)
void read_value(const json& j, const JsonPath& path, std::string_view key, T& out);

/// One object of the document: reads the fields a section lists (read_fields, from GPUSCOUT_INVENTORY_JSON).
/// An absent or null field keeps its default, so older and newer files load; unknown keys are ignored.
class Fields {
 public:
  Fields(const json& object, const JsonPath& path) : object_(object), path_(path) {}

  template <typename T>
  void read(const char* key, T& out) {
    const auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) return;
    JsonPath path = path_;
    path.emplace_back(std::string(key));
    read_value(*it, path, key, out);
  }

 private:
  const json& object_;
  const JsonPath& path_;
};

template <typename T>
void read_value(const json& j, const JsonPath& path, std::string_view key, std::optional<T>& out) {
  T value{};
  read_value(j, path, key, value);
  out = std::move(value);
}

template <typename T>
void read_value(const json& j, const JsonPath& path, std::string_view key, std::vector<T>& out) {
  if (!j.is_array()) wrong_type(j, path, N_("a list"));
  out.clear();
  for (size_t i = 0; i < j.size(); ++i) {
    JsonPath element = path;
    element.emplace_back(i);
    T value{};
    read_value(j[i], element, key, value);
    out.push_back(std::move(value));
  }
}

template <typename T>
  requires(std::is_class_v<T>)
void read_value(const json& j, const JsonPath& path, std::string_view, T& out) {
  if (!j.is_object()) wrong_type(j, path, N_("an object"));
  Fields fields(j, path);
  read_fields(fields, out);
}

std::optional<std::string> schema_problem(const json& doc, std::string_view source) {
  if (!doc.is_object()) return trf("{}: not a gpuscout inventory (expected a JSON object)", source);
  const auto schema = doc.find("schema");
  if (schema == doc.end() || !schema->is_string())
    return trf("{}: no \"schema\" field: not a saved `gpuscout info --json` (schema {})", source, kInventorySchema);
  const std::string s = text::clean_utf8(schema->get_ref<const std::string&>());
  if (s == kInventorySchema) return std::nullopt;
  if (s.starts_with("gpuscout.inventory/"))
    return trf("{}: inventory schema {} is not supported by this gpuscout (it reads {})", source, s, kInventorySchema);
  return trf("{}: schema is \"{}\", expected \"{}\" (save one with `gpuscout info --json > FILE`)", source, s,
             kInventorySchema);
}

/// The one place a wrong field becomes an error: `text`, where there is one, gives the line and column.
Result<Inventory> read_checked(const json& doc, std::string_view source, std::string_view text) {
  if (auto problem = schema_problem(doc, source)) return fail(*problem);
  Inventory inv;
  try {
    const JsonPath root;
    Fields fields(doc, root);
    for_each_section(inv, [&](const char* key, auto& value) { fields.read(key, value); });
  } catch (const FieldError& e) {
    std::string where(source);
    if (const auto at = text.empty() ? std::nullopt : core::locate_json_value(text, e.path))
      where += trf(": line {} column {}", at->line, at->column);
    return fail(trf("{}: field {}: {}", where, core::to_string(e.path), e.message));
  }
  return inv;
}

}  // namespace

namespace {

/// A GPU as written: its fields, with nvidia-smi's form of the bus id right after ours. Derived from pci_bus_id when
/// written and never read back, so the two cannot disagree.
Json gpu_to_json(const Gpu& gpu) {
  const Json fields = nlohmann::json(gpu);
  Json out = Json::object();
  for (const auto& [key, value] : fields.items()) {
    out[key] = value;
    if (key == "pci_bus_id") {
      const auto smi = gpu.pci_bus_id ? nvidia_smi_bus_id(*gpu.pci_bus_id) : std::nullopt;
      out["pci_bus_id_nvidia_smi"] = smi ? Json(*smi) : Json(nullptr);
    }
  }
  return out;
}

}  // namespace

Json inventory_to_json(const Inventory& inv) {
  Json j;
  for_each_section(inv, [&](const char* key, const auto& value) { j[key] = nlohmann::json(value); });
  Json gpus = Json::array();
  for (const auto& gpu : inv.gpus) gpus.push_back(gpu_to_json(gpu));
  j["gpus"] = std::move(gpus);
  return j;
}

std::string json_text(const Json& json, int indent) {
  return json.dump(indent, ' ', false, Json::error_handler_t::replace);
}

Result<Inventory> inventory_from_json(const nlohmann::json& doc, std::string_view source) {
  return read_checked(doc, source, {});
}

Result<Inventory> load_inventory_file(const std::string& path) {
  auto read = core::read_user_file(path);
  if (!read) return fail(read.error().message);
  // Another tool may have written Latin-1 or control bytes: clean first, so they are text, not a parse error.
  const std::string text = text::clean_utf8(*read);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    return fail(trf("{}: the file is empty (expected the output of `gpuscout info --json`)", path));
  auto doc = core::parse_json(text);
  if (!doc) return fail(fmt::format("{}: {}", path, doc.error().message));
  return read_checked(*doc, path, text);
}

}  // namespace gpuscout
