#include "cli/state.hpp"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "core/i18n.hpp"
#include "os/system.hpp"

namespace gpuscout::cli {
namespace {

std::optional<std::string> env(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::string(v);
}

std::optional<std::string> state_dir() {
  if (auto d = env("GPUSCOUT_STATE_DIR")) return d;
  if (auto x = env("XDG_STATE_HOME")) return *x + "/gpuscout";
  if (auto home = env("HOME")) return *home + "/.local/state/gpuscout";
  return std::nullopt;
}

}  // namespace

std::optional<std::string> last_bench_path() {
  auto dir = state_dir();
  if (!dir) return std::nullopt;
  return *dir + "/last-bench.json";
}

std::optional<std::string> keep_last_bench(std::string_view json_text) {
  const auto dir = state_dir();
  if (!dir) return std::string(tr("no state folder: neither GPUSCOUT_STATE_DIR, XDG_STATE_HOME nor HOME is set"));
  std::error_code ec;
  std::filesystem::create_directories(*dir, ec);
  if (ec) return *dir + ": " + ec.message();
  if (auto ok = os::write_file_atomic(*dir + "/last-bench.json", json_text); !ok) return ok.error().message;
  return std::nullopt;
}

}  // namespace gpuscout::cli
