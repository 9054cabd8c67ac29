// Windows' rules for choosing an interpreter, compiled on every OS so Linux tests them over a Windows machine laid
// out by hand: venvs keep python.exe in Scripts\, conda in the prefix itself, PATH is ';'-separated and compared
// without case, the py launcher lists the installed interpreters, and the Microsoft Store's python.exe stub on
// PATH opens the Store instead of running Python.
#include <algorithm>
#include <regex>

#include "core/i18n.hpp"
#include "core/text.hpp"
#include "os/process.hpp"
#include "probe/python_select.hpp"
#include "probe/python_select_detail.hpp"
#include "probe/windows_path.hpp"

namespace gpuscout::probe {
namespace {

using namespace winpath;

/// %LOCALAPPDATA%\Microsoft\WindowsApps: where Windows puts App Execution Aliases, zero-byte reparse points that
/// run a Store package (see docs/json.md, "Which Python").
bool is_windows_apps(std::string_view dir) { return iends_with(fold(dir), "\\microsoft\\windowsapps"); }

bool listed(const PythonFiles& files, const std::string& dir, std::string_view name) {
  const auto names = files.list(dir);
  return std::any_of(names.begin(), names.end(), [&](const std::string& n) { return same(n, name); });
}

/// An installed Store Python (PythonSoftwareFoundation.Python.3.12_qbz5n2kfra8p0) or the Python install manager
/// (PythonSoftwareFoundation.PythonManager_...) keeps an alias folder named after its package there: then the
/// folder's python.exe runs that Python rather than opening the Store.
bool python_package_installed(const PythonFiles& files, const std::string& dir) {
  const auto names = files.list(dir);
  return std::any_of(names.begin(), names.end(),
                     [](const std::string& n) { return istarts_with(n, "PythonSoftwareFoundation."); });
}

/// The Store's stub: `name` in WindowsApps with no bytes (or no size that can be read: an alias cannot be opened),
/// and no Python package that it would run.
bool is_store_stub(const PythonFiles& files, const std::string& dir, std::string_view name) {
  if (!is_windows_apps(dir)) return false;
  const std::string exe = join(dir, name);
  if (!files.is_executable(exe) && !listed(files, dir, name)) return false;
  const auto size = files.size(exe);
  if (size && *size > 0) return false;
  return !python_package_installed(files, dir);
}

/// What `python` typed in a terminal would run: python.exe in the first PATH folder that has one, else python3.exe;
/// and the Store's stub when PATH reaches it before either.
struct PathLookup {
  std::optional<std::string> python;
  std::optional<std::string> store_alias;
};

PathLookup look_up_path(const PythonEnvironment& env) {
  const auto& files = detail::files_of(env);
  PathLookup hit;
  const auto dirs = split_path_list(env.path);
  for (const char* name : {"python.exe", "python3.exe"})
    for (const auto& dir : dirs) {
      if (is_store_stub(files, dir, name)) {
        if (!hit.store_alias) hit.store_alias = join(dir, name);
        continue;
      }
      if (std::string exe = join(dir, name); files.is_executable(exe)) {
        hit.python = std::move(exe);
        return hit;
      }
    }
  return hit;
}

std::string venv_python(const std::string& venv) { return venv.empty() ? venv : join(join(venv, "Scripts"), "python.exe"); }

/// The rules after --python and GPUSCOUT_PYTHON that name an executable file, in order.
std::vector<PythonChoice> windows_environment_rules(const PythonEnvironment& env) {
  std::vector<PythonChoice> out;
  if (env.recorded_machine) return out;
  const std::pair<const char*, std::string> rules[] = {
      {"VIRTUAL_ENV", venv_python(env.virtual_env)},
      {"CONDA_PREFIX", env.conda_prefix.empty() ? std::string() : join(env.conda_prefix, "python.exe")},
      {".venv", env.cwd.empty() ? std::string() : venv_python(join(env.cwd, ".venv"))}};
  for (const auto& [rule, exe] : rules)
    if (!exe.empty() && detail::files_of(env).is_executable(exe)) out.push_back({exe, rule, std::nullopt, std::nullopt});
  return out;
}

/// python.exe, python3.exe and python3.N.exe in each PATH folder, in that order; none of the Store's stubs.
std::vector<std::string> windows_path_pythons(const PythonEnvironment& env) {
  static const std::regex name(R"(python(3(\.[0-9]+)?)?\.exe)", std::regex::icase);
  const auto& files = detail::files_of(env);
  std::vector<std::string> out;
  for (const auto& dir : split_path_list(env.path)) {
    if (is_windows_apps(dir) && !python_package_installed(files, dir)) continue;
    std::vector<std::string> names;
    for (const auto& file : files.list(dir))
      if (std::regex_match(file, name)) names.push_back(file);
    const auto rank = [](const std::string& n) { return same(n, "python.exe") ? 0 : same(n, "python3.exe") ? 1 : 2; };
    std::sort(names.begin(), names.end(), [&](const std::string& a, const std::string& b) {
      return rank(a) != rank(b) ? rank(a) < rank(b) : fold(a) < fold(b);
    });
    for (const auto& n : names) out.push_back(join(dir, n));
  }
  return out;
}

/// The entries of `dir` named `prefix` then a number ("Python312", "pythoncore-3.14-64"), largest number first:
/// each as dir\ENTRY\python.exe.
void add_versioned(const PythonFiles& files, const std::string& dir, std::string_view prefix,
                   std::vector<std::string>& out) {
  std::vector<std::pair<long long, std::string>> found;
  for (const auto& entry : files.list(dir)) {
    if (!istarts_with(entry, prefix)) continue;
    const std::string_view rest = std::string_view(entry).substr(prefix.size());
    const size_t digits = std::min(rest.find_first_not_of("0123456789"), rest.size());
    if (auto minor = text::parse_int(rest.substr(0, digits)); minor && digits > 0 && digits <= 3)
      found.emplace_back(*minor, entry);
  }
  std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [minor, entry] : found) out.push_back(join(join(dir, entry), "python.exe"));
}

std::string not_found_reason(const std::optional<std::string>& store_alias) {
  if (store_alias)
    return trf("Python is not installed: `python` here is the Microsoft Store's app execution alias ({}), which "
               "opens the Store instead of running Python.",
               *store_alias);
  return tr("Python is not installed: there is no python.exe on PATH, no py launcher and none in the usual "
            "install folders.");
}

}  // namespace

