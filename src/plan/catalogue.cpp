#include "plan/catalogue.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/data_files.hpp"
#include "core/text.hpp"
#include "plan/hf_config.hpp"

namespace gpuscout::plan {
namespace {

const std::vector<std::string> kConfigColumns = {
    "hidden_size",  "intermediate_size",       "num_hidden_layers",   "num_attention_heads",
    "num_key_value_heads", "head_dim",         "vocab_size",          "max_position_embeddings",
    "num_local_experts",   "num_experts_per_tok"};

nlohmann::json cell_value(std::string_view cell) {
  if (cell == "true") return true;
  if (cell == "false") return false;
  if (auto u = text::parse_uint(cell)) return *u;
  if (auto d = text::parse_double(cell)) return *d;
  return std::string(cell);
}

/// Edit distance for "did you mean".
size_t distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t prev = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cur = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1)});
      prev = cur;
    }
  }
  return row[b.size()];
}

}  // namespace

Result<std::vector<CatalogueEntry>> load_catalogue() {
  auto table = core::load_table("models.csv");
  if (!table) return std::unexpected(table.error());
  std::vector<std::string> required = {"name", "aliases", "hf_id", "model_type", "tie_word_embeddings",
                                       "extra", "params", "source", "date"};
  required.insert(required.end(), kConfigColumns.begin(), kConfigColumns.end());
  if (auto ok = table->require_columns(required); !ok) return std::unexpected(ok.error());

  std::vector<CatalogueEntry> entries;
  for (const auto& row : table->rows()) {
    const std::string where = fmt::format("{} line {}", table->source(), row.line);
    CatalogueEntry e;
    e.name = std::string(table->cell(row, "name"));
    for (auto a : text::split(table->cell(row, "aliases"), ';'))
      if (!text::trim(a).empty()) e.aliases.emplace_back(text::trim(a));
    e.hf_id = std::string(table->cell(row, "hf_id"));
    e.source = std::string(table->cell(row, "source"));
    e.date = std::string(table->cell(row, "date"));
    const auto params = text::parse_uint(table->cell(row, "params"));
    if (!params || *params == 0) return fail(fmt::format("{}: params is not a positive whole number", where));
    e.published_params = *params;

    nlohmann::json config = nlohmann::json::object();
    config["model_type"] = std::string(table->cell(row, "model_type"));
    config["_name_or_path"] = e.name;
    for (const auto& column : kConfigColumns) {
      const auto cell = table->cell(row, column);
      if (cell.empty()) continue;
      const auto v = text::parse_uint(cell);
      if (!v) return fail(fmt::format("{}: {} '{}' is not a whole number", where, column, cell));
      config[column] = *v;
    }
    const auto tie = table->cell(row, "tie_word_embeddings");
    if (!tie.empty()) config["tie_word_embeddings"] = (tie == "true");
    for (auto kv : text::split(table->cell(row, "extra"), ';')) {
      kv = text::trim(kv);
      if (kv.empty()) continue;
      const auto eq = kv.find('=');
      if (eq == std::string_view::npos) return fail(fmt::format("{}: extra '{}' is not key=value", where, kv));
      config[std::string(text::trim(kv.substr(0, eq)))] = cell_value(text::trim(kv.substr(eq + 1)));
    }
    auto read = shape_from_config(config, where);
    if (!read) return std::unexpected(read.error());
    e.shape = std::move(read->shape);
    e.shape.name = e.name;
    e.shape.source = e.source;
    entries.push_back(std::move(e));
  }
  return entries;
}

Result<CatalogueEntry> find_model(std::string_view name) {
  auto all = load_catalogue();
  if (!all) return std::unexpected(all.error());
  const std::string want = text::to_lower(text::trim(name));
  for (auto& e : *all) {
    if (text::to_lower(e.name) == want || text::to_lower(e.hf_id) == want) return e;
    for (const auto& a : e.aliases)
      if (text::to_lower(a) == want) return e;
  }
  std::vector<std::pair<size_t, std::string>> near;
  for (const auto& e : *all) near.emplace_back(distance(want, text::to_lower(e.name)), e.name);
  std::sort(near.begin(), near.end());
  std::vector<std::string> names;
  for (size_t i = 0; i < near.size() && i < 4; ++i) names.push_back(near[i].second);
  return fail(fmt::format("unknown model '{}'; closest in the catalogue: {} (`gpuscout fit --list-models` shows all; "
                          "--config PATH reads a Hugging Face config.json, --params 7B a generic shape)",
                          name, text::join(names, ", ")));
}

}  // namespace gpuscout::plan
