#include "catalog/glossary.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <limits>
#include <utility>

#include "core/csv.hpp"
#include "core/data_files.hpp"
#include "core/i18n.hpp"
#include "core/text.hpp"

namespace gpuscout::catalog {
namespace {

std::vector<std::string> split_names(const std::string& cell) {
  std::vector<std::string> out;
  for (auto a : text::split(cell, ';'))
    if (!text::trim(a).empty()) out.emplace_back(text::trim(a));
  return out;
}

GlossaryEntry read_row(csv::CellReader& c) {
  GlossaryEntry e;
  e.key = c.text("key", csv::Need::required);
  e.title = c.text("title", csv::Need::required);
  e.aliases = split_names(c.text("aliases"));
  e.lookup_only = split_names(c.text("lookup_only"));
  e.summary = c.text("summary", csv::Need::required);
  e.explanation = c.text("explanation", csv::Need::required);
  e.shows = c.text("shows", csv::Need::required);
  c.text("source", csv::Need::required);
  c.date("date");
  return e;
}

struct Loaded {
  std::vector<GlossaryEntry> entries;
  std::string error;
};

const Loaded& loaded() {
  static const Loaded l = [] {
    auto table = core::load_table("glossary.csv");
    if (!table) return Loaded{{}, table.error().message};
    if (auto ok = table->require_columns(
            {"key", "title", "aliases", "lookup_only", "summary", "explanation", "shows", "source", "date"});
        !ok)
      return Loaded{{}, ok.error().message};
    Loaded out;
    for (const auto& r : table->rows()) {
      csv::CellReader cells(*table, r);
      GlossaryEntry e = read_row(cells);
      if (auto ok = cells.result(); !ok) return Loaded{{}, ok.error().message};
      out.entries.push_back(std::move(e));
    }
    return out;
  }();
  return l;
}

/// The form names are compared in: ASCII lower case, without spaces, '-' and '_'.
std::string normalise(std::string_view s) {
  std::string out;
  for (const char ch : text::to_lower(text::trim(s)))
    if (ch != ' ' && ch != '-' && ch != '_' && ch != '\t') out += ch;
  return out;
}

/// Every name of an entry a user may type, normalised.
std::vector<std::string> typed_names(const GlossaryEntry& e) {
  std::vector<std::string> names{normalise(e.key), normalise(e.title), normalise(tr(std::string_view(e.title)))};
  for (const auto& a : e.aliases) names.push_back(normalise(a));
  for (const auto& a : e.lookup_only) names.push_back(normalise(a));
  return names;
}

/// Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`: "vrma" is one from "vram".
size_t edit_distance(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

bool word_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u < 0x80 && (std::isalnum(u) || c == '_');
}

/// The first place `name` occurs in `text` as a whole word (see terms_in_text), or npos.
size_t find_word(std::string_view text, std::string_view name) {
  if (name.empty()) return std::string_view::npos;
  const bool check_start = word_char(name.front()) && name.front() != '_';
  const bool check_end = word_char(name.back()) && name.back() != '_';
  for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    const bool starts = !check_start || at == 0 || !word_char(text[at - 1]);
    const size_t end = at + name.size();
    const bool ends = !check_end || end == text.size() || !word_char(text[end]);
    if (starts && ends) return at;
  }
  return std::string_view::npos;
}

}  // namespace

const std::vector<GlossaryEntry>& glossary() { return loaded().entries; }
std::string glossary_load_error() { return loaded().error; }

const GlossaryEntry* find_term(std::string_view word) {
  const std::string want = normalise(word);
  if (want.empty()) return nullptr;
  for (const auto& e : glossary()) {
    const auto names = typed_names(e);
    if (std::find(names.begin(), names.end(), want) != names.end()) return &e;
  }
  return nullptr;
}

std::vector<const GlossaryEntry*> closest_terms(std::string_view word, size_t limit) {
  // Bounded: a word longer than any name is compared by its first 64 code points.
  auto want = text::code_points(normalise(word));
  if (want.size() > 64) want.resize(64);
  if (want.empty()) return {};
  std::string key = normalise(word);
  if (key.size() > 256) key.resize(256);
  std::vector<std::pair<size_t, const GlossaryEntry*>> scored;
  for (const auto& e : glossary()) {
    size_t best = std::numeric_limits<size_t>::max();
    for (const auto& name : typed_names(e)) {
      const auto have = text::code_points(name);
      if (have.empty()) continue;
      const bool contains = (want.size() >= 2 && name.find(key) != std::string::npos) ||
                            (have.size() >= 2 && key.find(name) != std::string::npos);
      const size_t d = contains ? 0 : edit_distance(want, have);
      const size_t shorter = std::min(want.size(), have.size());
      const size_t allowed = shorter <= 3 ? 1 : std::max<size_t>(2, shorter / 3);
      if (contains || d <= allowed) best = std::min(best, d);
    }
    if (best != std::numeric_limits<size_t>::max()) scored.emplace_back(best, &e);
  }
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<const GlossaryEntry*> out;
  for (const auto& [d, e] : scored)
    if (out.size() < limit) out.push_back(e);
  return out;
}

std::vector<const GlossaryEntry*> terms_in_text(std::string_view text) {
  std::vector<std::pair<size_t, const GlossaryEntry*>> found;
  for (const auto& e : glossary()) {
    size_t first = std::string_view::npos;
    const std::string shown_title = tr(std::string_view(e.title));
    for (std::string_view name : {std::string_view(e.title), std::string_view(shown_title)})
      first = std::min(first, find_word(text, name));
    for (const auto& a : e.aliases) first = std::min(first, find_word(text, a));
    if (first != std::string_view::npos) found.emplace_back(first, &e);
  }
  std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<const GlossaryEntry*> out;
  for (const auto& [at, e] : found) out.push_back(e);
  return out;
}

}  // namespace gpuscout::catalog
