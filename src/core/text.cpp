#include "core/text.hpp"

#include <algorithm>
#include <iterator>
#include <cctype>
#include <charconv>
#include <cstdlib>

#include <fmt/format.h>

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

namespace {

/// One part of a CPU list: "lo", "lo-hi" or the kernel's grouped stride "lo-hi:used/group" (cpuset and isolcpus
/// lists accept it: "0-1023:2/256" is 0,1,256,257,512,513,768,769).
struct CpuRange {
  long long lo = 0, hi = 0, used = 1, group = 1;
};

std::optional<CpuRange> parse_cpu_range(std::string_view part) {
  CpuRange r;
  const auto colon = part.find(':');
  if (colon != std::string_view::npos) {
    const auto stride = part.substr(colon + 1);
    const auto slash = stride.find('/');
    if (slash == std::string_view::npos) return std::nullopt;
    const auto used = parse_int(stride.substr(0, slash)), group = parse_int(stride.substr(slash + 1));
    if (!used || !group || *used <= 0 || *group <= 0 || *used > *group) return std::nullopt;
    r.used = *used;
    r.group = *group;
    part = part.substr(0, colon);
    if (part.find('-') == std::string_view::npos) return std::nullopt;  // a stride needs a range
  }
  const auto dash = part.find('-');
  const auto lo = parse_int(part.substr(0, dash));
  const auto hi = dash == std::string_view::npos ? lo : parse_int(part.substr(dash + 1));
  if (!lo || !hi || *lo < 0 || *hi < *lo || *hi >= kMaxCpus) return std::nullopt;
  r.lo = *lo;
  r.hi = *hi;
  return r;
}

}  // namespace

std::optional<std::vector<int>> parse_cpu_list(std::string_view s) {
  s = trim(s);
  std::vector<int> cpus;
  if (s.empty()) return cpus;
  // Counted before anything is stored, so a hostile list ("0-65535,0-65535,..." over 64 KB) costs one pass
  // over its text, not gigabytes: each range counts its whole span, strided or not.
  std::vector<CpuRange> ranges;
  long long total = 0;
  for (auto part : split(s, ',')) {
    const auto range = parse_cpu_range(trim(part));
    if (!range) return std::nullopt;
    total += range->hi - range->lo + 1;
    if (total > kMaxCpus) return std::nullopt;
    ranges.push_back(*range);
  }
  cpus.reserve(static_cast<size_t>(total));
  for (const auto& r : ranges)
    for (long long c = r.lo; c <= r.hi; ++c)
      if ((c - r.lo) % r.group < r.used) cpus.push_back(static_cast<int>(c));
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

std::string format_cpu_list(const std::vector<int>& cpus) {
  std::string out;
  for (size_t i = 0; i < cpus.size();) {
    size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(cpus[i]);
    if (j > i) out += '-' + std::to_string(cpus[j]);
    i = j + 1;
  }
  return out;
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

std::string_view cut_utf8(std::string_view s, size_t max_bytes) {
  if (s.size() <= max_bytes) return s;
  size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut);
}

std::string clean_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      if ((b >= 0x20 && b != 0x7f) || b == '\t' || b == '\n') out += static_cast<char>(b);
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
      // C1 controls (U+0080..U+009F, 0xC2 0x80..0x9F) are dropped as C0 ones are: U+009B is a terminal's CSI.
      const bool c1 = good == 2 && b == 0xC2 && static_cast<unsigned char>(s[i + 1]) <= 0x9F;
      if (!c1) out.append(s.substr(i, good));
      i += good;
    } else {
      out += kReplacement;
      i += good == 0 ? 1 : good;
    }
  }
  return out;
}

namespace {

/// The code point at s[i] (advancing i), or U+FFFD for a broken sequence (clean_utf8 ran before on outside text).
char32_t next_code_point(std::string_view s, size_t& i) {
  const auto b = static_cast<unsigned char>(s[i]);
  const size_t len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 1;
  if (len == 1 || i + len > s.size()) {
    ++i;
    return b < 0x80 ? b : 0xFFFD;
  }
  char32_t cp = b & (0x7F >> len);
  for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  i += len;
  return cp;
}

bool wide(char32_t cp) {
  return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) || (cp >= 0xAC00 && cp <= 0xD7A3) ||
         (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
         (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x20000 && cp <= 0x3FFFD);
}

}  // namespace

