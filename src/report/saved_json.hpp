#pragma once
/// Reading saved documents (bench files from disk, another machine's runs): every access checks the type, so an
/// odd or damaged file gives a gap (nullopt, "", an empty array), never an exception or a crash.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpuscout::report::saved {

/// A finite number under key.
std::optional<double> num(const nlohmann::json& j, std::string_view key);
std::string str(const nlohmann::json& j, std::string_view key);
bool flag(const nlohmann::json& j, std::string_view key);
/// The value under key, or null.
const nlohmann::json& child(const nlohmann::json& j, std::string_view key);
/// The array under key, or an empty one.
const nlohmann::json& array(const nlohmann::json& j, std::string_view key);
/// The object under key, or null.
const nlohmann::json& object(const nlohmann::json& j, std::string_view key);
/// The strings of the array under key (other elements skipped).
std::vector<std::string> strings(const nlohmann::json& j, std::string_view key);

}  // namespace gpuscout::report::saved
