// Which interpreter to ask about PyTorch: the one the user's own `python` would be (an activated venv or conda
// environment, a project's .venv, else PATH), and, when it has no torch, the other interpreters they may mean.
// This file holds the rules every platform shares and POSIX's own; python_select_windows.cpp holds Windows'.
#include "probe/python_select.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <regex>
#include <system_error>

#include "core/path.hpp"
#include "core/text.hpp"
#include "core/version.hpp"
#include "os/process.hpp"
#include "os/system.hpp"
#include "probe/python_select_detail.hpp"

namespace gpuscout::probe {
namespace {

namespace fs = std::filesystem;

class MachineFiles final : public PythonFiles {
 public:
  bool is_executable(const std::string& path) const override { return os::is_executable_file(path); }
  std::optional<uint64_t> size(const std::string& path) const override {
    std::error_code ec;
    const auto n = fs::file_size(core::to_path(path), ec);
    return ec ? std::nullopt : std::optional<uint64_t>(n);
  }
  bool is_file(const std::string& path) const override {
    std::error_code ec;
    return fs::is_regular_file(core::to_path(path), ec);
  }
  std::vector<std::string> list(const std::string& dir) const override {
    std::vector<std::string> out;
    std::error_code ec;
    for (fs::directory_iterator it(core::to_path(dir), ec), end; !ec && it != end; it.increment(ec))
      out.push_back(core::from_path(it->path().filename()));
    std::sort(out.begin(), out.end());
    return out;
  }
  std::string resolve(const std::string& path) const override {
    std::error_code ec;
    auto file = fs::canonical(core::to_path(path), ec);
    if (!ec) return core::from_path(file);
    // A Windows App Execution Alias is a reparse point that cannot be opened, only run: itself, then.
    return host_python_platform() == PythonPlatform::windows && is_executable(path) ? path : std::string();
  }
};

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

/// DIR/bin/python when DIR is set and that is an executable file.
std::optional<std::string> python_in(const PythonEnvironment& env, const std::string& dir) {
  if (dir.empty()) return std::nullopt;
  std::string exe = dir + "/bin/python";
  if (!detail::files_of(env).is_executable(exe)) return std::nullopt;
  return exe;
}

std::string dot_venv(const PythonEnvironment& env) { return env.cwd.empty() ? std::string() : env.cwd + "/.venv"; }

/// The rules after --python and GPUSCOUT_PYTHON, in order: (rule name, interpreter) for those that name one.
std::vector<PythonChoice> environment_rules(const PythonEnvironment& env) {
  std::vector<PythonChoice> out;
  if (env.recorded_machine) return out;
  const std::pair<const char*, std::string> dirs[] = {
      {"VIRTUAL_ENV", env.virtual_env}, {"CONDA_PREFIX", env.conda_prefix}, {".venv", dot_venv(env)}};
  for (const auto& [rule, dir] : dirs)
    if (auto exe = python_in(env, dir)) out.push_back({*exe, rule, std::nullopt, std::nullopt});
  return out;
}

std::string pyenv_root(const PythonEnvironment& env) {
  if (!env.pyenv_root.empty()) return env.pyenv_root;
  return env.home.empty() ? std::string() : env.home + "/.pyenv";
}

/// The entries of a folder that holds one prefix per entry (conda's envs, pyenv's versions), as paths, sorted.
std::vector<std::string> folders_in(const PythonEnvironment& env, const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& name : detail::files_of(env).list(dir)) out.push_back(dir + "/" + name);
  return out;
}

/// pyenv's versions, newest first ("3.13.0" before "3.9.18", which a name sort would not give).
std::vector<std::string> pyenv_versions(const PythonEnvironment& env) {
  const std::string root = pyenv_root(env);
  if (root.empty()) return {};
  auto dirs = folders_in(env, root + "/versions");
  std::stable_sort(dirs.begin(), dirs.end(), [](const std::string& a, const std::string& b) {
    const auto va = Version::parse(fs::path(a).filename().string());
    const auto vb = Version::parse(fs::path(b).filename().string());
    if (va && vb) return *vb < *va;
    return va.has_value() && !vb.has_value();
  });
  std::vector<std::string> out;
  for (const auto& d : dirs) out.push_back(d + "/bin/python");
  return out;
}

std::vector<std::string> conda_pythons(const PythonEnvironment& env) {
  std::vector<std::string> roots;
  if (!env.home.empty())
    for (const char* name : {"/miniconda3", "/anaconda3", "/miniforge3"}) roots.push_back(env.home + name);
  roots.push_back("/opt/conda");
  std::vector<std::string> out;
  for (const auto& root : roots) {
    out.push_back(root + "/bin/python");
    for (const auto& e : folders_in(env, root + "/envs")) out.push_back(e + "/bin/python");
  }
  return out;
}

/// pyenv's shims (and pyenv-virtualenv's) run whichever of its versions is selected: the versions themselves are
/// listed instead.
bool is_pyenv_shims(std::string_view dir) {
  return dir.ends_with("/shims") && dir.find("pyenv") != std::string_view::npos;
}

std::vector<std::string> path_pythons(const PythonEnvironment& env) {
  static const std::regex name(R"(python(3(\.[0-9]+)?)?)");
  std::vector<std::string> out;
  for (auto dir : text::split(env.path, ':')) {
    if (dir.empty() || is_pyenv_shims(dir)) continue;
    std::vector<std::string> names;
    for (const auto& file : detail::files_of(env).list(std::string(dir)))
      if (std::regex_match(file, name)) names.push_back(std::string(dir) + "/" + file);
    // python3 before python3.12 before python: the name a user types first.
    std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
      const bool a_bare = a.ends_with("/python"), b_bare = b.ends_with("/python");
      return a_bare != b_bare ? b_bare : a < b;
    });
    out.insert(out.end(), names.begin(), names.end());
  }
  return out;
}

