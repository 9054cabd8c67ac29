#include "core/units.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "core/i18n.hpp"
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
    return fail(trf("'{}' is not a {}: expected a number with an optional unit, like {}", original, tr(what),
                            what == "size" ? "24G or 512MiB" : "7B or 770M"));
  if (!std::isfinite(*number) || *number <= 0)
    return fail(trf("'{}' is not a valid {}: it must be greater than zero", original, tr(what)));
  return Split{*number, std::string(text::trim(s.substr(i)))};
}

Result<uint64_t> checked(double value, std::string_view original, std::string_view what) {
  if (value >= 1.8e19) return fail(trf("'{}' is too large for a {}", original, tr(what)));
  if (value < 1) return fail(trf("'{}' is less than one unit: not a valid {}", original, tr(what)));
  return static_cast<uint64_t>(std::llround(value));
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// "1", "12,345", "1.500.000": a first group of one to three digits, then groups of exactly three after each `sep`.
bool grouped(std::string_view s, char sep) {
  const auto groups = text::split(s, sep);
  if (groups.size() < 2 || groups.front().size() > 3 || !all_digits(groups.front())) return false;
  return std::all_of(groups.begin() + 1, groups.end(), [](std::string_view g) { return g.size() == 3 && all_digits(g); });
}

std::string without(std::string_view s, char c) {
  std::string out(s);
  std::erase(out, c);
  return out;
}

/// The amount with its separators resolved to plain "1500.00" (digits, at most one dot), or why it is refused.
Result<std::string> plain_amount(std::string_view s, std::string_view original) {
  const auto bad = [&](std::string_view why) { return fail(trf("'{}' is not an amount: {}", original, why)); };
  if (const auto comma = s.rfind(','); comma != std::string_view::npos) {
    const auto whole = s.substr(0, comma), cents = s.substr(comma + 1);
    if (cents.size() == 2 && all_digits(cents)) {  // a decimal comma: "1500,00", "1.500,00"
      if (all_digits(whole) || grouped(whole, '.')) return without(whole, '.') + "." + std::string(cents);
      return bad(tr("before a decimal comma, write the whole part as 1500 or 1.500 (like 1500,00 or 1.500,00)"));
    }
    const auto dot = s.find('.');  // commas grouping thousands: "1,500", "12,345.50"
    const auto int_part = s.substr(0, dot);
    const auto frac = dot == std::string_view::npos ? std::string_view("0") : s.substr(dot + 1);
    if (grouped(int_part, ',') && all_digits(frac)) return without(int_part, ',') + "." + std::string(frac);
    return bad(tr("a comma groups exactly three digits (1,500 or 12,345.50) or is followed by two decimals (1500,00)"));
  }
  if (std::count(s.begin(), s.end(), '.') > 1) {
    if (grouped(s, '.')) return without(s, '.');
    return bad(tr("dots group exactly three digits (1.500.000)"));
  }
  const auto dot = s.find('.');
  if (dot == std::string_view::npos) {
    if (all_digits(s)) return std::string(s);
    return bad(tr("expected a number, like 1500, 1,500.50 or 1.500,00"));
  }
  const auto whole = s.substr(0, dot), frac = s.substr(dot + 1);
  if (!all_digits(whole) || !all_digits(frac)) return bad(tr("expected a number, like 1500, 1,500.50 or 1.500,00"));
  // "1.500": one and a half in English, fifteen hundred in German; "0.150" can only be the first.
  if (frac.size() == 3 && whole != "0") {
    const auto fraction = frac.substr(0, frac.find_last_not_of('0') + 1);
    return bad(trf("it could be {} or {}{}: write it without the dot, or with two decimals", without(s, '.'),
                           whole, fraction.empty() ? "" : "." + std::string(fraction)));
  }
  return std::string(s);
}

}  // namespace

Result<double> parse_amount(std::string_view original) {
  std::string_view s = text::trim(original);
  const bool negative = !s.empty() && s.front() == '-';
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) s.remove_prefix(1);
  auto plain = plain_amount(s, original);
  if (!plain) return std::unexpected(plain.error());
  const auto value = text::parse_double(*plain);
  if (!value || !std::isfinite(*value)) return fail(trf("'{}' is not an amount: the number is too large", original));
  return negative ? -*value : *value;
}

Result<uint64_t> parse_bytes(std::string_view original) {
  auto split = split_number(original, N_("size"));
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
    return fail(trf("'{}': unknown size unit '{}' (use K, M, G, T for KiB..TiB, or KB, MB, GB, TB for powers of 1000)",
                            original, split->suffix));
  return checked(split->number * scale, original, "size");
}

Result<uint64_t> parse_count(std::string_view original) {
  auto split = split_number(original, N_("count"));
  if (!split) return std::unexpected(split.error());
  const std::string suffix = text::to_lower(split->suffix);
  double scale = 0;
  if (suffix.empty()) scale = 1;
  else if (suffix == "k") scale = 1e3;
  else if (suffix == "m") scale = 1e6;
  else if (suffix == "b" || suffix == "g") scale = 1e9;
  else if (suffix == "t") scale = 1e12;
  else
    return fail(trf("'{}': unknown count unit '{}' (use K, M, B or T, as in 7B)", original, split->suffix));
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
