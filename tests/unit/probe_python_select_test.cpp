// Choosing the Python interpreter and listing the others, over folders laid out as pyenv, conda, venvs and PATH
// lay them out (the files are empty executables: nothing is run here); and Windows' rules over a Windows machine
// described by hand (FakeWindows), the Microsoft Store's stub, the py launcher's list and Windows path text.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include <gtest/gtest.h>

#include "probe/python_select.hpp"
#include "probe/sources.hpp"
#include "probe/windows_path.hpp"

using namespace gpuscout;
using namespace gpuscout::probe;
namespace fs = std::filesystem;

namespace {

/// Real folders of this machine laid out as on Linux (symbolic links, executable bits): POSIX's rules.
class Folders : public ::testing::Test {
 protected:
  void SetUp() override {
#ifdef _WIN32
    GTEST_SKIP() << "POSIX folders (links, executable bits); Windows' rules are tested on FakeWindows";
#endif
    root_ = fs::temp_directory_path() / ("gpuscout-select-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  /// An executable file at root/rel.
  std::string exe(const std::string& rel) {
    const fs::path p = root_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << "#!/bin/sh\n";
    fs::permissions(p, fs::perms::owner_all);
    return p.string();
  }
  /// A venv at root/rel linking to `base`; returns its bin/python.
  std::string venv(const std::string& rel, const std::string& base) {
    fs::create_directories(root_ / rel / "bin");
    std::ofstream(root_ / rel / "pyvenv.cfg") << "home = " << fs::path(base).parent_path().string() << "\n";
    fs::create_symlink(base, root_ / rel / "bin/python");
    return (root_ / rel / "bin/python").string();
  }
  std::string at(const std::string& rel) const { return (root_ / rel).string(); }

  fs::path root_;
};

}  // namespace

TEST_F(Folders, EachRuleInItsOrder) {
  PythonEnvironment env;
  env.platform = PythonPlatform::posix;
  env.path = at("usr/bin");
  env.cwd = at("project");
  const std::string path_python = exe("usr/bin/python3");
  EXPECT_EQ(choose_python(env).executable, path_python);
  EXPECT_EQ(choose_python(env).selected_by, "PATH");

  const std::string dot_venv = venv("project/.venv", path_python);
  EXPECT_EQ(choose_python(env).executable, dot_venv);
  EXPECT_EQ(choose_python(env).selected_by, ".venv");

  env.conda_prefix = at("conda/envs/dl");
  EXPECT_EQ(choose_python(env).selected_by, ".venv") << "a CONDA_PREFIX without bin/python falls through";
  exe("conda/envs/dl/bin/python");
  EXPECT_EQ(choose_python(env).selected_by, "CONDA_PREFIX");

  env.virtual_env = at("env");
  venv("env", path_python);
  EXPECT_EQ(choose_python(env).executable, at("env/bin/python"));
  EXPECT_EQ(choose_python(env).selected_by, "VIRTUAL_ENV");

  env.gpuscout_python = "python3.12";
  EXPECT_EQ(choose_python(env).executable, "python3.12") << "GPUSCOUT_PYTHON is taken as given";
  EXPECT_EQ(choose_python(env).selected_by, "GPUSCOUT_PYTHON");

  env.flag = "/opt/py/bin/python3";
  EXPECT_EQ(choose_python(env).selected_by, "--python");

  // A recorded machine: this host's environments are not its own.
  env.flag.clear();
  env.gpuscout_python.clear();
  env.recorded_machine = true;
  EXPECT_EQ(choose_python(env).selected_by, "PATH");
  EXPECT_TRUE(other_pythons(env, {}).empty());
}

TEST_F(Folders, NoPython3OnPathIsStillARule) {
  PythonEnvironment env;
  env.platform = PythonPlatform::posix;
  env.path = at("empty");
  const auto choice = choose_python(env);
  EXPECT_EQ(choice.executable, "python3");
  EXPECT_EQ(choice.selected_by, "PATH");
  EXPECT_FALSE(choice.not_found) << "POSIX starts python3 and reports what starting it said";
  EXPECT_FALSE(choice.store_alias);
}

TEST_F(Folders, OthersInOrderOnePerInterpreter) {
  PythonEnvironment env;
  env.platform = PythonPlatform::posix;
  const std::string real = exe("usr/bin/python3.11");
  fs::create_symlink(real, at("usr/bin/python3"));
  exe("usr/bin/python3.11-config");  // not an interpreter
  std::ofstream(at("usr/bin/python3.12")) << "";  // not executable
  exe("pyenv/shims/python3");        // runs one of the versions below
  exe("pyenv/versions/3.9.18/bin/python");
  exe("pyenv/versions/3.13.0/bin/python");
  exe("pyenv/versions/3.10.13/bin/python");
  exe("home/miniconda3/bin/python");
  exe("home/miniconda3/envs/a/bin/python");
  const std::string project_venv = venv("project/.venv", real);
  env.path = at("pyenv/shims") + ":" + at("usr/bin");
  env.pyenv_root = at("pyenv");
  env.home = at("home");
  env.cwd = at("project");

  const auto others = other_pythons(env, {project_venv}, 100);
  // This machine's own /usr/bin/python3 or /opt/conda may be listed too, in their place; the folders made here:
  std::vector<std::string> mine;
  for (const auto& o : others)
    if (o.starts_with(root_.string())) mine.push_back(o);
  const std::vector<std::string> expected = {
      at("usr/bin/python3"),  // python3.11 is the same file; python3.11-config, python3.12 and the shims are not
      at("home/miniconda3/bin/python"),         at("home/miniconda3/envs/a/bin/python"),
      at("pyenv/versions/3.13.0/bin/python"),   at("pyenv/versions/3.10.13/bin/python"),
      at("pyenv/versions/3.9.18/bin/python")};
  EXPECT_EQ(mine, expected);
  EXPECT_EQ(std::find(others.begin(), others.end(), project_venv), others.end()) << "excluded";
  EXPECT_EQ(std::find(others.begin(), others.end(), real), others.end()) << "the same file as python3";
  EXPECT_EQ(other_pythons(env, {project_venv}, 2).size(), 2u);
}

TEST_F(Folders, AVenvIsNotItsBaseInterpreter) {
  const std::string base = exe("usr/bin/python3.12");
  const std::string a = venv("a", base);
  const std::string b = venv("b", base);
  EXPECT_NE(interpreter_identity(a), interpreter_identity(base));
  EXPECT_NE(interpreter_identity(a), interpreter_identity(b));
  EXPECT_EQ(interpreter_identity(a), interpreter_identity(at("a/bin/../bin/python")));
  EXPECT_EQ(interpreter_identity(at("missing/python")), "");
}

// ---- Windows' rules, over a Windows machine described by hand ----

namespace {

/// A Windows machine's files as NTFS answers: names compared without case, '\' or '/' alike. Folders are the
/// parents of the files added.
class FakeWindows : public PythonFiles {
 public:
  /// An .exe that runs (`bytes` long), or with 0 bytes an App Execution Alias as WindowsApps holds them.
  void exe(const std::string& path, uint64_t bytes = 100000) { files_[winpath::fold(path)] = {path, bytes, true}; }
  /// A file that is no program (pyvenv.cfg).
  void file(const std::string& path) { files_[winpath::fold(path)] = {path, 10, false}; }
  void remove(const std::string& path) { files_.erase(winpath::fold(path)); }

