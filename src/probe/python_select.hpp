#pragma once
/// Which Python interpreter to ask about PyTorch, and which others to ask when it has none. Pure over a
/// PythonEnvironment (the variables and folders that decide it, gathered once, the platform whose rules apply, and
/// the file-system questions it may ask), so tests build an environment by hand, a Windows one on Linux included.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscout::probe {

/// Whose rules choose: Linux and macOS lay interpreters out as bin/python, Windows as python.exe and Scripts\.
enum class PythonPlatform { posix, windows };

/// The platform this build runs on.
constexpr PythonPlatform host_python_platform() {
#ifdef _WIN32
  return PythonPlatform::windows;
#else
  return PythonPlatform::posix;
#endif
}

/// The file-system questions choosing an interpreter asks. this_machine_files() answers them here (file tests
/// through the os seam); tests answer them for a machine laid out by hand.
class PythonFiles {
 public:
  virtual ~PythonFiles() = default;
  /// An existing regular file this user may run (on Windows: one ending .exe).
  virtual bool is_executable(const std::string& path) const = 0;
  /// Its size in bytes, as the folder lists it; nullopt when it cannot be read.
  virtual std::optional<uint64_t> size(const std::string& path) const = 0;
  /// A regular file (a venv's pyvenv.cfg).
  virtual bool is_file(const std::string& path) const = 0;
  /// The names in a folder, sorted; empty when it cannot be read.
  virtual std::vector<std::string> list(const std::string& dir) const = 0;
  /// The path with its links resolved; "" when it does not exist.
  virtual std::string resolve(const std::string& path) const = 0;
};
const PythonFiles& this_machine_files();

/// What choosing an interpreter reads; every field may be empty.
struct PythonEnvironment {
  PythonPlatform platform = host_python_platform();
  const PythonFiles* files = nullptr;  ///< nullptr: this machine's (this_machine_files())
  std::string flag;             ///< --python (already checked by the CLI)
  std::string gpuscout_python;  ///< $GPUSCOUT_PYTHON: taken as given (a path, or a name looked up on PATH)
  std::string virtual_env;      ///< $VIRTUAL_ENV (an activated venv)
  std::string conda_prefix;     ///< $CONDA_PREFIX (an activated conda environment)
  std::string path;             ///< $PATH (':'-separated; ';' on Windows)
  std::string home;             ///< $HOME (pyenv and conda roots); %USERPROFILE% on Windows
  std::string pyenv_root;       ///< $PYENV_ROOT (default ~/.pyenv)
  std::string cwd;              ///< the working directory (./.venv, as uv and poetry make it)
  // Windows only:
  std::string local_app_data;   ///< %LOCALAPPDATA% (per-user installs, the py launcher, the Store's aliases)
  std::string program_files;    ///< %ProgramFiles% (installs for all users)
  std::string system_root;      ///< %SystemRoot% (where older py launchers put py.exe)
  /// The interpreters the py launcher lists (`py -0p`, see list_py_launcher), set before the others are searched.
  std::vector<std::string> py_launcher_pythons;
  /// Under GPUSCOUT_SYSROOT the machine is a recording: this host's activated environments and interpreters are
  /// not its own, so only --python, GPUSCOUT_PYTHON and PATH choose, and no others are searched.
  bool recorded_machine = false;
};

/// The process's own environment and working directory.
PythonEnvironment python_environment(std::string flag);

struct PythonChoice {
  /// What to run: a path, or "python3" when PATH has none (starting it then fails).
  std::string executable;
  /// "--python", "GPUSCOUT_PYTHON", "VIRTUAL_ENV", "CONDA_PREFIX", ".venv", "PATH"; on Windows also "py" (the py
  /// launcher) and "install-folder" (an interpreter in a usual install folder that PATH does not reach).
  std::string selected_by;
  /// Windows: the Microsoft Store's python.exe stub that PATH reaches before any real python.exe (an App Execution
  /// Alias that opens the Store when no Store Python is installed). Never run.
  std::optional<std::string> store_alias;
  /// Set when nothing is to be run: why no interpreter was found (Windows, where starting `python` could open
  /// the Store). User-facing, translated.
  std::optional<std::string> not_found;
};

