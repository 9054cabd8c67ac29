#pragma once
/// End-to-end helpers: run the real gpuscout binary with a controlled environment and read its output.
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"

namespace e2e {

struct Run {
  int exit_code = -1;
  bool timed_out = false;
  std::string out;
  std::string err;
  /// stdout parsed as JSON; fails the current test (and returns null) when it is not valid JSON.
  nlohmann::json json() const;
};

/// Runs GPUSCOUT_BIN with args. The environment is the test's, plus `env` (a value of "<unset>" removes
/// the variable). By default the driver libraries are pointed at paths that do not exist
/// (GPUSCOUT_NVML_LIBRARY, GPUSCOUT_CUDA_LIBRARY), GPUSCOUT_SYSROOT, VIRTUAL_ENV and CONDA_PREFIX (the developer's
/// active environments) are removed and --no-python behaviour is not forced; pass entries in `env` to override.
/// `cwd`, when given, is the working directory gpuscout runs in.
Run run_gpuscout(const std::vector<std::string>& args, std::map<std::string, std::string> env = {},
                 int timeout_ms = 60000, const std::string& cwd = "");

/// Environment for the fake drivers with a scenario file from tests/fakes/scenarios ("rtx4090" -> rtx4090.json).
std::map<std::string, std::string> fake_driver_env(const std::string& scenario, bool old_driver = false);
/// Environment for a fake torch scenario from tests/fakes/scenarios/torch ("cu121-ok").
std::map<std::string, std::string> fake_torch_env(const std::string& scenario);
/// GPUSCOUT_SYSROOT for a recorded machine in tests/fakes/sysroots.
std::map<std::string, std::string> sysroot_env(const std::string& name);
/// Merges environment maps (later ones win).
std::map<std::string, std::string> merge(std::initializer_list<std::map<std::string, std::string>> parts);

/// The finding of `code` in a doctor --json document's verdict, or null.
const nlohmann::json* finding(const nlohmann::json& doc, const std::string& code);

/// A fresh temporary directory, removed at process exit.
std::string temp_dir();

/// The saved benches in tests/fakes/bench: one with the fake CUDA plugin, one CPU-only.
inline const std::string kGpuBench = std::string(GPUSCOUT_SOURCE_DIR) + "/tests/fakes/bench/rtx4090-fake-plugin.json";
inline const std::string kCpuBench = std::string(GPUSCOUT_SOURCE_DIR) + "/tests/fakes/bench/cpu-only-zen5-vm.json";
/// A whole file's bytes ("" when it cannot be read: the caller's assertion says what was expected).
std::string read_file(const std::string& path);
/// Writes `content` to NAME in temp_dir(); returns the file's path.
std::string write_temp_file(const std::string& name, const std::string& content);

/// The variables that choose gpuscout's language, removed: the run speaks English whatever the test's environment.
inline const std::map<std::string, std::string> kNoLocale = {
    {"LANGUAGE", "<unset>"}, {"LC_ALL", "<unset>"}, {"LC_MESSAGES", "<unset>"}, {"LANG", "<unset>"}};

/// True when `part` occurs in `text`.
inline bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }
/// How many times `what` occurs in `text`, overlapping occurrences included.
std::size_t occurrences(std::string_view text, std::string_view what);

/// Every message, fix and the install line of a doctor --json document's verdict, as one text to search.
std::string all_advice(const nlohmann::json& doc);
/// The codes of a doctor --json document's findings.
/// The command of the verdict's PyTorch step (verdict.plan.steps[kind == "torch"]); "" when the plan has none.
std::string torch_command(const nlohmann::json& doc);
std::set<std::string> finding_codes(const nlohmann::json& doc);

}  // namespace e2e
