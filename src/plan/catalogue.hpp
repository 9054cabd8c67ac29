#pragma once
/// The built-in model catalogue (data/models.csv): exact architectures from each model's official
/// config.json, with a source and a date per row. Each row is turned into a config object and read by the
/// same code as a user's config.json (plan/hf_config.hpp), so the family conventions live in one place.
/// Columns: name, aliases (;-separated), hf_id, model_type, the config.json numbers (hidden_size ...
/// num_experts_per_tok), extra (key=value;... for other config keys), params (the published total),
/// source, date.
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "plan/model_shape.hpp"

namespace gpuscout::plan {

struct CatalogueEntry {
  std::string name;
  std::vector<std::string> aliases;
  std::string hf_id;             ///< "meta-llama/Meta-Llama-3-8B"
  uint64_t published_params = 0; ///< the count the source publishes (a test checks ours against it)
  std::string source;
  std::string date;
  ModelShape shape;
};

/// Every row (embedded table, or --data DIR/models.csv). Errors name the file and line.
Result<std::vector<CatalogueEntry>> load_catalogue();
/// Case-insensitive match on name, an alias or the hf_id; the error lists the names that come closest.
Result<CatalogueEntry> find_model(std::string_view name);

}  // namespace gpuscout::plan
