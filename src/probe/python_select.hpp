#pragma once
/// Which Python interpreter to ask about PyTorch, and which others to ask when it has none. Pure over a
/// PythonEnvironment (the variables and folders that decide it, gathered once), plus file-system checks of the
/// candidates, so tests build an environment by hand.
#include <cstddef>
#include <string>
#include <vector>

namespace gpuscout::probe {

/// What choosing an interpreter reads; every field may be empty.
struct PythonEnvironment {
  std::string flag;             ///< --python (already checked by the CLI)
  std::string gpuscout_python;  ///< $GPUSCOUT_PYTHON: taken as given (a path, or a name looked up on PATH)
  std::string virtual_env;      ///< $VIRTUAL_ENV (an activated venv)
  std::string conda_prefix;     ///< $CONDA_PREFIX (an activated conda environment)
  std::string path;             ///< $PATH
  std::string home;             ///< $HOME (pyenv and conda roots)
  std::string pyenv_root;       ///< $PYENV_ROOT (default ~/.pyenv)
  std::string cwd;              ///< the working directory (./.venv, as uv and poetry make it)
  /// Under GPUSCOUT_SYSROOT the machine is a recording: this host's activated environments and interpreters are
  /// not its own, so only --python, GPUSCOUT_PYTHON and PATH choose, and no others are searched.
  bool recorded_machine = false;
};

/// The process's own environment and working directory.
PythonEnvironment python_environment(std::string flag);

struct PythonChoice {
  std::string executable;   ///< what to run: a path, or "python3" when PATH has none (starting it then fails)
  std::string selected_by;  ///< "--python", "GPUSCOUT_PYTHON", "VIRTUAL_ENV", "CONDA_PREFIX", ".venv", "PATH"
};

/// The first rule that names an executable file: --python, GPUSCOUT_PYTHON, VIRTUAL_ENV/bin/python,
/// CONDA_PREFIX/bin/python, ./.venv/bin/python, then python3 on PATH.
PythonChoice choose_python(const PythonEnvironment& env);

/// At most this many other interpreters are asked: each may spend seconds in `import torch`.
inline constexpr size_t kMaxOtherPythons = 8;

/// The other interpreters worth asking, in this order: the rules' candidates that were not chosen, python,
/// python3 and python3.N in each PATH folder (pyenv's shims are left out: they run one of its versions, listed
/// after), /usr/bin/python3, /usr/local/bin/python3, conda's base and envs/* under ~/miniconda3, ~/anaconda3,
/// ~/miniforge3 and /opt/conda, then pyenv's versions newest first. Only executable files; one per interpreter
/// (see interpreter_identity); none that is the identity of an entry of `exclude`; at most `limit`.
std::vector<std::string> other_pythons(const PythonEnvironment& env, const std::vector<std::string>& exclude,
                                       size_t limit = kMaxOtherPythons);

/// What makes two paths the same interpreter: a venv's folder (its bin/python links to the base interpreter, but
/// its packages are its own), else the file the path's links lead to. "" when the path does not exist.
std::string interpreter_identity(const std::string& path);

}  // namespace gpuscout::probe
