#pragma once
/// `gpuscout explain` as text and JSON, and the one-line pointer to it under other commands' text. Formats only:
/// the entries come from catalog/glossary.hpp; every prose cell is shown through tr() in the language in force.
#include <string>
#include <string_view>
#include <vector>

#include "catalog/glossary.hpp"
#include "inventory/json.hpp"

namespace gpuscout::report {

/// Every term on one line each: its title and summary, then how to look one up.
std::string render_glossary_list_text();
/// One entry: title and summary, the explanation, what gpuscout shows, the other names it goes by.
std::string render_glossary_entry_text(const catalog::GlossaryEntry& entry);
/// {schema: "gpuscout.glossary/1", language: "en"|"zh", entries: [{key, title, aliases, summary, explanation,
/// shows}]}: the given entries, translated like the text (docs/json.md).
Json glossary_json(const std::vector<const catalog::GlossaryEntry*>& entries);

/// "Words used above: CUDA, VRAM, bf16. Look one up: gpuscout explain cuda\n" for the glossary terms found in
/// `text` (catalog::terms_in_text), at most six; "" when none is.
std::string glossary_pointer(std::string_view text);

}  // namespace gpuscout::report
