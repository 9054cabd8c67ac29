// The Windows facts as JSON (a recorded machine's windows.json) and which facts a run uses. The file is outside
// input: every field is checked, and an error names the field and where it is in the text.
#include "probe/windows_facts.hpp"

#include <concepts>
#include <limits>

#include <fmt/format.h>

#include "core/json.hpp"
#include "core/json_position.hpp"
#include "core/text.hpp"
#include "os/system.hpp"

namespace gpuscout::probe::windows {
namespace {

using nlohmann::json;

constexpr size_t kMaxString = 4096;
constexpr size_t kMaxItems = 8192;  // processor records of the largest machines (4 groups of 64, caches per core)

struct Bad {
  core::JsonPath path;
  std::string message;
};

/// A value at a path in the document; every accessor checks the type and range, throwing Bad otherwise.
class Node {
 public:
  Node(const json& j, core::JsonPath path) : j_(j), path_(std::move(path)) {}

  bool has(const char* key) const { return j_.is_object() && j_.contains(key) && !j_.at(key).is_null(); }
  Node at(const char* key) const {
    if (!j_.is_object()) bad("expected an object");
    auto path = path_;
    path.emplace_back(std::string(key));
    if (!j_.contains(key)) throw Bad{path, "missing"};
    return Node(j_.at(key), std::move(path));
  }
  std::vector<Node> items(size_t max_items = kMaxItems) const {
    if (!j_.is_array()) bad("expected an array");
    if (j_.size() > max_items) bad(fmt::format("more than {} entries", max_items));
    std::vector<Node> out;
    for (size_t i = 0; i < j_.size(); ++i) {
      auto path = path_;
      path.emplace_back(i);
      out.emplace_back(j_.at(i), std::move(path));
    }
    return out;
  }
  template <std::unsigned_integral T>
  T uint() const {
    constexpr uint64_t max = std::numeric_limits<T>::max();
    if (!j_.is_number_unsigned() || j_.get<uint64_t>() > max) bad(fmt::format("expected a whole number from 0 to {}", max));
    return static_cast<T>(j_.get<uint64_t>());
  }
  int32_t int32() const {
    constexpr int64_t lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max();
    if (j_.is_number_unsigned() ? j_.get<uint64_t>() > uint64_t(hi) : !j_.is_number_integer() || j_.get<int64_t>() < lo ||
                                                                          j_.get<int64_t>() > hi)
      bad(fmt::format("expected a whole number from {} to {}", lo, hi));
    return static_cast<int32_t>(j_.get<int64_t>());
  }
  std::string string() const {
    if (!j_.is_string()) bad("expected a string");
    const auto& s = j_.get_ref<const std::string&>();
    if (s.size() > kMaxString) bad(fmt::format("longer than {} bytes", kMaxString));
    return text::clean_utf8(s);  // the parser has checked UTF-8; this drops control characters
  }
  bool boolean() const {
    if (!j_.is_boolean()) bad("expected true or false");
    return j_.get<bool>();
  }
  [[noreturn]] void bad(std::string message) const { throw Bad{path_, std::move(message)}; }

