// Which Python gpuscout asks about PyTorch, as a user's machine has them: an activated venv that PATH does not lead
// to, a conda environment, a project's unactivated .venv, --python, a PATH python3 without torch while another
// interpreter has it, a working directory with a torch/ folder or a json.py, and Python 2.7.
//
// The interpreters are venvs made by hand (pyvenv.cfg and bin/python linking to this machine's python3), each with
// or without the fake torch through a .pth file in its own site-packages, so PYTHONPATH (which every interpreter
// would share) stays unset. Runs without a sysroot: under one, only --python, GPUSCOUT_PYTHON and PATH choose.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "e2e_support.hpp"
#include "os/process.hpp"

using e2e::finding;
using e2e::merge;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct BasePython {
  std::string executable;  ///< the real interpreter (not a pyenv shim)
  std::string minor;       ///< "3.11"
};

/// This machine's python3 without PyTorch (the venvs made from it do not see its packages anyway).
const BasePython& base_python() {
  static const BasePython base = [] {
    BasePython b;
    auto r = gpuscout::os::run(
        {"python3", "-c", "import sys; print(sys.executable); print('%d.%d' % sys.version_info[:2])"},
        std::chrono::seconds(30));
    if (r && r->exit_code == 0) {
      const auto nl = r->out.find('\n');
      b.executable = r->out.substr(0, nl);
      b.minor = r->out.substr(nl + 1, r->out.find('\n', nl + 1) - nl - 1);
    }
    return b;
  }();
  return base;
}

/// A venv at `dir` (bin/python), with the fake torch when `torch` is set. Returns its bin/python.
std::string make_venv(const std::string& dir, bool torch) {
  const auto& base = base_python();
  fs::create_directories(dir + "/bin");
  const std::string site = dir + "/lib/python" + base.minor + "/site-packages";
  fs::create_directories(site);
  std::ofstream(dir + "/pyvenv.cfg") << "home = " << fs::path(base.executable).parent_path().string()
                                     << "\ninclude-system-site-packages = false\n";
  fs::create_symlink(base.executable, dir + "/bin/python");
  if (torch) std::ofstream(site + "/fake-torch.pth") << GPUSCOUT_FAKE_PYTHONPATH << "\n";
  return dir + "/bin/python";
}

/// A HOME, and a PATH whose only python3 is a venv without torch (whatever this machine's python3 has installed):
/// the user's setup before each case adds to it.
struct Machine {
  std::string root = e2e::temp_dir();
  std::string home = root + "/home";
  std::string bin = root + "/plain/bin";
  std::string path_python = bin + "/python3";

  Machine() {
    fs::create_directories(home);
    make_venv(root + "/plain", false);
    fs::create_symlink(base_python().executable, path_python);
  }
  std::map<std::string, std::string> env(std::map<std::string, std::string> extra = {}) const {
    return merge({{{"HOME", home},
                   {"PATH", bin},
                   {"PYENV_ROOT", "<unset>"},
                   {"PYTHONPATH", "<unset>"},
                   {"GPUSCOUT_PYTHON", "<unset>"},
                   {"GPUSCOUT_FAKE_TORCH", std::string(GPUSCOUT_SCENARIOS_DIR) + "/torch/cu121-ok.json"}},
                  extra});
  }
};

json info(const std::map<std::string, std::string>& env, const std::string& cwd = "",
          std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"doctor", "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto run = e2e::run_gpuscout(args, env, 120000, cwd);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return run.json();
}

bool lists_other(const json& python, const std::string& exe) {
  for (const auto& o : python["others"])
    if (o["executable"] == exe) return true;
  return false;
}

class PythonSelect : public ::testing::Test {
 protected:
  void SetUp() override {
    if (base_python().executable.empty()) GTEST_SKIP() << "no python3 on PATH to make venvs from";
  }
};

}  // namespace

