#include "core/data_files.hpp"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "core/user_file.hpp"

namespace gpuscout::core {
namespace {
std::string& override_dir() {
  static std::string dir;
  return dir;
}
bool& override_set() {
  static bool set = false;
  return set;
}
}  // namespace

void set_data_dir(std::string dir) {
  override_dir() = std::move(dir);
  override_set() = true;
}

std::string data_dir() {
  if (override_set()) return override_dir();
  const char* env = std::getenv("GPUSCOUT_DATA_DIR");
  return env ? std::string(env) : std::string();
}

std::optional<std::string> override_path(std::string_view name) {
  const std::string dir = data_dir();
  if (dir.empty()) return std::nullopt;
  const std::string path = dir + "/" + std::string(name);
  std::error_code ec;
  // Only a name that is not there at all falls back to the built-in copy: a FIFO, a folder, a link to
  // /dev/zero or a dangling link is the user's mistake, reported by read_user_file.
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) return std::nullopt;
  return path;
}

Result<csv::Table> load_table(std::string_view name) {
  const std::string dir = data_dir();
  if (const auto path = override_path(name)) {
    auto text = read_user_file(*path, kDataTableMaxBytes);
    if (!text) return std::unexpected(text.error());
    return csv::parse(*text, *path);
  }
  for (const auto& file : embedded_data_files())
    if (file.name == name) return csv::parse(file.content, "data/" + std::string(name));
  return fail(fmt::format("data table {} is neither in the data directory '{}' nor built in", name, dir));
}

Result<void> check_data_dir(const std::string& dir) {
  std::error_code ec;
  const auto status = std::filesystem::status(dir, ec);
  if (!std::filesystem::exists(status)) return fail("no such folder");
  if (!std::filesystem::is_directory(status)) return fail("not a folder (it must name the folder that holds the tables)");
  return {};
}

}  // namespace gpuscout::core
