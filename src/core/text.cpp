#include "core/text.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>

namespace gpuscout::text {

std::string_view trim(std::string_view s) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; };
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    const size_t pos = s.find(sep, start);
    if (pos == std::string_view::npos) {
      out.push_back(s.substr(start));
      return out;
    }
    out.push_back(s.substr(start, pos - start));
    start = pos + 1;
  }
}

std::vector<std::string_view> split_ws(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    const size_t start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

std::string to_lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool contains_icase(std::string_view haystack, std::string_view needle) {
  return to_lower(haystack).find(to_lower(needle)) != std::string::npos;
}

std::optional<long long> parse_int(std::string_view s, int base) {
  s = trim(s);
  if (base == 16 && (s.starts_with("0x") || s.starts_with("0X"))) s.remove_prefix(2);
  if (s.empty()) return std::nullopt;
  long long value = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value, base);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return value;
}

std::optional<unsigned long long> parse_uint(std::string_view s, int base) {
  s = trim(s);
  if (base == 16 && (s.starts_with("0x") || s.starts_with("0X"))) s.remove_prefix(2);
  if (s.empty() || s.front() == '-') return std::nullopt;
  unsigned long long value = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value, base);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return value;
}

std::optional<double> parse_double(std::string_view s) {
  s = trim(s);
  if (s.empty()) return std::nullopt;
  double value = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return value;
}

std::optional<std::vector<int>> parse_cpu_list(std::string_view s) {
  s = trim(s);
  std::vector<int> cpus;
  if (s.empty()) return cpus;
  // Counted before anything is stored, so a hostile list ("0-65535,0-65535,..." over 64 KB) costs one pass
  // over its text, not gigabytes.
  std::vector<std::pair<long long, long long>> ranges;
  long long total = 0;
  for (auto part : split(s, ',')) {
    part = trim(part);
    const auto dash = part.find('-');
    const auto lo = parse_int(part.substr(0, dash));
    const auto hi = dash == std::string_view::npos ? lo : parse_int(part.substr(dash + 1));
    if (!lo || !hi || *lo < 0 || *hi < *lo || *hi >= kMaxCpus) return std::nullopt;
    total += *hi - *lo + 1;
    if (total > kMaxCpus) return std::nullopt;
    ranges.emplace_back(*lo, *hi);
  }
  cpus.reserve(static_cast<size_t>(total));
  for (const auto& [lo, hi] : ranges)
    for (long long c = lo; c <= hi; ++c) cpus.push_back(static_cast<int>(c));
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

namespace {

/// The length of the well-formed sequence a lead byte starts, and the range its second byte must fall in
/// (Unicode 15 table 3-7: the narrowed ranges exclude overlong forms, surrogates and code points past U+10FFFF).
struct Lead {
  int length = 0;  // 0: the byte cannot start a sequence
  unsigned char second_lo = 0x80;
  unsigned char second_hi = 0xBF;
};

Lead classify_lead(unsigned char b) {
  if (b >= 0xC2 && b <= 0xDF) return {2, 0x80, 0xBF};
  if (b == 0xE0) return {3, 0xA0, 0xBF};
  if (b == 0xED) return {3, 0x80, 0x9F};
  if (b >= 0xE1 && b <= 0xEF) return {3, 0x80, 0xBF};
  if (b == 0xF0) return {4, 0x90, 0xBF};
  if (b >= 0xF1 && b <= 0xF3) return {4, 0x80, 0xBF};
  if (b == 0xF4) return {4, 0x80, 0x8F};
  return {};
}

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

}  // namespace

std::string clean_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      if (b >= 0x20 || b == '\t' || b == '\n') out += static_cast<char>(b);
      ++i;
      continue;
    }
    const Lead lead = classify_lead(b);
    // Count the bytes that still fit a well-formed sequence: that prefix is the maximal subpart, replaced
    // by one U+FFFD when the sequence breaks off; the byte that broke it starts the next round.
    size_t good = lead.length == 0 ? 0 : 1;
    while (good > 0 && good < static_cast<size_t>(lead.length) && i + good < s.size()) {
      const auto c = static_cast<unsigned char>(s[i + good]);
      const unsigned char lo = good == 1 ? lead.second_lo : 0x80;
      const unsigned char hi = good == 1 ? lead.second_hi : 0xBF;
      if (c < lo || c > hi) break;
      ++good;
    }
    if (lead.length != 0 && good == static_cast<size_t>(lead.length)) {
      out.append(s.substr(i, good));
      i += good;
    } else {
      out += kReplacement;
      i += good == 0 ? 1 : good;
    }
  }
  return out;
}

std::vector<uint32_t> code_points(std::string_view s) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 1;
    uint32_t cp = n == 1 ? b : b & (0x7Fu >> n);
    for (size_t k = 1; k < n && i + k < s.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3Fu);
    out.push_back(cp);
    i += n;
  }
  return out;
}

size_t display_width(std::string_view s) {
  size_t width = 0;
  for (const uint32_t cp : code_points(s)) {
    const bool wide = (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
                      (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
                      (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xFFE0 && cp <= 0xFFE6);
    width += wide ? 2 : 1;
  }
  return width;
}

}  // namespace gpuscout::text