TEST_F(PythonSelect, TheActiveVenvEvenWhenPathDoesNotLeadToIt) {
  Machine m;
  const std::string venv = m.root + "/project-env";
  make_venv(venv, true);
  const json doc = info(m.env({{"VIRTUAL_ENV", venv}}));
  EXPECT_EQ(doc["python"]["selected_by"], "VIRTUAL_ENV") << doc["python"].dump(2);
  EXPECT_EQ(doc["python"]["executable"], venv + "/bin/python");
  EXPECT_EQ(doc["python"]["in_venv"], true);
  EXPECT_EQ(doc["python"]["externally_managed"], false);
  ASSERT_TRUE(doc["torch"].is_object()) << doc["python"].dump(2);
  EXPECT_EQ(doc["torch"]["version"], "2.5.1+cu121");
}

TEST_F(PythonSelect, TheActiveCondaEnvironment) {
  Machine m;
  const std::string env = m.home + "/miniconda3/envs/dl";
  make_venv(env, true);
  const json doc = info(m.env({{"CONDA_PREFIX", env}}));
  EXPECT_EQ(doc["python"]["selected_by"], "CONDA_PREFIX") << doc["python"].dump(2);
  EXPECT_EQ(doc["python"]["executable"], env + "/bin/python");
  EXPECT_TRUE(doc["torch"].is_object());
}

TEST_F(PythonSelect, AnUnactivatedDotVenvInTheWorkingDirectory) {
  Machine m;
  const std::string project = m.root + "/project";
  make_venv(project + "/.venv", true);
  const json doc = info(m.env(), project);
  EXPECT_EQ(doc["python"]["selected_by"], ".venv") << doc["python"].dump(2);
  EXPECT_EQ(doc["python"]["executable"], project + "/.venv/bin/python");
  EXPECT_TRUE(doc["torch"].is_object());
  // Elsewhere the same user gets PATH's python3, which has no torch, and the .venv is not theirs there.
  const json elsewhere = info(m.env(), m.root);
  EXPECT_EQ(elsewhere["python"]["selected_by"], "PATH");
  EXPECT_TRUE(elsewhere["torch"].is_null());
}

TEST_F(PythonSelect, PythonOptionComesFirst) {
  Machine m;
  const std::string chosen = make_venv(m.root + "/chosen", true);
  const std::string active = make_venv(m.root + "/active", false);
  const json doc = info(m.env({{"VIRTUAL_ENV", m.root + "/active"}, {"GPUSCOUT_PYTHON", active}}), "",
                        {"--python", chosen});
  EXPECT_EQ(doc["python"]["selected_by"], "--python") << doc["python"].dump(2);
  EXPECT_EQ(doc["python"]["executable"], chosen);
  EXPECT_TRUE(doc["torch"].is_object());
  // A name is looked up on PATH; `info` and `report` take it too.
  const auto by_name = e2e::run_gpuscout({"info", "--json", "--python", "python3"}, m.env(), 120000);
  ASSERT_EQ(by_name.exit_code, 0) << by_name.err;
  EXPECT_EQ(by_name.json()["python"]["selected_by"], "--python");
}

TEST_F(PythonSelect, PythonOptionThatIsNoExecutableIsAUsageError) {
  Machine m;
  const std::string not_executable = m.root + "/python-notes.txt";
  std::ofstream(not_executable) << "print('hi')\n";
  for (const std::string& bad : {m.root + "/missing/python3", m.root, not_executable, std::string("no-such-python")}) {
    for (const char* command : {"doctor", "info", "device", "report"}) {
      const auto run = e2e::run_gpuscout({command, "--python", bad}, m.env());
      EXPECT_EQ(run.exit_code, 2) << command << " --python " << bad << ": " << run.err;
      EXPECT_NE(run.err.find("'" + bad + "' is not an executable file"), std::string::npos) << run.err;
    }
  }
  const auto both = e2e::run_gpuscout({"doctor", "--python", m.path_python, "--no-python"}, m.env());
  EXPECT_EQ(both.exit_code, 2) << both.err;
}

