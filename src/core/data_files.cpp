#include "core/data_files.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

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

Result<csv::Table> load_table(std::string_view name) {
  const std::string dir = data_dir();
  if (!dir.empty()) {
    const std::string path = dir + "/" + std::string(name);
    std::ifstream in(path, std::ios::binary);
    if (in) {
      std::ostringstream buffer;
      buffer << in.rdbuf();
      return csv::parse(buffer.str(), path);
    }
  }
  for (const auto& file : embedded_data_files())
    if (file.name == name) return csv::parse(file.content, "data/" + std::string(name));
  return fail(fmt::format("data table {} is neither in the data directory '{}' nor built in", name, dir));
}

}  // namespace gpuscout::core
