#include "report/saved_json.hpp"

#include <cmath>

namespace gpuscout::report::saved {

using nlohmann::json;

const json& child(const json& j, std::string_view key) {
  static const json null_value;
  if (!j.is_object()) return null_value;
  const auto it = j.find(key);
  return it == j.end() ? null_value : *it;
}

std::optional<double> num(const json& j, std::string_view key) {
  const json& v = child(j, key);
  if (!v.is_number()) return std::nullopt;
  const double d = v.get<double>();
  return std::isfinite(d) ? std::optional<double>(d) : std::nullopt;
}

std::string str(const json& j, std::string_view key) {
  const json& v = child(j, key);
  return v.is_string() ? v.get<std::string>() : std::string();
}

bool flag(const json& j, std::string_view key) {
  const json& v = child(j, key);
  return v.is_boolean() && v.get<bool>();
}

const json& array(const json& j, std::string_view key) {
  static const json empty = json::array();
  const json& v = child(j, key);
  return v.is_array() ? v : empty;
}

const json& object(const json& j, std::string_view key) {
  static const json null_value;
  const json& v = child(j, key);
  return v.is_object() ? v : null_value;
}

std::vector<std::string> strings(const json& j, std::string_view key) {
  std::vector<std::string> out;
  for (const auto& v : array(j, key))
    if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

}  // namespace gpuscout::report::saved