std::vector<std::string> posix_other_candidates(const PythonEnvironment& env) {
  std::vector<std::string> candidates;
  for (const auto& rule : environment_rules(env)) candidates.push_back(rule.executable);
  for (auto& p : path_pythons(env)) candidates.push_back(std::move(p));
  candidates.push_back("/usr/bin/python3");
  candidates.push_back("/usr/local/bin/python3");
  for (auto& p : conda_pythons(env)) candidates.push_back(std::move(p));
  for (auto& p : pyenv_versions(env)) candidates.push_back(std::move(p));
  return candidates;
}

PythonChoice choose_posix_python(const PythonEnvironment& env) {
  if (auto rules = environment_rules(env); !rules.empty()) return rules.front();
  if (auto found = os::find_program("python3", env.path)) return {*found, "PATH", std::nullopt, std::nullopt};
  return {"python3", "PATH", std::nullopt, std::nullopt};
}

std::string posix_identity(const PythonEnvironment& env, const std::string& path) {
  const auto& files = detail::files_of(env);
  const fs::path p(path);
  // A venv (PEP 405): pyvenv.cfg beside bin/ or in it.
  const fs::path bin = p.parent_path();
  for (const fs::path& dir : {bin.parent_path(), bin})
    if (files.is_file((dir / "pyvenv.cfg").string()))
      if (auto venv = files.resolve(dir.string()); !venv.empty()) return "venv:" + venv;
  return files.resolve(path);
}

}  // namespace

const PythonFiles& this_machine_files() {
  static const MachineFiles files;
  return files;
}

const PythonFiles& detail::files_of(const PythonEnvironment& env) {
  return env.files ? *env.files : this_machine_files();
}

PythonEnvironment python_environment(std::string flag) {
  PythonEnvironment env;
  env.flag = std::move(flag);
  env.gpuscout_python = env_or_empty("GPUSCOUT_PYTHON");
  env.virtual_env = env_or_empty("VIRTUAL_ENV");
  env.conda_prefix = env_or_empty("CONDA_PREFIX");
  env.path = env_or_empty("PATH");
  env.pyenv_root = env_or_empty("PYENV_ROOT");
  if (env.platform == PythonPlatform::windows) {
    env.home = env_or_empty("USERPROFILE");
    env.local_app_data = env_or_empty("LOCALAPPDATA");
    env.program_files = env_or_empty("ProgramFiles");
    env.system_root = env_or_empty("SystemRoot");
  } else {
    env.home = env_or_empty("HOME");
  }
  std::error_code ec;
  env.cwd = core::from_path(fs::current_path(ec));
  env.recorded_machine = !os::sysroot().empty();
  return env;
}

PythonChoice choose_python(const PythonEnvironment& env) {
  if (env.platform == PythonPlatform::windows) return detail::choose_windows_python(env);
  if (!env.flag.empty()) return {env.flag, "--python", std::nullopt, std::nullopt};
  if (!env.gpuscout_python.empty()) return {env.gpuscout_python, "GPUSCOUT_PYTHON", std::nullopt, std::nullopt};
  return choose_posix_python(env);
}

std::string interpreter_identity(const PythonEnvironment& env, const std::string& path) {
  return env.platform == PythonPlatform::windows ? detail::windows_identity(env, path) : posix_identity(env, path);
}

std::string interpreter_identity(const std::string& path) { return interpreter_identity(PythonEnvironment{}, path); }

std::vector<std::string> other_pythons(const PythonEnvironment& env, const std::vector<std::string>& exclude,
                                       size_t limit) {
  if (env.recorded_machine) return {};
  const auto candidates =
      env.platform == PythonPlatform::windows ? detail::windows_other_candidates(env) : posix_other_candidates(env);
  std::vector<std::string> seen;
  for (const auto& e : exclude)
    if (auto id = interpreter_identity(env, e); !id.empty()) seen.push_back(id);
  std::vector<std::string> out;
  for (const auto& c : candidates) {
    if (out.size() >= limit) break;
    if (!detail::files_of(env).is_executable(c)) continue;
    const std::string id = interpreter_identity(env, c);
    if (id.empty() || std::find(seen.begin(), seen.end(), id) != seen.end()) continue;
    seen.push_back(id);
    out.push_back(c);
  }
  return out;
}

}  // namespace gpuscout::probe
