#include "cli/options.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/i18n.hpp"
#include "core/text.hpp"
#include "core/units.hpp"
#include "os/process.hpp"

namespace gpuscout::cli {
namespace {

// CLI11 runs an option's checks in the order they were added, and refuse_empty_values() adds its check last: the
// number checks say it first so that every empty value reads the same.
constexpr const char* kEmpty = N_("empty value");

}  // namespace

CLI::Validator whole_number(uint64_t min, uint64_t max) {
  const std::string range = trf("a whole number from {} to {}", min, max);
  return CLI::Validator(
      [=](std::string& value) -> std::string {
        if (value.empty()) return tr(kEmpty);
        const bool digits = !value.empty() && std::all_of(value.begin(), value.end(), [](char c) {
          return c >= '0' && c <= '9';
        });
        const auto n = digits ? text::parse_uint(value) : std::nullopt;
        if (!n || *n < min || *n > max) return trf("'{}' is not {}", value, range);
        value = std::to_string(*n);  // CLI11 would read a leading zero as octal ("010" as 8)
        return {};
      },
      fmt::format("{}..{}", min, max), "whole_number");
}

CLI::Validator finite_number(double min, double max, bool min_excluded) {
  const std::string range = min_excluded ? trf("a number above {} and at most {}", min, max)
                                          : trf("a number from {} to {}", min, max);
  return CLI::Validator(
      [=](std::string& value) -> std::string {
        if (value.empty()) return tr(kEmpty);
        const auto v = text::parse_double(value);
        if (!v || !std::isfinite(*v) || *v < min || (min_excluded && *v == min) || *v > max)
          return trf("'{}' is not {}", value, range);
        return {};
      },
      fmt::format("{}{}..{}", min_excluded ? ">" : "", min, max), "finite_number");
}

void refuse_empty_values(CLI::App& app) {
  static const CLI::Validator not_empty(
      [](std::string& value) { return value.empty() ? std::string(tr(kEmpty)) : std::string(); }, "",
      "not_empty");
  for (CLI::Option* option : app.get_options())
    if (option->get_expected_max() > 0) option->check(not_empty);
  for (CLI::App* sub : app.get_subcommands({})) refuse_empty_values(*sub);
}

MemorySize parse_memory_size(std::string_view text, std::string_view option) {
  const std::string_view typed = text::trim(text);
  const size_t unit_at = std::min(typed.size(), typed.find_first_not_of("0123456789.+-eE "));
  const std::string_view number = text::trim(typed.substr(0, unit_at));
  const std::string unit = text::to_lower(text::trim(typed.substr(unit_at)));
  if (unit.empty() && !number.empty())
    throw UsageError(trf("{} '{}' has no unit: write {}G for {} GiB (2^30 bytes each) or {}GB for {} x 10^9 "
                                 "bytes",
                                 option, typed, number, number, number, number));
  auto bytes = units::parse_bytes(typed);
  if (!bytes) throw UsageError(fmt::format("{} {}", option, bytes.error().message));
  // "GB" and "MB" are powers of 1000, as vendors write them; G, GiB and the other binary forms are powers of 1024.
  const bool decimal = unit.size() == 2 && unit.back() == 'b';
  const char prefix = static_cast<char>(std::toupper(static_cast<unsigned char>(unit.front())));
  const std::string unit_shown = unit == "b" ? std::string(tr("bytes")) : decimal ? fmt::format("{}B", prefix) : fmt::format("{}iB", prefix);
  MemorySize m{*bytes, fmt::format("{} {}", number, unit_shown)};
  if (decimal) m.reading += " = " + units::format_bytes(*bytes);
  return m;
}

CLI::Option* add_python_option(CLI::App& sub, std::string& python, CLI::Option* no_python) {
  static const CLI::Validator executable(
      [](std::string& value) -> std::string {
        if (value.empty()) return tr(kEmpty);
        const auto found = os::find_program(value);  // a path is checked, a name looked up on PATH
        if (!found) return trf("'{}' is not an executable file", value);
        value = *found;
        return {};
      },
      "", "executable_file");
  auto* option = sub.add_option("--python", python,
                                tr("The Python interpreter to ask about PyTorch (default: GPUSCOUT_PYTHON, the active "
                                "venv or conda environment, ./.venv, then python3 on PATH)"))
                     ->type_name("PATH")
                     ->transform(executable);
  if (no_python) option->excludes(no_python);
  return option;
}

}  // namespace gpuscout::cli
