#include "plan/catalogue.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/data_files.hpp"
#include "core/i18n.hpp"
#include "core/json.hpp"
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

namespace {

/// The config.json a models.csv row stands for; problems with its cells are left in `cells`.
nlohmann::json row_config(const csv::Table& table, const csv::Row& row, csv::CellReader& cells, const std::string& name) {
  nlohmann::json config = nlohmann::json::object();
  config["model_type"] = cells.text("model_type", csv::Need::required);
  config["_name_or_path"] = name;
  // shape_from_config checks the sizes against each other; here each must be a plain whole number.
  for (const auto& column : kConfigColumns)
    if (auto v = cells.whole(column, 1, 1ull << 40)) config[column] = *v;
  const auto tie = cells.text("tie_word_embeddings");
  if (!tie.empty() && tie != "true" && tie != "false") cells.fail("tie_word_embeddings", "is not true, false or empty");
  if (!tie.empty()) config["tie_word_embeddings"] = (tie == "true");
  for (auto kv : text::split(table.cell(row, "extra"), ';')) {
    kv = text::trim(kv);
    if (kv.empty()) continue;
    const auto eq = kv.find('=');
    if (eq == std::string_view::npos) {
      cells.fail("extra", fmt::format("has '{}', which is not key=value", kv));
      break;
    }
    // "quantization_config.quant_method=mxfp4" sets a field of a nested object, as config.json nests it.
    std::string key(text::trim(kv.substr(0, eq)));
    const bool plain = !key.empty() && key.front() != '.' && key.back() != '.' && key.find("..") == std::string::npos &&
                       std::all_of(key.begin(), key.end(), [](char ch) {
                         return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '.';
                       });
    if (!plain) {
      cells.fail("extra", fmt::format("has key '{}', which is not lower-case words joined by . or _", key));
      break;
    }
    std::replace(key.begin(), key.end(), '.', '/');
    const nlohmann::json::json_pointer at("/" + key);
    bool inside_value = false;
    for (auto parent = at.parent_pointer(); !parent.empty(); parent = parent.parent_pointer())
      inside_value = inside_value || (config.contains(parent) && !config[parent].is_object());
    if (inside_value) {
      cells.fail("extra", fmt::format("sets a field inside '{}', which is not an object", key));
      break;
    }
    config[at] = cell_value(text::trim(kv.substr(eq + 1)));
  }
  return config;
}

Result<CatalogueEntry> read_entry(const csv::Table& table, const csv::Row& row) {
  csv::CellReader cells(table, row);
  CatalogueEntry e;
  e.name = cells.text("name", csv::Need::required);
  const std::string aliases = cells.text("aliases");  // split() returns views into it
  for (auto a : text::split(aliases, ';'))
    if (!text::trim(a).empty()) e.aliases.emplace_back(text::trim(a));
  e.hf_id = cells.text("hf_id");
  e.source = cells.text("source");
  e.date = cells.date("date");
  e.published_params = cells.whole("params", 1, 1ull << 50, csv::Need::required).value_or(0);
  const auto config = row_config(table, row, cells, e.name);
  if (auto ok = cells.result(); !ok) return std::unexpected(ok.error());
  auto read = shape_from_config(config, table.where(row, ""));
  if (!read) return std::unexpected(read.error());
  e.shape = std::move(read->shape);
  e.shape.name = e.name;
  e.shape.source = e.source;
  return e;
}

}  // namespace

Result<std::vector<CatalogueEntry>> load_catalogue() {
  auto table = core::load_table("models.csv");
  if (!table) return std::unexpected(table.error());
  std::vector<std::string> required = {"name", "aliases", "hf_id", "model_type", "tie_word_embeddings",
                                       "extra", "params", "source", "date"};
  required.insert(required.end(), kConfigColumns.begin(), kConfigColumns.end());
  if (auto ok = table->require_columns(required); !ok) return std::unexpected(ok.error());
  if (table->rows().empty()) return fail(trf("{}: the table has a header line but no rows", table->source()));
  std::vector<CatalogueEntry> entries;
  for (const auto& row : table->rows()) {
    auto entry = read_entry(*table, row);
    if (!entry) return std::unexpected(entry.error());
    entries.push_back(std::move(*entry));
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
  return fail(trf("unknown model '{}'; closest in the catalogue: {} (`gpuscout fit --list-models` shows all; "
                  "--config PATH reads a Hugging Face config.json, --params 7B a generic shape)",
                  name, text::join(names, ", ")));
}

}  // namespace gpuscout::plan