 private:
  const json& j_;
  core::JsonPath path_;
};

template <typename T, typename F>
std::optional<T> optional(const Node& parent, const char* key, F read) {
  if (!parent.has(key)) return std::nullopt;
  return read(parent.at(key));
}
std::optional<std::string> opt_string(const Node& n, const char* key) {
  return optional<std::string>(n, key, [](const Node& v) { return v.string(); });
}
template <std::unsigned_integral T>
std::optional<T> opt_uint(const Node& n, const char* key) {
  return optional<T>(n, key, [](const Node& v) { return v.uint<T>(); });
}

std::vector<GroupMask> read_masks(const Node& n) {
  std::vector<GroupMask> out;
  for (const auto& m : n.at("masks").items(64)) out.push_back({m.at("group").uint<uint16_t>(), m.at("mask").uint<uint64_t>()});
  return out;
}

Processors read_processors(const Node& n) {
  Processors p;
  for (const auto& c : n.at("cores").items())
    p.cores.push_back({c.at("flags").uint<uint8_t>(), c.at("efficiency_class").uint<uint8_t>(), read_masks(c)});
  for (const auto& pkg : n.at("packages").items()) p.packages.push_back(read_masks(pkg));
  for (const auto& c : n.at("caches").items())
    p.caches.push_back({c.at("level").uint<uint8_t>(), c.at("associativity").uint<uint8_t>(),
                        c.at("line_size").uint<uint16_t>(), c.at("size").uint<uint32_t>(), c.at("type").uint<uint32_t>(),
                        read_masks(c)});
  for (const auto& g : n.at("groups").items(64))
    p.groups.push_back({g.at("maximum_processors").uint<uint8_t>(), g.at("active_processors").uint<uint8_t>(),
                        g.at("active_mask").uint<uint64_t>()});
  return p;
}

Cpuid read_cpuid(const Node& n) {
  Cpuid c;
  c.vendor = opt_string(n, "vendor");
  c.brand = opt_string(n, "brand");
  for (const auto& f : n.at("features").items(64)) c.features.push_back(f.string());
  c.hypervisor_present = n.at("hypervisor_present").boolean();
  c.hypervisor_vendor = opt_string(n, "hypervisor_vendor");
  c.hyperv_privileges_ebx = opt_uint<uint32_t>(n, "hyperv_privileges_ebx");
  return c;
}

MemoryStatus read_memory(const Node& n) {
  return {n.at("memory_load").uint<uint32_t>(),     n.at("total_phys").uint<uint64_t>(),
          n.at("avail_phys").uint<uint64_t>(),      n.at("total_page_file").uint<uint64_t>(),
          n.at("avail_page_file").uint<uint64_t>(), n.at("total_virtual").uint<uint64_t>(),
          n.at("avail_virtual").uint<uint64_t>()};
}

Drive read_drive(const Node& n) {
  return {n.at("root").string(),         n.at("type").uint<uint32_t>(),           opt_string(n, "file_system"),
          opt_string(n, "label"),        opt_uint<uint64_t>(n, "total_bytes"),   opt_uint<uint64_t>(n, "free_bytes"),
          opt_uint<uint64_t>(n, "available_bytes")};
}

Adapter read_adapter(const Node& n) {
  Adapter a;
  a.description = n.at("description").string();
  a.vendor_id = n.at("vendor_id").uint<uint32_t>();
  a.device_id = n.at("device_id").uint<uint32_t>();
  a.subsys_id = n.at("subsys_id").uint<uint32_t>();
  a.revision = n.at("revision").uint<uint32_t>();
  a.dedicated_video_memory = n.at("dedicated_video_memory").uint<uint64_t>();
  a.dedicated_system_memory = n.at("dedicated_system_memory").uint<uint64_t>();
  a.shared_system_memory = n.at("shared_system_memory").uint<uint64_t>();
  a.luid_high = n.at("luid_high").int32();
  a.luid_low = n.at("luid_low").uint<uint32_t>();
  a.flags = n.at("flags").uint<uint32_t>();
  a.pci_bus = opt_uint<uint32_t>(n, "pci_bus");
  a.pci_device = opt_uint<uint32_t>(n, "pci_device");
  a.pci_function = opt_uint<uint32_t>(n, "pci_function");
  a.driver_version = opt_string(n, "driver_version");
  return a;
}

Registry read_registry(const Node& n) {
  return {opt_uint<uint32_t>(n, "UBR"),        opt_string(n, "DisplayVersion"),
          opt_string(n, "ReleaseId"),          opt_string(n, "EditionID"),
          opt_string(n, "ProductName"),        opt_uint<uint32_t>(n, "LongPathsEnabled"),
          opt_uint<uint32_t>(n, "~MHz")};
}

Facts read_facts(const Node& root) {
  Facts f;
  const Node v = root.at("version");
  f.version = {v.at("major").uint<uint32_t>(), v.at("minor").uint<uint32_t>(), v.at("build").uint<uint32_t>()};
  f.registry = read_registry(root.at("registry"));
  f.processor_architecture = opt_string(root, "processor_architecture");
  f.processors = read_processors(root.at("processors"));
  f.cpuid = read_cpuid(root.at("cpuid"));
  if (root.has("memory")) f.memory = read_memory(root.at("memory"));
  for (const auto& d : root.at("drives").items(64)) f.drives.push_back(read_drive(d));
  f.battery_flag = opt_uint<uint8_t>(root, "battery_flag");
  const Node s = root.at("smbios");
  f.smbios = {opt_string(s, "manufacturer"), opt_string(s, "product"),
              optional<int>(s, "chassis_type", [](const Node& c) { return int(c.uint<uint8_t>()); })};
  for (const auto& a : root.at("adapters").items(64)) f.adapters.push_back(read_adapter(a));
  if (root.has("errors"))
    for (const auto& e : root.at("errors").items(256))
      f.errors.push_back({e.at("source").string(), e.at("what").string(), e.at("message").string(),
                          optional<int>(e, "code", [](const Node& c) { return c.int32(); })});
  return f;
}

json masks_json(const std::vector<GroupMask>& masks) {
  json out = json::array();
  for (const auto& m : masks) out.push_back({{"group", m.group}, {"mask", m.mask}});
  return out;
}

template <typename T>
void put(json& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = *v;
}

json processors_json(const Processors& p) {
  json j{{"cores", json::array()}, {"packages", json::array()}, {"caches", json::array()}, {"groups", json::array()}};
  for (const auto& c : p.cores)
    j["cores"].push_back({{"flags", c.flags}, {"efficiency_class", c.efficiency_class}, {"masks", masks_json(c.masks)}});
  for (const auto& pkg : p.packages) j["packages"].push_back({{"masks", masks_json(pkg)}});
  for (const auto& c : p.caches)
    j["caches"].push_back({{"level", c.level}, {"type", c.type}, {"size", c.size}, {"line_size", c.line_size},
                           {"associativity", c.associativity}, {"masks", masks_json(c.masks)}});
  for (const auto& g : p.groups)
    j["groups"].push_back({{"maximum_processors", g.maximum_processors}, {"active_processors", g.active_processors},
                           {"active_mask", g.active_mask}});
  return j;
}

json adapter_json(const Adapter& a) {
  json j{{"description", a.description},
         {"vendor_id", a.vendor_id},
         {"device_id", a.device_id},
         {"subsys_id", a.subsys_id},
         {"revision", a.revision},
         {"dedicated_video_memory", a.dedicated_video_memory},
         {"dedicated_system_memory", a.dedicated_system_memory},
         {"shared_system_memory", a.shared_system_memory},
         {"luid_high", a.luid_high},
         {"luid_low", a.luid_low},
         {"flags", a.flags}};
  put(j, "pci_bus", a.pci_bus);
  put(j, "pci_device", a.pci_device);
  put(j, "pci_function", a.pci_function);
  put(j, "driver_version", a.driver_version);
  return j;
}

json system_json(const Facts& f) {
  json j;
  j["version"] = {{"major", f.version.major}, {"minor", f.version.minor}, {"build", f.version.build}};
  json& r = j["registry"] = json::object();
  put(r, "UBR", f.registry.ubr);
  put(r, "DisplayVersion", f.registry.display_version);
  put(r, "ReleaseId", f.registry.release_id);
  put(r, "EditionID", f.registry.edition_id);
  put(r, "ProductName", f.registry.product_name);
  put(r, "LongPathsEnabled", f.registry.long_paths_enabled);
  put(r, "~MHz", f.registry.processor_mhz);
  put(j, "processor_architecture", f.processor_architecture);
  put(j, "battery_flag", f.battery_flag);
  json& s = j["smbios"] = json::object();
  put(s, "manufacturer", f.smbios.manufacturer);
  put(s, "product", f.smbios.product);
  put(s, "chassis_type", f.smbios.chassis_type);
  return j;
}

}  // namespace

Result<Facts> read_recorded_facts(std::string_view json_text) {
  auto doc = core::parse_json(json_text);
  if (!doc) return fail(doc.error().message);
  try {
    return read_facts(Node(*doc, {}));
  } catch (const Bad& bad) {
    std::string where;
    if (const auto pos = core::locate_json_value(json_text, bad.path))
      where = fmt::format("line {} column {}: ", pos->line, pos->column);
    return fail(fmt::format("{}{}: {}", where, core::to_string(bad.path), bad.message));
  }
}

json to_json(const Facts& f) {
  json j = system_json(f);
  j["schema"] = "gpuscout.windows-facts/1";
  j["processors"] = processors_json(f.processors);
  json& c = j["cpuid"] = {{"features", f.cpuid.features}, {"hypervisor_present", f.cpuid.hypervisor_present}};
  put(c, "vendor", f.cpuid.vendor);
  put(c, "brand", f.cpuid.brand);
  put(c, "hypervisor_vendor", f.cpuid.hypervisor_vendor);
  put(c, "hyperv_privileges_ebx", f.cpuid.hyperv_privileges_ebx);
  if (const auto& m = f.memory)
    j["memory"] = {{"memory_load", m->memory_load},         {"total_phys", m->total_phys},
                   {"avail_phys", m->avail_phys},           {"total_page_file", m->total_page_file},
                   {"avail_page_file", m->avail_page_file}, {"total_virtual", m->total_virtual},
                   {"avail_virtual", m->avail_virtual}};
  j["drives"] = json::array();
  for (const auto& d : f.drives) {
    json dj{{"root", d.root}, {"type", d.type}};
    put(dj, "file_system", d.file_system);
    put(dj, "label", d.label);
    put(dj, "total_bytes", d.total_bytes);
    put(dj, "free_bytes", d.free_bytes);
    put(dj, "available_bytes", d.available_bytes);
    j["drives"].push_back(std::move(dj));
  }
  j["adapters"] = json::array();
  for (const auto& a : f.adapters) j["adapters"].push_back(adapter_json(a));
  j["errors"] = json::array();
  for (const auto& e : f.errors) {
    json ej{{"source", e.source}, {"what", e.what}, {"message", e.message}};
    put(ej, "code", e.code);
    j["errors"].push_back(std::move(ej));
  }
  return j;
}

std::optional<Facts> facts_for_this_run(std::vector<ProbeError>& errors) {
  if (!os::sysroot().empty()) {
    if (!os::exists("/windows.json")) return std::nullopt;
    auto text = os::read_file("/windows.json", 4u << 20);
    if (!text) {
      errors.push_back({"os", "windows.json", text.error().message, std::nullopt});
      return Facts{};
    }
    auto facts = read_recorded_facts(*text);
    if (!facts) {
      errors.push_back({"os", "windows.json", "windows.json: " + facts.error().message, std::nullopt});
      return Facts{};
    }
    return std::move(*facts);
  }
#ifdef _WIN32
  return live_facts();
#else
  return std::nullopt;
#endif
}

}  // namespace gpuscout::probe::windows
