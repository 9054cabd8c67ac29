#pragma once
/// RFC 4180 CSV (quoted cells, doubled quotes, commas and newlines inside quotes) with a header row.
/// Errors name the source, line and column so a user can fix a --prices file by hand.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/version.hpp"

namespace gpuscout::csv {

/// Where a cell starts in the source: 1-based line and column (columns count characters, as editors do).
struct Position {
  int line = 0;
  int column = 0;
};

struct Row {
  int line = 0;  ///< 1-based line where the row starts in the source.
  std::vector<std::string> cells;
  std::vector<Position> positions;  ///< one per cell (empty for rows built by hand)
};

class Table {
 public:
  Table(std::string source, std::vector<std::string> header, std::vector<Row> rows, Position header_at = {1, 1});
  const std::string& source() const { return source_; }
  const std::vector<std::string>& header() const { return header_; }
  const std::vector<Row>& rows() const { return rows_; }
  /// Column index by name, or nullopt.
  std::optional<size_t> column(std::string_view name) const;
  /// The cell of `row` in column `name` ("" when the column is absent).
  std::string_view cell(const Row& row, std::string_view name) const;
  /// Fails unless every named column exists (message lists the missing ones).
  Result<void> require_columns(const std::vector<std::string>& names) const;
  /// "SOURCE:LINE:COLUMN" of the cell of `row` in column `name` ("SOURCE:LINE" when the column is absent).
  std::string where(const Row& row, std::string_view name) const;

 private:
  std::string source_;
  std::vector<std::string> header_;
  std::vector<Row> rows_;
  Position header_at_;
};

/// Parses text; `source` names it in error messages ("data/gpus.csv", "--prices my.csv").
/// Every row must have exactly as many cells as the header; blank lines are skipped. A NUL byte is an error
/// (the file is not text); other invalid UTF-8 in a cell is replaced by U+FFFD, so cells are always valid text.
Result<Table> parse(std::string_view text, std::string source);

enum class Need { optional, required };

/// Reads the typed cells of one row and keeps the first problem, worded for the person who edits the file:
/// "data/torch_builds.csv:5:12: cuda 'cu126' is not a version like 12.8". A loader reads a whole row, then
/// checks `result()` once; what a failed read returned (nullopt, "") must not be used.
/// An optional cell that is empty reads as nullopt; a required one that is empty is an error.
class CellReader {
 public:
  CellReader(const Table& table, const Row& row) : table_(table), row_(row) {}
  /// The trimmed cell ("" when empty and optional).
  std::string text(std::string_view column, Need need = Need::optional);
  /// A finite number within [min, max].
  std::optional<double> number(std::string_view column, double min, double max, Need need = Need::optional);
  /// A whole number (digits only) within [min, max].
  std::optional<uint64_t> whole(std::string_view column, uint64_t min, uint64_t max, Need need = Need::optional);
  /// Dotted numbers only (no suffix), with `min_parts` to `max_parts` parts; `example` shows the form ("12.8").
  std::optional<Version> version(std::string_view column, size_t min_parts, size_t max_parts, std::string_view example,
                                 Need need = Need::optional);
  /// "YYYY-MM-DD", or also "YYYY-MM" when `month_enough`.
  std::string date(std::string_view column, bool month_enough = false, Need need = Need::optional);
  /// One of `allowed` (always required).
  std::string one_of(std::string_view column, std::initializer_list<std::string_view> allowed);
  /// Records a problem with the cell: "WHERE: column 'value' <what>" (kept only if it is the first).
  void fail(std::string_view column, std::string_view what);
  bool ok() const { return !error_; }
  /// The first problem met, or success.
  Result<void> result() const;

 private:
  /// The trimmed cell, recording an error when it is required and empty.
  std::string_view raw(std::string_view column, Need need);
  const Table& table_;
  const Row& row_;
  std::optional<std::string> error_;
};

}  // namespace gpuscout::csv
