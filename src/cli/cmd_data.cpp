// data (also `gpuscout --data-info`): the date, size and sources of each curated table, and which are stale.
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "cli/usage.hpp"
#include "core/data_info.hpp"
#include "core/i18n.hpp"
#include "core/json.hpp"
#include "inventory/json.hpp"

namespace gpuscout::cli {
namespace {

bool stale(const core::TableInfo& t, const std::string& today) {
  const auto age = core::days_between(t.newest, today);
  return age && *age > core::kStaleAfterDays;
}

nlohmann::json data_json(const std::vector<core::TableInfo>& tables, const std::string& today) {
  nlohmann::json j;
  j["schema"] = "gpuscout.data/1";
  j["today"] = today;
  j["stale_after_days"] = core::kStaleAfterDays;
  j["tables"] = nlohmann::json::array();
  for (const auto& t : tables) {
    const auto age = core::days_between(t.newest, today);
    j["tables"].push_back({{"name", t.name},
                           {"file", t.origin},
                           {"built_in", t.built_in},
                           {"rows", t.rows},
                           {"oldest", t.oldest.empty() ? nlohmann::json() : nlohmann::json(t.oldest)},
                           {"newest", t.newest.empty() ? nlohmann::json() : nlohmann::json(t.newest)},
                           {"age_days", age ? nlohmann::json(*age) : nlohmann::json()},
                           {"undated_rows", t.undated},
                           {"sources", t.sources},
                           {"stale", stale(t, today)}});
  }
  return j;
}

std::string data_text(const std::vector<core::TableInfo>& tables, const std::string& today) {
  std::string out = trf("Data tables (today {}; a table is stale {} days after its newest row)\n\n", today,
                        core::kStaleAfterDays);
  out += fmt::format("{:<24} {:>5}  {:<23} {:>7}  {}\n", tr("table"), tr("rows"), tr("dated"), tr("sources"),
                     tr("from"));
  size_t stale_count = 0;
  for (const auto& t : tables) {
    const std::string dated = t.newest.empty() ? tr("(undated)")
                              : t.oldest == t.newest ? t.newest
                                                     : fmt::format("{} .. {}", t.oldest, t.newest);
    const bool old = stale(t, today);
    stale_count += old ? 1 : 0;
    out += fmt::format("{:<24} {:>5}  {:<23} {:>7}  {}{}\n", t.name, t.rows, dated, t.sources,
                       t.built_in ? tr("built in") : t.origin, old ? tr("  (stale)") : "");
  }
  out += "\n";
  if (stale_count > 0)
    out += trf("{} of {} tables are stale: prices, rates and releases may have changed since. Newer tables: "
               "--data DIR (see data/SOURCES.md).\n",
               stale_count, tables.size());
  out += tr("Sources and their dates: data/SOURCES.md in the gpuscout source tree.\n");
  return out;
}

}  // namespace

void add_data_command(CLI::App& app, GlobalOptions& global) {
  auto* sub = app.add_subcommand("data", tr("How old the built-in tables are: date, rows and sources of each "
                                            "(also --data-info)"));
  auto json = std::make_shared<bool>(false);
  sub->add_flag("--json", *json, tr("Print JSON (schema gpuscout.data/1, see docs/json.md)"));
  sub->callback([json, &global] {
    const auto tables = usage(core::data_tables_info());
    const std::string today = core::today();
    print(*json ? json_text(data_json(tables, today)) + "\n" : data_text(tables, today));
    global.exit_code = 0;
  });
}

}  // namespace gpuscout::cli
