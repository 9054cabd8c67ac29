#pragma once
/// The curated tables of data/ are embedded in the binary at build time; `--data DIR`
/// (or GPUSCOUT_DATA_DIR) replaces them with files on disk, file by file.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/csv.hpp"
#include "core/error.hpp"

namespace gpuscout::core {

struct EmbeddedFile {
  std::string_view name;
  std::string_view content;
};

/// Defined in the generated embedded_data.cpp.
const std::vector<EmbeddedFile>& embedded_data_files();

/// Sets the override directory ("" for none). Called once by the CLI before any table is read.
void set_data_dir(std::string dir);
/// The override directory in force: set_data_dir(), else $GPUSCOUT_DATA_DIR, else "".
std::string data_dir();

/// The largest override table read: the built-in ones are well under 100 KiB.
inline constexpr std::uintmax_t kDataTableMaxBytes = 16ull << 20;

/// The override directory's file for table `name` ("DIR/gpus.csv") when the directory has an entry of that name,
/// whatever it is (load_table refuses one that is not a regular file); nullopt when the built-in copy is used.
std::optional<std::string> override_path(std::string_view name);

/// Loads and parses a data table ("gpus.csv"): from the override directory when it has an entry of that
/// name (which must then be a regular file of at most kDataTableMaxBytes), else from the embedded copy.
/// Errors name the file, line and column.
Result<csv::Table> load_table(std::string_view name);

/// A table's rows as a loader made them, or the first problem (then no rows): what a module keeps, read once.
template <typename Row>
struct LoadedRows {
  std::vector<Row> rows;
  std::string error;  ///< "" when the table loaded
};

/// Loads table `name`, checks that it has `columns`, and makes each row with `read(cells)`; the first problem of
/// the file, a missing column or a cell (CellReader::result) is the error.
template <typename Row, typename Read>
LoadedRows<Row> load_rows(std::string_view name, std::initializer_list<std::string_view> columns, Read read) {
  auto table = load_table(name);
  if (!table) return {{}, table.error().message};
  if (auto ok = table->require_columns(std::vector<std::string>(columns.begin(), columns.end())); !ok) return {{}, ok.error().message};
  LoadedRows<Row> out;
  for (const auto& r : table->rows()) {
    csv::CellReader cells(*table, r);
    Row row = read(cells);
    if (auto ok = cells.result(); !ok) return {{}, ok.error().message};
    out.rows.push_back(std::move(row));
  }
  return out;
}

/// Fails unless `dir` is an existing folder: "no such folder", "not a folder (...)" (the caller names DIR).
Result<void> check_data_dir(const std::string& dir);

}  // namespace gpuscout::core
