#pragma once
/// nlohmann-json as gpuscout uses it: the library, and std::optional<T> written and read as its value or null.
/// Include this header, not <nlohmann/json.hpp>: a class template's partial specialization must be seen before the
/// first use that would instantiate the primary template, in every translation unit, so the conversion travels with
/// the library's own include.
#include <optional>
#include <type_traits>

#include <nlohmann/json.hpp>

namespace nlohmann {
// Not for an optional document (std::optional<json>): that stays an ordinary value, built from a json by
// std::optional's own constructor, which a conversion through this serializer would otherwise compete with.
template <typename T>
  requires(!std::is_same_v<T, json> && !std::is_same_v<T, ordered_json>)
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
