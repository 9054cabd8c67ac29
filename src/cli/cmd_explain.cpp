// explain: the glossary. `gpuscout explain` lists the terms; `gpuscout explain TERM` explains one.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "catalog/glossary.hpp"
#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "core/error.hpp"
#include "core/i18n.hpp"
#include "core/text.hpp"
#include "report/glossary_render.hpp"

namespace gpuscout::cli {
namespace {

struct ExplainOptions {
  std::vector<std::string> words;  ///< "kv cache" may come as two words
  bool json = false;
};

/// The entry the words name; an unknown term is the user's input error, naming it and the nearest terms.
const catalog::GlossaryEntry& find_or_fail(const std::string& term) {
  if (const auto* e = catalog::find_term(term)) return *e;
  std::vector<std::string> near;
  for (const auto* e : catalog::closest_terms(term)) near.push_back(e->key);
  if (near.empty())
    throw UsageError(trf("explain: no term '{}' in the glossary; `gpuscout explain` lists them all", term));
  throw UsageError(trf("explain: no term '{0}' in the glossary; the closest: {1} (`gpuscout explain` lists them all)",
                       term, fmt::format("{}", fmt::join(near, ", "))));
}

}  // namespace

void add_explain_command(CLI::App& app, GlobalOptions& global) {
  auto* sub = app.add_subcommand("explain", tr("Explain a word gpuscout uses (VRAM, bf16, KV cache, ...); "
                                               "with no word, list them all"));
  auto o = std::make_shared<ExplainOptions>();
  sub->add_option("term", o->words, tr("The word to explain, in English or Chinese (vram, 显存, tensor core)"));
  sub->add_flag("--json", o->json, tr("Print JSON (schema gpuscout.glossary/1, see docs/json.md)"));
  sub->callback([o, &global] {
    if (const auto error = catalog::glossary_load_error(); !error.empty()) throw UsageError(error);
    // Bounded and cleaned like any outside text before it is matched or echoed in an error.
    std::string term = fmt::format("{}", fmt::join(o->words, " "));
    if (term.size() > 200) term.resize(200);
    term = std::string(text::trim(text::clean_utf8(term)));
    if (term.empty()) {
      std::vector<const catalog::GlossaryEntry*> all;
      for (const auto& e : catalog::glossary()) all.push_back(&e);
      print(o->json ? json_text(report::glossary_json(all)) + "\n" : report::render_glossary_list_text());
    } else {
      const auto& entry = find_or_fail(term);
      print(o->json ? json_text(report::glossary_json({&entry})) + "\n" : report::render_glossary_entry_text(entry));
    }
    global.exit_code = 0;
  });
}

}  // namespace gpuscout::cli
