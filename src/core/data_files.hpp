#pragma once
/// The curated tables of data/ are embedded in the binary at build time; `--data DIR`
/// (or GPUSCOUT_DATA_DIR) replaces them with files on disk, file by file.
#include <cstdint>
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

/// Fails unless `dir` is an existing folder: "no such folder", "not a folder (...)" (the caller names DIR).
Result<void> check_data_dir(const std::string& dir);

}  // namespace gpuscout::core
