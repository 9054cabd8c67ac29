// Choosing the Python interpreter and listing the others, over folders laid out as pyenv, conda, venvs and PATH
// lay them out (the files are empty executables: nothing is run here).
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "probe/python_select.hpp"
#include "probe/sources.hpp"

using namespace gpuscout;
using namespace gpuscout::probe;
namespace fs = std::filesystem;

namespace {

class Folders : public ::testing::Test {
 protected:
  void SetUp() override {
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
  env.path = at("empty");
  const auto choice = choose_python(env);
  EXPECT_EQ(choice.executable, "python3");
  EXPECT_EQ(choice.selected_by, "PATH");
}

TEST_F(Folders, OthersInOrderOnePerInterpreter) {
  PythonEnvironment env;
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
