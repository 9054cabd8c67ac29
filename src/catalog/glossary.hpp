#pragma once
/// The glossary behind `gpuscout explain` (data/glossary.csv): the words gpuscout prints that a beginner may not
/// know, each with a short explanation and what gpuscout shows about it. The prose cells are English msgids; the
/// caller shows them through tr(). One table, one matcher: `explain TERM` and the pointer line under a command's
/// text output both find terms here.
#include <string>
#include <string_view>
#include <vector>

namespace gpuscout::catalog {

struct GlossaryEntry {
  std::string key;    ///< stable id, what `gpuscout explain KEY` and the JSON use ("kv-cache")
  std::string title;  ///< the heading ("KV cache"), an English msgid
  std::vector<std::string> aliases;      ///< other names, typed by a user and spotted in output ("显存", "GPU memory")
  std::vector<std::string> lookup_only;  ///< names a user may type that are too common to flag in output ("gpu")
  std::string summary;      ///< one line, English msgid
  std::string explanation;  ///< 3 to 8 lines separated by '\n', English msgid
  std::string shows;        ///< what gpuscout shows about it, English msgid
};

/// The entries in the table's order; empty when the table failed to load (glossary_load_error says why).
const std::vector<GlossaryEntry>& glossary();
std::string glossary_load_error();

/// The entry a user's word names: its key, its title (English or translated), an alias or a lookup-only name,
/// ignoring ASCII case, spaces, '-' and '_' ("vram", "显存", "Tensor-Cores" -> none, "tensor cores" -> Tensor Core).
/// nullptr when none does.
const GlossaryEntry* find_term(std::string_view word);

/// The entries whose names are nearest to an unknown word (edit distance over code points, or one name containing
/// the other), nearest first, at most `limit`; empty when nothing is near.
std::vector<const GlossaryEntry*> closest_terms(std::string_view word, size_t limit = 3);

/// The entries whose title or aliases occur in `text` as written (case matters, so "ZeRO" is not "zero"), as
/// whole words where the name starts or ends with an ASCII letter or digit; in order of first occurrence.
std::vector<const GlossaryEntry*> terms_in_text(std::string_view text);

}  // namespace gpuscout::catalog
