#include "report/glossary_render.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/i18n.hpp"
#include "core/text.hpp"

namespace gpuscout::report {
namespace {

std::string pad(std::string_view s, size_t width) {
  const size_t w = text::display_width(s);
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
  for (const auto& e : catalog::glossary()) width = std::max(width, text::display_width(e.key));
  for (const auto& e : catalog::glossary())
    out += fmt::format("  {}{}\n", pad(e.key, width + 2), tr(std::string_view(e.summary)));
  out += std::string("\n") + tr("Look one up: `gpuscout explain TERM` (English or Chinese, any case: vram, 显存, bf16)\n");
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
  return trf("Words used above: {0}. Look one up: `gpuscout explain {1}`\n",
             fmt::format("{}", fmt::join(titles, list_separator())), found.front()->key);
}

}  // namespace gpuscout::report
