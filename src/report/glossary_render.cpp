#include "report/glossary_render.hpp"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/i18n.hpp"
#include "core/text.hpp"

namespace gpuscout::report {
namespace {

/// Columns a terminal gives a string: two for East Asian wide characters (CJK, full-width forms), one otherwise.
size_t display_width(std::string_view s) {
  size_t width = 0;
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 1;
    uint32_t cp = n == 1 ? b : b & (0x7F >> n);
    for (size_t k = 1; k < n && i + k < s.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    const bool wide = (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
                      (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
                      (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
                      (cp >= 0xFFE0 && cp <= 0xFFE6);
    width += wide ? 2 : 1;
    i += n;
  }
  return width;
}

std::string pad(std::string_view s, size_t width) {
  const size_t w = display_width(s);
  return std::string(s) + std::string(w < width ? width - w : 1, ' ');
}

std::string indent(std::string_view block, std::string_view by) {
  std::string out;
  for (auto line : text::split(block, '\n')) out += fmt::format("{}{}\n", by, line);
  return out;
}

/// Punctuation in the language in force (full-width in Chinese): between the items of a list, after a heading.
std::string_view list_separator() { return i18n::current() == i18n::Language::zh ? "、" : ", "; }
std::string_view colon() { return i18n::current() == i18n::Language::zh ? "：" : ": "; }

std::vector<std::string> other_names(const catalog::GlossaryEntry& e) {
  std::vector<std::string> names;
  const std::string shown = tr(std::string_view(e.title));
  for (const auto& a : e.aliases)
    if (a != shown && std::find(names.begin(), names.end(), a) == names.end()) names.push_back(a);
  return names;
}

}  // namespace

std::string render_glossary_list_text() {
  std::string out = tr("Words gpuscout uses, explained for beginners:\n\n");
  size_t width = 0;
  for (const auto& e : catalog::glossary()) width = std::max(width, display_width(e.key));
  for (const auto& e : catalog::glossary())
    out += fmt::format("  {}{}\n", pad(e.key, width + 2), tr(std::string_view(e.summary)));
  out += std::string("\n") + tr("Look one up: gpuscout explain TERM (English or Chinese, any case: vram, 显存, bf16)\n");
  return out;
}

std::string render_glossary_entry_text(const catalog::GlossaryEntry& e) {
  std::string out = fmt::format("{}{}{}\n\n", tr(std::string_view(e.title)), colon(), tr(std::string_view(e.summary)));
  out += indent(tr(std::string_view(e.explanation)), "  ");
  out += "\n" + std::string(tr("What gpuscout shows:")) + "\n";
  out += indent(tr(std::string_view(e.shows)), "  ");
  if (const auto names = other_names(e); !names.empty())
    out += "\n" + trf("Also called: {}\n", fmt::format("{}", fmt::join(names, list_separator())));
  return out;
}

Json glossary_json(const std::vector<const catalog::GlossaryEntry*>& entries) {
  Json list = Json::array();
  for (const auto* e : entries)
    list.push_back({{"key", e->key},
                    {"title", tr(std::string_view(e->title))},
                    {"aliases", e->aliases},
                    {"summary", tr(std::string_view(e->summary))},
                    {"explanation", tr(std::string_view(e->explanation))},
                    {"shows", tr(std::string_view(e->shows))}});
  return {{"schema", "gpuscout.glossary/1"},
          {"language", i18n::current() == i18n::Language::zh ? "zh" : "en"},
          {"entries", std::move(list)}};
}

std::string glossary_pointer(std::string_view text) {
  constexpr size_t kMaxTerms = 6;  // one short line
  const auto found = catalog::terms_in_text(text);
  if (found.empty()) return "";
  std::vector<std::string> titles;
  for (const auto* e : found)
    if (titles.size() < kMaxTerms) titles.push_back(tr(std::string_view(e->title)));
  return trf("Words used above: {0}. Look one up: gpuscout explain {1}\n",
             fmt::format("{}", fmt::join(titles, list_separator())), found.front()->key);
}

}  // namespace gpuscout::report
