#pragma once
/// RFC 4180 CSV (quoted cells, doubled quotes, commas and newlines inside quotes) with a header row.
/// Errors name the source, line and column so a user can fix a --prices file by hand.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace gpuscout::csv {

struct Row {
  int line = 0;  ///< 1-based line where the row starts in the source.
  std::vector<std::string> cells;
};

class Table {
 public:
  Table(std::string source, std::vector<std::string> header, std::vector<Row> rows);
  const std::string& source() const { return source_; }
  const std::vector<std::string>& header() const { return header_; }
  const std::vector<Row>& rows() const { return rows_; }
  /// Column index by name, or nullopt.
  std::optional<size_t> column(std::string_view name) const;
  /// The cell of `row` in column `name` ("" when the column is absent).
  std::string_view cell(const Row& row, std::string_view name) const;
  /// Fails unless every named column exists (message lists the missing ones).
  Result<void> require_columns(const std::vector<std::string>& names) const;

 private:
  std::string source_;
  std::vector<std::string> header_;
  std::vector<Row> rows_;
};

/// Parses text; `source` names it in error messages ("data/gpus.csv", "--prices my.csv").
/// Every row must have exactly as many cells as the header; blank lines are skipped.
Result<Table> parse(std::string_view text, std::string source);

}  // namespace gpuscout::csv
