#include "e2e_support.hpp"

#include <sstream>
#include <fstream>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

#include <gtest/gtest.h>

#include "os/process.hpp"

namespace e2e {

nlohmann::json Run::json() const {
  try {
    return nlohmann::json::parse(out);
  } catch (const nlohmann::json::exception& e) {
    ADD_FAILURE() << "stdout is not valid JSON: " << e.what() << "\n--- stdout ---\n" << out << "\n--- stderr ---\n" << err;
    return nullptr;
  }
}

Run run_gpuscout(const std::vector<std::string>& args, std::map<std::string, std::string> env, int timeout_ms,
                 const std::string& cwd) {
  std::map<std::string, std::string> full = {
      {"GPUSCOUT_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1"},
      {"GPUSCOUT_CUDA_LIBRARY", "/nonexistent/libcuda.so.1"},
      {"GPUSCOUT_SYSROOT", "<unset>"},
      {"VIRTUAL_ENV", "<unset>"},
      {"CONDA_PREFIX", "<unset>"},
      {"NO_COLOR", "1"},
      {"GPUSCOUT_TODAY", "2026-12-02"},  // the stale-table warnings must not change the goldens as time passes
      // bench keeps its last result for report: never in the developer's home folder.
      {"GPUSCOUT_STATE_DIR", "/tmp/gpuscout-e2e-state-" + std::to_string(::getpid())},
  };
  for (auto& [k, v] : env) full[k] = v;
  // os::run has no "unset"; run through env(1) -u so the child really lacks the variable.
  std::vector<std::string> argv = {"env"};
  if (!cwd.empty()) {
    argv.push_back("-C");
    argv.push_back(cwd);
  }
  std::map<std::string, std::string> set;
  for (auto& [k, v] : full) {
    if (v == "<unset>") {
      argv.push_back("-u");
      argv.push_back(k);
    } else {
      set[k] = v;
    }
  }
  argv.push_back(GPUSCOUT_BIN);
  argv.insert(argv.end(), args.begin(), args.end());
  Run run;
  auto result = gpuscout::os::run(argv, std::chrono::milliseconds(timeout_ms), set);
  if (!result) {
    ADD_FAILURE() << "cannot run gpuscout: " << result.error().message;
    return run;
  }
  run.exit_code = result->exit_code;
  run.timed_out = result->timed_out;
  run.out = result->out;
  run.err = result->err;
  return run;
}

std::map<std::string, std::string> fake_driver_env(const std::string& scenario, bool old_driver) {
  const std::string dir = old_driver ? GPUSCOUT_FAKE_OLD_LIB_DIR : GPUSCOUT_FAKE_LIB_DIR;
  return {{"LD_LIBRARY_PATH", dir},
          {"GPUSCOUT_NVML_LIBRARY", "<unset>"},
          {"GPUSCOUT_CUDA_LIBRARY", "<unset>"},
          {"GPUSCOUT_FAKE_SCENARIO", std::string(GPUSCOUT_SCENARIOS_DIR) + "/" + scenario + ".json"}};
}

std::map<std::string, std::string> fake_torch_env(const std::string& scenario) {
  return {{"PYTHONPATH", GPUSCOUT_FAKE_PYTHONPATH},
          {"GPUSCOUT_FAKE_TORCH", std::string(GPUSCOUT_SCENARIOS_DIR) + "/torch/" + scenario + ".json"}};
}

std::map<std::string, std::string> sysroot_env(const std::string& name) {
  return {{"GPUSCOUT_SYSROOT", std::string(GPUSCOUT_SYSROOTS_DIR) + "/" + name}};
}

std::map<std::string, std::string> merge(std::initializer_list<std::map<std::string, std::string>> parts) {
  std::map<std::string, std::string> out;
  for (const auto& p : parts)
    for (const auto& [k, v] : p) out[k] = v;
  return out;
}

const nlohmann::json* finding(const nlohmann::json& doc, const std::string& code) {
  for (const auto& f : doc["verdict"]["findings"])
    if (f["code"] == code) return &f;
  return nullptr;
}

std::string temp_dir() {
  static std::vector<std::filesystem::path> made;
  static const bool registered = [] {
    std::atexit([] {
      std::error_code ec;
      for (const auto& p : made) std::filesystem::remove_all(p, ec);
    });
    return true;
  }();
  (void)registered;
  std::string pattern = (std::filesystem::temp_directory_path() / "gpuscout-e2e-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) {
    ADD_FAILURE() << "mkdtemp failed";
    return "/tmp";
  }
  made.emplace_back(pattern);
  return pattern;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

std::string write_temp_file(const std::string& name, const std::string& content) {
  const std::string path = temp_dir() + "/" + name;
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

std::size_t occurrences(std::string_view text, std::string_view what) {
  std::size_t n = 0;
  for (size_t at = text.find(what); at != std::string_view::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::string all_advice(const nlohmann::json& doc) {
  const auto& v = doc["verdict"];
  std::string out = torch_command(doc);
  for (const auto& s : v["plan"]["steps"]) out += "\n" + s["action"].get<std::string>();
  for (const auto& f : v["findings"]) out += "\n" + f["message"].get<std::string>() + "\n" + f["fix"].get<std::string>();
  return out;
}

std::string torch_command(const nlohmann::json& doc) {
  for (const auto& s : doc["verdict"]["plan"]["steps"])
    if (s["kind"] == "torch" && s["command"].is_string()) return s["command"].get<std::string>();
  return "";
}

std::set<std::string> finding_codes(const nlohmann::json& doc) {
  std::set<std::string> out;
  for (const auto& f : doc["verdict"]["findings"]) out.insert(f["code"].get<std::string>());
  return out;
}

}  // namespace e2e