TEST_F(PythonSelect, WrongPythonOnPathWhileAnotherHasTorch) {
  Machine m;
  const std::string pyenv_python = make_venv(m.home + "/.pyenv/versions/3.12.3", true);
  const json doc = info(m.env());
  EXPECT_EQ(doc["python"]["selected_by"], "PATH") << doc["python"].dump(2);
  EXPECT_TRUE(doc["torch"].is_null());
  ASSERT_TRUE(lists_other(doc["python"], pyenv_python)) << doc["python"].dump(2);
  for (const auto& o : doc["python"]["others"])
    if (o["executable"] == pyenv_python) {
      EXPECT_EQ(o["torch_version"], "2.5.1+cu121");
      EXPECT_EQ(o["torch_cuda"], "12.1");
      EXPECT_EQ(o["version"], doc["python"]["version"]);
    }
  EXPECT_FALSE(lists_other(doc["python"], m.path_python)) << "the chosen interpreter is no other";
  const json* missing = finding(doc, "torch-missing");
  ASSERT_NE(missing, nullptr) << doc["verdict"].dump(2);
  EXPECT_EQ(doc["verdict"]["status"], "needs-action");  // no PyTorch for the chosen Python: not ready (issue 11)
  const std::string message = (*missing)["message"];
  EXPECT_NE(message.find("chosen from PATH"), std::string::npos) << message;
  EXPECT_NE(message.find(pyenv_python + " has torch 2.5.1+cu121"), std::string::npos) << message;
  // The fix names the first of them (this machine's own /usr/bin/python3 may come before the pyenv version).
  const std::string first = doc["python"]["others"][0]["executable"];
  EXPECT_NE((*missing)["fix"].get<std::string>().find("gpuscout --python " + first), std::string::npos)
      << (*missing)["fix"];
  // The screen says it too.
  const auto text = e2e::run_gpuscout({"doctor"}, m.env(), 120000);
  // The screen wraps long lines where the paths' lengths put the break: compare with the wrapping undone.
  std::string flat;
  for (const char c : text.out) {
    const bool space = c == ' ' || c == '\n';
    if (!space || flat.empty() || flat.back() != ' ') flat += space ? ' ' : c;
  }
  EXPECT_NE(flat.find(pyenv_python + " has torch 2.5.1+cu121"), std::string::npos) << text.out;
  EXPECT_NE(flat.find("chosen from PATH"), std::string::npos) << text.out;
}

TEST_F(PythonSelect, TwoVenvsOfOneBinaryAreTwoInterpreters) {
  // PATH's venv and this one both lead to the same binary; only this one has torch.
  Machine m;
  const std::string venv_python = make_venv(m.home + "/miniforge3", true);
  const json doc = info(m.env());
  EXPECT_TRUE(lists_other(doc["python"], venv_python)) << doc["python"].dump(2);
}

TEST_F(PythonSelect, ATorchFolderInTheWorkingDirectoryIsNotTorch) {
  Machine m;
  const std::string venv_python = make_venv(m.root + "/env", true);
  const std::string cwd = m.root + "/course";
  fs::create_directories(cwd + "/torch");
  std::ofstream(cwd + "/torch/__init__.py") << "raise ImportError('the course notes folder, not PyTorch')\n";
  const json doc = info(m.env({{"GPUSCOUT_PYTHON", venv_python}}), cwd);
  ASSERT_TRUE(doc["torch"].is_object()) << doc["python"].dump(2);
  EXPECT_EQ(doc["torch"]["version"], "2.5.1+cu121");
  EXPECT_EQ(finding(doc, "torch-broken"), nullptr) << doc["verdict"].dump(2);
  // Without torch installed, the folder does not make it look broken either.
  const json plain = info(m.env({{"GPUSCOUT_PYTHON", m.path_python}}), cwd);
  EXPECT_TRUE(plain["torch"].is_null());
  EXPECT_EQ(plain["python"]["torch_installed"], false) << plain["python"].dump(2);
}

TEST_F(PythonSelect, AJsonPyInTheWorkingDirectoryChangesNothing) {
  Machine m;
  const std::string venv_python = make_venv(m.root + "/env", true);
  const std::string cwd = m.root + "/homework";
  fs::create_directories(cwd);
  std::ofstream(cwd + "/json.py") << "raise SystemExit('my homework, not the json module')\n";
  const json doc = info(m.env({{"GPUSCOUT_PYTHON", venv_python}}), cwd);
  EXPECT_TRUE(doc["python"]["version"].is_string()) << doc["python"].dump(2);
  EXPECT_TRUE(doc["python"]["error"].is_null()) << doc["python"].dump(2);
  EXPECT_TRUE(doc["torch"].is_object());
  EXPECT_EQ(finding(doc, "python-missing"), nullptr);
}

