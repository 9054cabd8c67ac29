#include "report/html_escape.hpp"

namespace gpuscout::report {
namespace {

/// Length of the well-formed UTF-8 sequence at s[i] (RFC 3629: no overlongs, no surrogates, <= U+10FFFF), or 0.
size_t utf8_sequence_length(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  if (b(i + 1) < lo || b(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k)
    if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
  return n;
}

}  // namespace

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const size_t n = utf8_sequence_length(text, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string escape_html(std::string_view text) {
  const std::string clean = valid_utf8(text);
  std::string out;
  out.reserve(clean.size() + 16);
  for (const char ch : clean) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      case '\t':
      case '\n': out += ch; break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7F) break;  // controls have no place in a page
        out += ch;
    }
  }
  return out;
}

std::string json_for_script(const nlohmann::ordered_json& value) {
  // replace: a malformed byte in a driver string becomes U+FFFD instead of an exception.
  const std::string dumped = value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  std::string out;
  out.reserve(dumped.size() + 64);
  for (size_t i = 0; i < dumped.size(); ++i) {
    const char ch = dumped[i];
    if (ch == '<') out += "\\u003c";
    else if (ch == '>') out += "\\u003e";
    else if (ch == '&') out += "\\u0026";
    else if (ch == '\xE2' && i + 2 < dumped.size() && dumped[i + 1] == '\x80' &&
             (dumped[i + 2] == '\xA8' || dumped[i + 2] == '\xA9')) {
      out += dumped[i + 2] == '\xA8' ? "\\u2028" : "\\u2029";  // line separators end a JS line
      i += 2;
    } else {
      out += ch;
    }
  }
  return out;
}

}  // namespace gpuscout::report
