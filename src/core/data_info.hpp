#pragma once
/// What the curated tables hold and how old they are: `gpuscout --data-info`, and the stale-table warnings of the
/// commands that rank by price.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace gpuscout::core {

struct TableInfo {
  std::string name;    ///< "gpus.csv"
  std::string origin;  ///< the file read: "data/gpus.csv" (built in) or the override's path
  bool built_in = true;  ///< false when --data DIR (or GPUSCOUT_DATA_DIR) has this table
  size_t rows = 0;
  std::string oldest, newest;  ///< the range of the rows' `date` cells (YYYY-MM-DD); empty when none is a date
  size_t undated = 0;          ///< rows whose date is empty or not a date
  size_t sources = 0;          ///< distinct keys of data/SOURCES.md the rows' `source` cells cite
};

/// Every table gpuscout reads, in name order; an override table that does not parse is an error naming it.
Result<std::vector<TableInfo>> data_tables_info();

/// The source keys defined in the built-in data/SOURCES.md (the first column's `KEY` names).
std::vector<std::string> source_keys();

/// Keys of `keys` that `source_cell` names as whole words ("NV-RN 13.4u1; PCI" names NV-RN and PCI).
std::vector<std::string> cited_keys(std::string_view source_cell, const std::vector<std::string>& keys);

/// Today's date in UTC as YYYY-MM-DD; GPUSCOUT_TODAY (a YYYY-MM-DD date) replaces it for reproducible output.
std::string today();

/// Whole days from `from` to `to` (both starting YYYY-MM-DD); nullopt when either is not a valid date.
std::optional<int64_t> days_between(std::string_view from, std::string_view to);

/// A table is stale when its newest row is older than this many days (about six months).
inline constexpr int64_t kStaleAfterDays = 183;

}  // namespace gpuscout::core
