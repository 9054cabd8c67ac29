#include "inventory/json.hpp"

#include <fmt/format.h>

#include "core/user_file.hpp"

namespace gpuscout {

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
  auto read = core::read_user_file(path);
  if (!read) return fail(read.error().message);
  const std::string text = std::move(*read);
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