  bool is_executable(const std::string& path) const override {
    const auto it = files_.find(winpath::fold(path));
    return it != files_.end() && it->second.executable;
  }
  std::optional<uint64_t> size(const std::string& path) const override {
    const auto it = files_.find(winpath::fold(path));
    return it == files_.end() ? std::nullopt : std::optional<uint64_t>(it->second.bytes);
  }
  bool is_file(const std::string& path) const override { return files_.count(winpath::fold(path)) > 0; }
  std::vector<std::string> list(const std::string& dir) const override {
    const std::string prefix = winpath::fold(dir) + "\\";
    std::vector<std::string> names;
    for (const auto& [key, f] : files_) {
      if (!key.starts_with(prefix)) continue;
      // The next name below `dir`, spelled as it was added.
      const auto rest = std::string_view(f.path).substr(f.path.size() - (key.size() - prefix.size()));
      std::string name(rest.substr(0, rest.find_first_of("\\/")));
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    return names;
  }
  std::string resolve(const std::string& path) const override {
    return is_file(path) || !list(path).empty() ? path : std::string();
  }

 private:
  struct File {
    std::string path;
    uint64_t bytes;
    bool executable;
  };
  std::map<std::string, File> files_;
};

const std::string kApps = R"(C:\Users\Ann\AppData\Local\Microsoft\WindowsApps)";
const std::string kLocal = R"(C:\Users\Ann\AppData\Local)";

/// Ann's Windows as it comes: System32 and WindowsApps on PATH, the Store's two stubs in WindowsApps.
struct WindowsMachine {
  FakeWindows files;
  PythonEnvironment env;
  WindowsMachine() {
    env.platform = PythonPlatform::windows;
    env.files = &files;
    env.path = R"(C:\Windows\system32;C:\Windows;)" + kApps;
    env.home = R"(C:\Users\Ann)";
    env.local_app_data = kLocal;
    env.program_files = R"(C:\Program Files)";
    env.system_root = R"(C:\Windows)";
    env.cwd = R"(D:\dl\project)";
    files.exe(R"(C:\Windows\system32\cmd.exe)");
    files.exe(kApps + R"(\python.exe)", 0);
    files.exe(kApps + R"(\python3.exe)", 0);
    files.exe(kApps + R"(\winget.exe)", 0);
  }
};

}  // namespace

TEST(WindowsPython, EachRuleInItsOrder) {
  WindowsMachine m;
  auto& env = m.env;
  auto& files = m.files;
  auto choice = [&] { return choose_python(env); };
  EXPECT_TRUE(choice().not_found) << "only the Store's stubs";
  EXPECT_EQ(choice().executable, "python");

  files.exe(kLocal + R"(\Programs\Python\Python39\python.exe)");
  files.exe(kLocal + R"(\Programs\Python\Python311\python.exe)");
  files.exe(kLocal + R"(\Programs\Python\Python311\pythonw.exe)");
  EXPECT_EQ(choice().executable, kLocal + R"(\Programs\Python\Python311\python.exe)") << "3.11 is newer than 3.9";
  EXPECT_EQ(choice().selected_by, "install-folder");
  EXPECT_FALSE(choice().not_found);

  files.exe(kLocal + R"(\Programs\Python\Launcher\py.exe)");
  EXPECT_EQ(choice().executable, kLocal + R"(\Programs\Python\Launcher\py.exe)");
  EXPECT_EQ(choice().selected_by, "py");
  files.exe(R"(C:\Windows\py.exe)");
  EXPECT_EQ(choice().executable, R"(C:\Windows\py.exe)") << "on PATH (C:\\Windows) before the per-user launcher";

  env.path += R"(;C:\Tools\Py3;"C:\Program Files\Python312\")";
  files.exe(R"(C:\Tools\Py3\python3.exe)");
  EXPECT_EQ(choice().executable, R"(C:\Tools\Py3\python3.exe)");
  EXPECT_EQ(choice().selected_by, "PATH");
  files.exe(R"(C:\Program Files\Python312\python.exe)");
  EXPECT_EQ(choice().executable, R"(C:\Program Files\Python312\python.exe)")
      << "python.exe, the name typed, in any PATH folder before python3.exe; the quoted entry unquoted";

  files.exe(R"(D:\dl\project\.venv\bin\python.exe)");  // a POSIX layout copied over: not Windows' venv
  EXPECT_EQ(choice().selected_by, "PATH");
  files.exe(R"(D:\dl\project\.venv\Scripts\python.exe)");
  EXPECT_EQ(choice().executable, R"(D:\dl\project\.venv\Scripts\python.exe)");
  EXPECT_EQ(choice().selected_by, ".venv");

  env.conda_prefix = R"(C:\Users\Ann\miniconda3\envs\dl)";
  files.exe(env.conda_prefix + R"(\Scripts\pip.exe)");
  EXPECT_EQ(choice().selected_by, ".venv") << "a CONDA_PREFIX without python.exe falls through";
  files.exe(env.conda_prefix + R"(\python.exe)");
  EXPECT_EQ(choice().executable, env.conda_prefix + R"(\python.exe)");
  EXPECT_EQ(choice().selected_by, "CONDA_PREFIX");

  env.virtual_env = R"(C:\envs\torch\)";  // a trailing separator as some shells leave it
  files.exe(R"(C:\envs\torch\bin\python)");
  EXPECT_EQ(choice().selected_by, "CONDA_PREFIX");
  files.exe(R"(C:\envs\torch\Scripts\python.exe)");
  EXPECT_EQ(choice().executable, R"(C:\envs\torch\Scripts\python.exe)");
  EXPECT_EQ(choice().selected_by, "VIRTUAL_ENV");

  env.gpuscout_python = "python3.12";
  EXPECT_EQ(choice().executable, "python3.12") << "taken as given";
  EXPECT_EQ(choice().selected_by, "GPUSCOUT_PYTHON");
  env.flag = R"(E:\py\python.exe)";
  EXPECT_EQ(choice().selected_by, "--python");

  // A recorded machine: --python, GPUSCOUT_PYTHON and PATH only; no launcher, no install folder, no others.
  env.flag.clear();
  env.gpuscout_python.clear();
  env.recorded_machine = true;
  EXPECT_EQ(choice().executable, R"(C:\Program Files\Python312\python.exe)");
  env.path = kApps;
  EXPECT_TRUE(choice().not_found) << "the launcher and the install folders are this host's, not the recording's";
  EXPECT_TRUE(other_pythons(env, {}).empty());
}

TEST(WindowsPython, TheStoreStubIsNeverRun) {
  WindowsMachine m;
  auto& env = m.env;
  auto& files = m.files;
  const std::string stub = kApps + R"(\python.exe)";

  auto none = choose_python(env);
  ASSERT_TRUE(none.not_found);
  EXPECT_EQ(none.store_alias, stub);
  EXPECT_NE(none.not_found->find(stub), std::string::npos) << *none.not_found;
  EXPECT_NE(none.not_found->find("Microsoft Store"), std::string::npos) << *none.not_found;
  EXPECT_TRUE(other_pythons(env, {}).empty()) << "the stubs are no interpreters";

  // Python installed without "Add to PATH", and its launcher: the launcher runs; PATH still reaches the stub.
  files.exe(kLocal + R"(\Programs\Python\Python312\python.exe)");
  files.exe(kLocal + R"(\Programs\Python\Launcher\py.exe)");
  auto py = choose_python(env);
  EXPECT_EQ(py.selected_by, "py");
  EXPECT_EQ(py.store_alias, stub);

  // A real python.exe after WindowsApps on PATH: chosen, and `python` typed still opens the Store.
  env.path += R"(;C:\Python312)";
  files.exe(R"(C:\Python312\python.exe)");
  auto later = choose_python(env);
  EXPECT_EQ(later.executable, R"(C:\Python312\python.exe)");
  EXPECT_EQ(later.store_alias, stub);
  env.flag = R"(C:\Python312\python.exe)";
  EXPECT_EQ(choose_python(env).store_alias, stub) << "a fact about PATH, whichever rule chooses";
  env.flag.clear();

  // Before WindowsApps, spelled in another case with a trailing '\': PATH never reaches the stub.
  env.path = R"(c:\python312\;)" + kApps;
  EXPECT_EQ(choose_python(env).executable, R"(c:\python312\python.exe)");
  EXPECT_FALSE(choose_python(env).store_alias);
  // WindowsApps spelled otherwise is still WindowsApps.
  env.path = R"(c:/users/ann/appdata/local/microsoft/windowsapps/;C:\Python312)";
  EXPECT_EQ(choose_python(env).store_alias, R"(c:/users/ann/appdata/local/microsoft/windowsapps\python.exe)");

  // The alias of an installed Store Python (its package folder beside it) runs that Python.
  env.path = kApps;
  files.exe(kApps + R"(\PythonSoftwareFoundation.Python.3.12_qbz5n2kfra8p0\python.exe)", 0);
  auto store = choose_python(env);
  EXPECT_EQ(store.executable, stub);
  EXPECT_EQ(store.selected_by, "PATH");
  EXPECT_FALSE(store.store_alias);
}

TEST(WindowsPython, AStubNeedsNoSizeToBeKnown) {
  WindowsMachine m;
  // Where the size of a reparse point cannot be read, a python.exe listed in WindowsApps is still the stub;
  // one with bytes is a program someone put there.
  struct NoSizes : FakeWindows {
    std::optional<uint64_t> size(const std::string&) const override { return std::nullopt; }
  } files;
  files.exe(kApps + R"(\python.exe)", 0);
  m.env.files = &files;
  EXPECT_TRUE(choose_python(m.env).store_alias);
  m.files.exe(kApps + R"(\python.exe)", 28000);
  m.env.files = &m.files;
  EXPECT_EQ(choose_python(m.env).executable, kApps + R"(\python.exe)");
  EXPECT_FALSE(choose_python(m.env).store_alias);
}

TEST(WindowsPython, OthersInOrderOnePerInterpreter) {
  WindowsMachine m;
  auto& env = m.env;
  auto& files = m.files;
  env.path = R"(C:\Python311;C:\Tools;)" + kApps;
  env.conda_prefix = R"(C:\Users\Ann\miniconda3\envs\dl)";
  files.exe(R"(C:\Python311\python.exe)");
  files.exe(R"(C:\Tools\python3.12.exe)");
  files.exe(R"(C:\Tools\python3.exe)");
  files.exe(R"(C:\Tools\python3-config.exe)");  // not an interpreter
  files.exe(R"(C:\Tools\pythonw.exe)");
  files.exe(R"(D:\dl\project\.venv\Scripts\python.exe)");
  files.file(R"(D:\dl\project\.venv\pyvenv.cfg)");
  files.exe(R"(C:\Users\Ann\miniconda3\python.exe)");
  files.exe(R"(C:\Users\Ann\miniconda3\envs\dl\python.exe)");
  files.exe(R"(C:\Users\Ann\miniconda3\envs\old\python.exe)");
  files.exe(kLocal + R"(\Programs\Python\Python39\python.exe)");
  files.exe(kLocal + R"(\Programs\Python\Python313\python.exe)");
  files.exe(kLocal + R"(\Python\pythoncore-3.14-64\python.exe)");
  files.exe(R"(C:\Program Files\Python310\python.exe)");
  files.exe(R"(C:\Program Files\Python3-junk\python.exe)");  // no version number: not a python.org folder
  // What `py -0p` listed: the PATH one again in another case, and one only the launcher knows.
  env.py_launcher_pythons = {R"(c:\PYTHON311\python.exe)", R"(E:\Py\3.8\python.exe)"};
  files.exe(R"(E:\Py\3.8\python.exe)");

  const auto chosen = choose_python(env);
  ASSERT_EQ(chosen.selected_by, "CONDA_PREFIX");
  const auto others = other_pythons(env, {chosen.executable}, 100);
  const std::vector<std::string> expected = {
      R"(D:\dl\project\.venv\Scripts\python.exe)",  // a rule's, not chosen
      R"(C:\Python311\python.exe)",
      R"(C:\Tools\python3.exe)",
      R"(C:\Tools\python3.12.exe)",
      R"(E:\Py\3.8\python.exe)",  // the launcher's; its spelling of C:\Python311 is the same file
      kLocal + R"(\Programs\Python\Python313\python.exe)",
      kLocal + R"(\Programs\Python\Python39\python.exe)",
      kLocal + R"(\Python\pythoncore-3.14-64\python.exe)",
      R"(C:\Program Files\Python310\python.exe)",
      R"(C:\Users\Ann\miniconda3\python.exe)",
      R"(C:\Users\Ann\miniconda3\envs\old\python.exe)",  // envs\dl is the one chosen
  };
  EXPECT_EQ(others, expected);
  EXPECT_EQ(other_pythons(env, {R"(C:\USERS\ANN\MINICONDA3\ENVS\DL\PYTHON.EXE)"}, 100), expected)
      << "excluded in any spelling";
  EXPECT_EQ(other_pythons(env, {chosen.executable}, 3).size(), 3u);
}

TEST(WindowsPython, IdentityIgnoresCaseAndSeesVenvs) {
  WindowsMachine m;
  m.files.exe(R"(C:\Python312\python.exe)");
  m.files.exe(R"(D:\a\Scripts\python.exe)");
  m.files.file(R"(D:\a\pyvenv.cfg)");
  m.files.exe(R"(D:\b\Scripts\python.exe)");
  m.files.file(R"(D:\b\pyvenv.cfg)");
  const auto id = [&](const std::string& p) { return interpreter_identity(m.env, p); };
  EXPECT_EQ(id(R"(C:\Python312\python.exe)"), id(R"(c:/python312/PYTHON.EXE)"));
  EXPECT_NE(id(R"(D:\a\Scripts\python.exe)"), id(R"(D:\b\Scripts\python.exe)"));
  EXPECT_EQ(id(R"(D:\a\Scripts\python.exe)").rfind("venv:", 0), 0u);
  EXPECT_EQ(id(R"(C:\missing\python.exe)"), "");
}

TEST(PyLauncherList, EveryFormatItPrints) {
  // The 3.11+ launcher and the Python install manager's legacy format: the tag, '*' for the default, the path.
  const auto now = parse_py_launcher_list(
      " -V:3.12 *        C:\\Users\\Ann\\AppData\\Local\\Programs\\Python\\Python312\\python.exe\r\n"
      " -V:3.11          C:\\Python311\\python.exe\r\n"
      " -V:ContinuumAnalytics/Anaconda39-64 C:\\Users\\Ann\\anaconda3\\python.exe\r\n"
      "  *               D:\\dl\\project\\.venv\\Scripts\\python.exe\r\n");
  ASSERT_EQ(now.size(), 4u);
  EXPECT_EQ(now[0].tag, "3.12");
  EXPECT_TRUE(now[0].is_default);
  EXPECT_EQ(now[0].executable, R"(C:\Users\Ann\AppData\Local\Programs\Python\Python312\python.exe)");
  EXPECT_EQ(now[1].tag, "3.11");
  EXPECT_FALSE(now[1].is_default);
  EXPECT_EQ(now[2].tag, "ContinuumAnalytics/Anaconda39-64");
  EXPECT_EQ(now[2].executable, R"(C:\Users\Ann\anaconda3\python.exe)");
  EXPECT_EQ(now[3].tag, "") << "the active venv";
  EXPECT_TRUE(now[3].is_default);

  // Launchers before 3.11: a header, "-X.Y-64", the '*' after the path; a path with spaces.
  const auto old = parse_py_launcher_list(
      "Installed Pythons found by C:\\Windows\\py.exe Launcher for Windows\n"
      " -3.9-64        C:\\Program Files\\Python39\\python.exe *\n"
      " -2.7-32        \\\\server\\share\\Python27\\python.exe\n");
  ASSERT_EQ(old.size(), 2u) << "a header naming a path, but not ending in one, is no entry";
  EXPECT_EQ(old[0].tag, "3.9-64");
  EXPECT_EQ(old[0].executable, R"(C:\Program Files\Python39\python.exe)");
  EXPECT_TRUE(old[0].is_default);
  EXPECT_EQ(old[1].executable, R"(\\server\share\Python27\python.exe)");
}

TEST(PyLauncherList, OddOutputIsSkippedAndBounded) {
  EXPECT_TRUE(parse_py_launcher_list("").empty());
  EXPECT_TRUE(parse_py_launcher_list("No Installed Pythons Found!\n").empty());
  EXPECT_TRUE(parse_py_launcher_list("-- No runtimes. Use 'py install <version>' to install one. --\n").empty());
  EXPECT_TRUE(parse_py_launcher_list(" -V:3.12 *  C:\\Python312\\python\n").empty()) << "not an .exe";
  EXPECT_TRUE(parse_py_launcher_list(" -V:3.12 *  python.exe\n").empty()) << "not absolute";
  EXPECT_TRUE(parse_py_launcher_list(std::string("\0\0\0\xff\xfe", 5)).empty());

  // UTF-16LE of plain ASCII (a launcher writing wide text to the pipe) still reads.
  const std::string ascii = " -V:3.13 *  C:\\Python313\\python.exe\r\n";
  std::string utf16("\xff\xfe", 2);
  for (char c : ascii) utf16 += std::string{c, '\0'};
  const auto wide = parse_py_launcher_list(utf16);
  ASSERT_EQ(wide.size(), 1u);
  EXPECT_EQ(wide[0].executable, R"(C:\Python313\python.exe)");
  EXPECT_EQ(wide[0].tag, "3.13");

  // Invalid UTF-8 (a code page's bytes in a user name) is cleaned, never passed on raw.
  const auto cp936 = parse_py_launcher_list(" -V:3.12 *  C:\\Users\\\xd5\xc5\xc8\xfd\\python.exe\n");
  ASSERT_EQ(cp936.size(), 1u);
  EXPECT_EQ(cp936[0].executable.find('\xd5'), std::string::npos);

  std::string many;
  for (int i = 0; i < 1000; ++i) many += " -V:3.12  C:\\P" + std::to_string(i) + "\\python.exe\n";
  EXPECT_EQ(parse_py_launcher_list(many).size(), kMaxPyLauncherLines);
  const std::string huge(kMaxPyLauncherBytes, 'x');
  EXPECT_TRUE(parse_py_launcher_list(huge + " -V:3.12  C:\\P\\python.exe\n").empty()) << "past the bytes read";
}

TEST(PythonProbeFacts, VenvAndExternallyManaged) {
  auto parse = [](const std::string& fields) {
    PythonInfo py;
    std::optional<TorchInfo> torch;
    parse_python_probe_output("GPUSCOUT_PROBE {\"python\": \"3.11.2\", " + fields + ", \"torch\": null}", py, torch);
    return py;
  };
  // Debian's /usr/bin/python3: pip refuses outside a venv.
  auto debian = parse("\"in_venv\": false, \"externally_managed_marker\": true");
  EXPECT_EQ(debian.in_venv, false);
  EXPECT_EQ(debian.externally_managed, true);
  // A venv made from it: its stdlib folder is still the base's, and the marker does not apply (PEP 668).
  auto venv = parse("\"in_venv\": true, \"externally_managed_marker\": true");
  EXPECT_EQ(venv.externally_managed, false);
  auto unknown = parse("\"in_venv\": \"yes\"");
  EXPECT_FALSE(unknown.in_venv.has_value());
  EXPECT_FALSE(unknown.externally_managed.has_value());
}

TEST(PythonProbeFacts, TheScriptDropsTheWorkingDirectoryBeforeItsFirstImport) {
  const std::string script(python_probe_script());
  const auto drop = script.find("del sys.path[0]");
  ASSERT_NE(drop, std::string::npos);
  EXPECT_LT(drop, script.find("import json"));
  EXPECT_EQ(script.find("import sys"), script.find("import"));  // sys is built in: nothing before it is looked up
}