TEST_F(PythonSelect, PythonTwoIsTooOldNotMissing) {
  // A stand-in that answers as Python 2.7 does (a shell script: the harness's, never gpuscout's).
  Machine m;
  const std::string old = m.root + "/old/python";
  fs::create_directories(m.root + "/old");
  std::ofstream(old) << "#!/bin/sh\nprintf '\\nGPUSCOUT_PROBE {\"python\": \"2.7.18\", \"executable\": \"/usr/bin/python2.7\", "
                        "\"in_venv\": false, \"externally_managed_marker\": false, \"torch\": null}\\n'\n";
  fs::permissions(old, fs::perms::owner_all);
  const json doc = info(m.env(), "", {"--python", old});
  EXPECT_EQ(doc["python"]["version"], "2.7.18") << doc["python"].dump(2);
  const json* too_old = finding(doc, "python-too-old");
  ASSERT_NE(too_old, nullptr) << doc["verdict"].dump(2);
  const std::string message = (*too_old)["message"];
  EXPECT_NE(message.find("Python 2.7.18 is too old for PyTorch"), std::string::npos) << message;
  EXPECT_NE((*too_old)["fix"].get<std::string>().find(" or newer"), std::string::npos) << (*too_old)["fix"];
  EXPECT_EQ(finding(doc, "python-missing"), nullptr);
  EXPECT_EQ(finding(doc, "torch-missing"), nullptr);
}

TEST_F(PythonSelect, ARealPythonTwoRunsTheProbe) {
  // pyenv's 2.7 where a developer has one: the script itself must parse and answer under Python 2.
  std::string py2;
  for (const auto& root : {std::string(getenv("HOME") ? getenv("HOME") : "") + "/.pyenv/versions"}) {
    std::error_code ec;
    for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
      if (it->path().filename().string().starts_with("2.7")) py2 = it->path().string() + "/bin/python";
  }
  if (py2.empty() || !gpuscout::os::is_executable_file(py2)) GTEST_SKIP() << "no pyenv Python 2.7 here";
  Machine m;
  const json doc = info(m.env(), "", {"--python", py2});
  EXPECT_EQ(doc["python"]["version"].get<std::string>().substr(0, 4), "2.7.") << doc["python"].dump(2);
  EXPECT_NE(finding(doc, "python-too-old"), nullptr) << doc["verdict"].dump(2);
}

TEST_F(PythonSelect, TimeoutBoundsThePythonProbe) {
  Machine m;
  const std::string venv_python = make_venv(m.root + "/env", true);
  const auto start = std::chrono::steady_clock::now();
  const auto run = e2e::run_gpuscout(
      {"info", "--json", "--timeout", "1"},
      m.env({{"GPUSCOUT_PYTHON", venv_python},
             {"GPUSCOUT_FAKE_TORCH", std::string(GPUSCOUT_SCENARIOS_DIR) + "/torch/hang.json"}}),
      60000);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(15));
  const json python = run.json()["python"];
  EXPECT_EQ(python["timed_out"], true) << python.dump(2);
  EXPECT_NE(python["error"]["message"].get<std::string>().find("1.0 s"), std::string::npos) << python.dump(2);
}

TEST_F(PythonSelect, ARecordedMachineIgnoresThisHostsEnvironments) {
  Machine m;
  const std::string venv = m.root + "/project-env";
  make_venv(venv, true);
  make_venv(m.home + "/.pyenv/versions/3.12.3", true);
  const json doc = info(merge({m.env({{"VIRTUAL_ENV", venv}}), e2e::sysroot_env("no-gpu-vm")}));
  EXPECT_EQ(doc["python"]["selected_by"], "PATH") << doc["python"].dump(2);
  EXPECT_TRUE(doc["python"]["others"].empty()) << doc["python"].dump(2);
}
