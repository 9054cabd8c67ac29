#include "core/units.hpp"

#include <cmath>
#include <fmt/format.h>

#include "core/text.hpp"

namespace gpuscout::units {
namespace {

struct Split {
  double number;
  std::string suffix;
};

Result<Split> split_number(std::string_view original, std::string_view what) {
  const auto s = text::trim(original);
  size_t i = 0;
  while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.' || s[i] == '-' || s[i] == '+' ||
                          s[i] == 'e' || s[i] == 'E')) {
    // Only treat 'e' as an exponent when a digit follows: "7E" is not a count we know.
    if ((s[i] == 'e' || s[i] == 'E') && !(i + 1 < s.size() && (std::isdigit(static_cast<unsigned char>(s[i + 1])) ||
                                                               s[i + 1] == '-' || s[i + 1] == '+')))
      break;
    ++i;
  }
  const auto number = text::parse_double(s.substr(0, i));
  if (!number)
    return fail(fmt::format("'{}' is not a {}: expected a number with an optional unit, like {}", original, what,
                            what == "size" ? "24G or 512MiB" : "7B or 770M"));
  if (!std::isfinite(*number) || *number <= 0)
    return fail(fmt::format("'{}' is not a valid {}: it must be greater than zero", original, what));
  return Split{*number, std::string(text::trim(s.substr(i)))};
}

Result<uint64_t> checked(double value, std::string_view original, std::string_view what) {
  if (value >= 1.8e19) return fail(fmt::format("'{}' is too large for a {}", original, what));
  if (value < 1) return fail(fmt::format("'{}' is less than one unit: not a valid {}", original, what));
  return static_cast<uint64_t>(std::llround(value));
}

}  // namespace

Result<uint64_t> parse_bytes(std::string_view original) {
  auto split = split_number(original, "size");
  if (!split) return std::unexpected(split.error());
  const std::string suffix = text::to_lower(split->suffix);
  double scale = 0;
  if (suffix.empty() || suffix == "b") scale = 1;
  else if (suffix == "k" || suffix == "kib") scale = double(KiB);
  else if (suffix == "m" || suffix == "mib") scale = double(MiB);
  else if (suffix == "g" || suffix == "gib") scale = double(GiB);
  else if (suffix == "t" || suffix == "tib") scale = double(TiB);
  else if (suffix == "kb") scale = 1e3;
  else if (suffix == "mb") scale = 1e6;
  else if (suffix == "gb") scale = 1e9;
  else if (suffix == "tb") scale = 1e12;
  else
    return fail(fmt::format("'{}': unknown size unit '{}' (use K, M, G, T for KiB..TiB, or KB, MB, GB, TB for powers of 1000)",
                            original, split->suffix));
  return checked(split->number * scale, original, "size");
}

Result<uint64_t> parse_count(std::string_view original) {
  auto split = split_number(original, "count");
  if (!split) return std::unexpected(split.error());
  const std::string suffix = text::to_lower(split->suffix);
  double scale = 0;
  if (suffix.empty()) scale = 1;
  else if (suffix == "k") scale = 1e3;
  else if (suffix == "m") scale = 1e6;
  else if (suffix == "b" || suffix == "g") scale = 1e9;
  else if (suffix == "t") scale = 1e12;
  else
    return fail(fmt::format("'{}': unknown count unit '{}' (use K, M, B or T, as in 7B)", original, split->suffix));
  return checked(split->number * scale, original, "count");
}

std::string format_bytes(uint64_t bytes) {
  static constexpr const char* names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double value = double(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 5) {
    value /= 1024;
    ++unit;
  }
  if (unit == 0) return fmt::format("{} B", bytes);
  return fmt::format("{:.1f} {}", value, names[unit]);
}

std::string format_count(uint64_t count) {
  const double v = double(count);
  if (v >= 1e12) return fmt::format("{:.2f}T", v / 1e12);
  if (v >= 1e9) return fmt::format("{:.1f}B", v / 1e9);
  if (v >= 1e6) return fmt::format("{:.0f}M", v / 1e6);
  if (v >= 1e3) return fmt::format("{:.0f}K", v / 1e3);
  return fmt::format("{}", count);
}

std::string format_rate(double per_second, std::string_view unit) {
  static constexpr const char* prefixes[] = {"", "K", "M", "G", "T", "P"};
  int p = 0;
  double v = per_second;
  while (std::fabs(v) >= 1000 && p < 5) {
    v /= 1000;
    ++p;
  }
  return fmt::format("{:.{}f} {}{}", v, v >= 100 ? 0 : (v >= 10 ? 1 : 2), prefixes[p], unit);
}

}  // namespace gpuscout::units