PythonChoice detail::choose_windows_python(const PythonEnvironment& env) {
  const auto& files = files_of(env);
  // The stub is a fact about PATH whichever rule chooses: `python` typed in a terminal there opens the Store.
  const PathLookup path = look_up_path(env);
  const auto chosen = [&](std::string exe, std::string rule) {
    return PythonChoice{std::move(exe), std::move(rule), path.store_alias, std::nullopt};
  };
  if (!env.flag.empty()) return chosen(env.flag, "--python");
  if (!env.gpuscout_python.empty()) return chosen(env.gpuscout_python, "GPUSCOUT_PYTHON");
  if (auto rules = windows_environment_rules(env); !rules.empty()) return chosen(rules.front().executable, rules.front().selected_by);
  if (path.python) return chosen(*path.python, "PATH");
  if (!env.recorded_machine) {
    if (auto py = find_py_launcher(env)) return chosen(*py, "py");
    for (const auto& exe : windows_install_pythons(env, false))
      if (files.is_executable(exe)) return chosen(exe, "install-folder");
  }
  // Nothing to run: starting "python" would reach the stub and open the Store.
  return PythonChoice{"python", "PATH", path.store_alias, not_found_reason(path.store_alias)};
}

std::vector<std::string> detail::windows_other_candidates(const PythonEnvironment& env) {
  std::vector<std::string> out;
  for (const auto& rule : windows_environment_rules(env)) out.push_back(rule.executable);
  for (auto& p : windows_path_pythons(env)) out.push_back(std::move(p));
  out.insert(out.end(), env.py_launcher_pythons.begin(), env.py_launcher_pythons.end());
  for (auto& p : windows_install_pythons(env, true)) out.push_back(std::move(p));
  return out;
}