/// The first rule that names an interpreter.
/// POSIX: --python, GPUSCOUT_PYTHON, VIRTUAL_ENV/bin/python, CONDA_PREFIX/bin/python, ./.venv/bin/python, then
/// python3 on PATH.
/// Windows: --python, GPUSCOUT_PYTHON, VIRTUAL_ENV\Scripts\python.exe, CONDA_PREFIX\python.exe,
/// .\.venv\Scripts\python.exe, python.exe then python3.exe on PATH (the Store's stub skipped and recorded), the py
/// launcher, then the newest interpreter in the usual install folders.
PythonChoice choose_python(const PythonEnvironment& env);

/// At most this many other interpreters are asked: each may spend seconds in `import torch`.
inline constexpr size_t kMaxOtherPythons = 8;

/// The other interpreters worth asking, in this order:
/// POSIX: the rules' candidates that were not chosen, python, python3 and python3.N in each PATH folder (pyenv's
/// shims are left out: they run one of its versions, listed after), /usr/bin/python3, /usr/local/bin/python3,
/// conda's base and envs/* under ~/miniconda3, ~/anaconda3, ~/miniforge3 and /opt/conda, then pyenv's versions
/// newest first.
/// Windows: the rules' candidates that were not chosen, python.exe, python3.exe and python3.N.exe in each PATH
/// folder (never the Store's stub), the py launcher's list, then the install folders (windows_install_pythons).
/// Only executable files; one per interpreter (see interpreter_identity); none that is the identity of an entry of
/// `exclude`; at most `limit`.
std::vector<std::string> other_pythons(const PythonEnvironment& env, const std::vector<std::string>& exclude,
                                       size_t limit = kMaxOtherPythons);

/// What makes two paths the same interpreter: a venv's folder (its bin/python links to the base interpreter, but
/// its packages are its own), else the file the path's links lead to; on Windows compared without case. "" when the
/// path does not exist.
std::string interpreter_identity(const PythonEnvironment& env, const std::string& path);
/// The same over this machine's files and rules.
std::string interpreter_identity(const std::string& path);

// ---- Windows: the py launcher and the usual install folders ----

/// One line of `py -0p`: " -V:3.12 *        C:\Python312\python.exe" (3.11+ launchers and the Python install
/// manager), " -3.9-64        C:\Python39\python.exe *" (older launchers), "  *   C:\proj\.venv\Scripts\python.exe"
/// (the active venv).
struct PyLauncherEntry {
  std::string tag;         ///< "3.12", "ContinuumAnalytics/Anaconda39-64", "3.9-64"; "" for the active venv
  std::string executable;  ///< an absolute path ending in .exe
  bool is_default = false; ///< marked '*': what a bare `py` runs
};
/// At most this many lines of `py -0p` are read, and at most this many bytes.
inline constexpr size_t kMaxPyLauncherLines = 64;
inline constexpr size_t kMaxPyLauncherBytes = 64 * 1024;
/// The interpreters in `py -0p`'s output, in its order. Lines without an absolute .exe path (headers, "No
/// Installed Pythons Found!", a message) are skipped; text past the bounds is ignored; invalid UTF-8 is cleaned.
std::vector<PyLauncherEntry> parse_py_launcher_list(std::string_view output);

/// The py launcher: py.exe in a PATH folder, else %SystemRoot%\py.exe, else
/// %LOCALAPPDATA%\Programs\Python\Launcher\py.exe; nullopt when none is an executable file.
std::optional<std::string> find_py_launcher(const PythonEnvironment& env);
/// Runs `py -0p` with a deadline and returns the interpreters it lists (empty when it fails).
std::vector<std::string> list_py_launcher(const std::string& py, std::chrono::milliseconds timeout);

/// The usual install folders, newest Python first within each: %LOCALAPPDATA%\Programs\Python\Python3*\python.exe
/// (python.org, for one user), %LOCALAPPDATA%\Python\pythoncore-3.*\python.exe (the Python install manager),
/// %ProgramFiles%\Python3*\python.exe (python.org, for all users), then %USERPROFILE%\anaconda3, miniconda3 and
/// miniforge3 (python.exe, and with `with_conda_envs` each envs\*\python.exe). Candidates: not checked.
std::vector<std::string> windows_install_pythons(const PythonEnvironment& env, bool with_conda_envs);

}  // namespace gpuscout::probe