std::vector<uint32_t> code_points(std::string_view s) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < s.size();) out.push_back(static_cast<uint32_t>(next_code_point(s, i)));
  return out;
}

size_t display_width(std::string_view s) {
  size_t width = 0;
  for (size_t i = 0; i < s.size();) width += wide(next_code_point(s, i)) ? 2 : 1;
  return width;
}

std::string code(std::string_view command) { return "`" + std::string(command) + "`"; }

std::string wrap(std::string_view s, size_t width, std::string_view indent, std::optional<size_t> start_column) {
  // Pieces that stay whole: a run of non-space narrow characters (a word, a command), or one wide character.
  std::vector<std::pair<std::string_view, bool>> pieces;  // text, space before it
  bool space = false;
  for (size_t i = 0; i < s.size();) {
    const size_t start = i;
    const char32_t cp = next_code_point(s, i);
    if (cp == ' ' || cp == '\n' || cp == '\t') {
      space = true;
      continue;
    }
    const size_t close = cp == '`' ? s.find('`', i) : std::string_view::npos;
    if (close != std::string_view::npos) {
      i = close + 1;  // a `command` in the text stays on one line
    } else if (!wide(cp))
      while (i < s.size()) {
        size_t j = i;
        const char32_t c = next_code_point(s, j);
        if (c == ' ' || c == '\n' || c == '\t' || wide(c)) break;
        i = j;
      }
    pieces.emplace_back(s.substr(start, i - start), space);
    space = false;
  }
  std::string out;
  const size_t indent_width = display_width(indent);
  size_t column = start_column.value_or(indent_width);  // the first line's prefix is the caller's
  bool line_empty = true;
  size_t last_at = 0;         // where the line's last piece (with the space before it) starts in `out`
  size_t last_width = 0;      // its width, with the punctuation that clings to it
  bool last_opens_line = true;
  // Closing punctuation never starts a line: it clings to the piece before it (a Chinese word, or a `command`
  // followed by "." or "。"), and takes that piece to the next line when the two do not fit.
  static constexpr std::string_view kNoLineStart[] = {"，", "。", "：", "；", "）", "、", "！", "？", "」", "》",
                                                      ".", ",", ";", ":", ")", "!", "?", ".)", ")."};
  for (const auto& [piece, space_before] : pieces) {
    const size_t w = display_width(piece);
    const bool clings = !line_empty && !space_before && std::ranges::find(kNoLineStart, piece) != std::end(kNoLineStart);
    if (clings) {
      if (column + w > width && !last_opens_line) {
        const std::string carried(text::trim(std::string_view(out).substr(last_at)));
        out.resize(last_at);
        out += "\n";
        out += indent;
        last_at = out.size();
        out += carried;
        column = indent_width + last_width;
        last_opens_line = true;
      }
      out += piece;
      column += w;
      last_width += w;
      continue;
    }
    size_t gap = !line_empty && space_before ? 1 : 0;
    if (!line_empty && column + gap + w > width) {
      out += "\n";
      out += indent;
      column = indent_width;
      line_empty = true;
      gap = 0;
    }
    last_at = out.size();
    last_opens_line = line_empty;
    if (gap) {
      out += ' ';
      column += 1;
    }
    out += piece;
    column += w;
    last_width = w;
    line_empty = false;
  }
  return out + "\n";
}

std::string visible(std::string_view s, bool keep_newlines) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const auto byte = static_cast<unsigned char>(s[i]);
    if (byte == '\n') out += keep_newlines ? "\n" : "\\n";
    else if (byte == '\t') out += "\\t";
    else if (byte < 0x20 || byte == 0x7f) out += fmt::format("\\x{:02x}", byte);
    else if (byte == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
             static_cast<unsigned char>(s[i + 1]) <= 0x9f)
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(s[++i]));  // C1: U+0080..U+009F
    else out += s[i];
  }
  return clean_utf8(out);
}

}  // namespace gpuscout::text