std::string detail::windows_identity(const PythonEnvironment& env, const std::string& path) {
  const auto& files = files_of(env);
  // A venv (PEP 405): pyvenv.cfg beside Scripts\ or in it.
  const std::string scripts(parent(path));
  for (const std::string& dir : {std::string(parent(scripts)), scripts})
    if (!dir.empty() && files.is_file(join(dir, "pyvenv.cfg"))) {
      const std::string venv = files.resolve(dir);
      return "venv:" + fold(venv.empty() ? dir : venv);
    }
  const std::string file = files.resolve(path);
  return file.empty() ? file : fold(file);
}

std::vector<PyLauncherEntry> parse_py_launcher_list(std::string_view output) {
  // Text past the bounds is not read. A launcher writing UTF-16 to the pipe: its BOM dropped, and plain ASCII then
  // loses its NULs in clean_utf8 (other text turns to U+FFFD, and that path fails its file test later).
  output = output.substr(0, std::min(output.size(), kMaxPyLauncherBytes));
  for (std::string_view bom : {std::string_view("\xff\xfe"), std::string_view("\xef\xbb\xbf")})
    if (output.starts_with(bom)) output.remove_prefix(bom.size());
  const std::string text = text::clean_utf8(output);
  std::vector<PyLauncherEntry> out;
  size_t lines = 0;
  for (auto line : text::split(text, '\n')) {
    if (++lines > kMaxPyLauncherLines) break;
    line = text::trim(line);  // and the '\r' of CRLF
    // The path starts at its drive letter ("C:\") or at a UNC "\\"; the tag and the marks are before it.
    size_t at = std::string_view::npos;
    for (size_t i = 0; i < line.size() && at == std::string_view::npos; ++i)
      if (is_absolute(line.substr(i)) && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) at = i;
    if (at == std::string_view::npos) continue;
    std::string_view exe = line.substr(at);
    bool is_default = false;
    if (exe.ends_with(" *")) {  // older launchers mark the default after the path
      is_default = true;
      exe = text::trim(exe.substr(0, exe.size() - 2));
    }
    if (!iends_with(exe, ".exe")) continue;
    std::string_view tag = text::trim(line.substr(0, at));
    if (tag.ends_with('*')) {
      is_default = true;
      tag = text::trim(tag.substr(0, tag.size() - 1));
    }
    if (tag.starts_with("-V:")) tag.remove_prefix(3);
    else if (tag.starts_with('-')) tag.remove_prefix(1);
    out.push_back({std::string(tag), std::string(exe), is_default});
  }
  return out;
}

std::optional<std::string> find_py_launcher(const PythonEnvironment& env) {
  const auto& files = detail::files_of(env);
  std::vector<std::string> candidates;
  for (const auto& dir : split_path_list(env.path)) candidates.push_back(join(dir, "py.exe"));
  if (!env.system_root.empty()) candidates.push_back(join(env.system_root, "py.exe"));
  if (!env.local_app_data.empty()) candidates.push_back(join(env.local_app_data, "Programs\\Python\\Launcher\\py.exe"));
  for (auto& c : candidates)
    if (files.is_executable(c)) return std::move(c);
  return std::nullopt;
}

std::vector<std::string> list_py_launcher(const std::string& py, std::chrono::milliseconds timeout) {
  auto r = os::run({py, "-0p"}, timeout);
  if (!r || r->timed_out || r->exit_code != 0) return {};
  std::vector<std::string> out;
  for (auto& entry : parse_py_launcher_list(r->out)) out.push_back(std::move(entry.executable));
  return out;
}

std::vector<std::string> windows_install_pythons(const PythonEnvironment& env, bool with_conda_envs) {
  const auto& files = detail::files_of(env);
  std::vector<std::string> out;
  if (!env.local_app_data.empty()) {
    add_versioned(files, join(env.local_app_data, "Programs\\Python"), "Python3", out);
    add_versioned(files, join(env.local_app_data, "Python"), "pythoncore-3.", out);
  }
  if (!env.program_files.empty()) add_versioned(files, env.program_files, "Python3", out);
  if (env.home.empty()) return out;
  for (const char* name : {"anaconda3", "miniconda3", "miniforge3"}) {
    const std::string root = join(env.home, name);
    out.push_back(join(root, "python.exe"));
    if (!with_conda_envs) continue;
    const std::string envs = join(root, "envs");
    for (const auto& e : files.list(envs)) out.push_back(join(join(envs, e), "python.exe"));
  }
  return out;
}

}  // namespace gpuscout::probe
