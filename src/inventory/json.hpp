#pragma once
/// The JSON form of an Inventory ("schema": "gpuscout.inventory/1", documented in docs/json.md).
/// Absent facts are null; unknown keys are ignored on input, so newer files load in older tools
/// as long as the schema's major number matches.
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "inventory/inventory.hpp"

namespace nlohmann {
template <typename T>
struct adl_serializer<std::optional<T>> {
  static void to_json(json& j, const std::optional<T>& value) {
    if (value) j = *value;
    else j = nullptr;
  }
  static void from_json(const json& j, std::optional<T>& value) {
    if (j.is_null()) value.reset();
    else value = j.get<T>();
  }
};
}  // namespace nlohmann

namespace gpuscout {

using Json = nlohmann::ordered_json;

void to_json(nlohmann::json& j, const ProbeError& v);
void from_json(const nlohmann::json& j, ProbeError& v);

/// The whole inventory as JSON, keys in a stable, documented order.
Json inventory_to_json(const Inventory& inventory);
/// Reads an inventory back; the error says what is wrong with the document (`source` names it).
Result<Inventory> inventory_from_json(const nlohmann::json& document, std::string_view source);
/// Reads `info --json` / `doctor --json` output from a file: a clear error for a missing, empty,
/// truncated or wrong-schema file.
Result<Inventory> load_inventory_file(const std::string& path);

}  // namespace gpuscout
