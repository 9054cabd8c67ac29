// `gpuscout fleet` on saved inventories: the made-up four-node cluster (tests/fakes/fleet/four-nodes, one driver and
// one PyTorch mismatch) whole against its golden text (GPUSCOUT_UPDATE_GOLDEN=1 rewrites it), the JSON, the Markdown
// and HTML files, and bad input.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <gtest/gtest.h>

#include "e2e_support.hpp"
#include "os/process.hpp"

namespace {

using nlohmann::json;
const std::string kFleetDir = std::string(GPUSCOUT_SOURCE_DIR) + "/tests/fakes/fleet";
const std::string kFourNodes = kFleetDir + "/four-nodes";

TEST(Fleet, FourNodesTextIsTheGolden) {
  const auto run = e2e::run_gpuscout({"--lang", "en", "fleet", kFourNodes}, {{"COLUMNS", "100"}, {"NO_COLOR", "1"}});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string golden = kFleetDir + "/four-nodes.expected.txt";
  const char* update = std::getenv("GPUSCOUT_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::ofstream(golden, std::ios::binary | std::ios::trunc) << run.out;
    std::cout << "[ golden ] wrote " << golden << "\n";
    return;
  }
  EXPECT_EQ(run.out, e2e::read_file(golden))
      << "If the change is intended, run `GPUSCOUT_UPDATE_GOLDEN=1 ctest -R 'e2e\\.Fleet'` and review the diff.";
}

TEST(Fleet, FourNodesJson) {
  const auto run = e2e::run_gpuscout({"fleet", "--json", kFourNodes + "/node1.json", kFourNodes + "/node2.json",
                                      kFourNodes + "/node3.json", kFourNodes + "/node4.json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json doc = run.json();
  EXPECT_EQ(doc["schema"], "gpuscout.fleet/1");
  ASSERT_EQ(doc["machines"].size(), 4u);
  EXPECT_EQ(doc["machines"][2]["name"], "node3");
  EXPECT_EQ(doc["machines"][2]["driver"], "570.172.08");
  EXPECT_EQ(doc["machines"][3]["torch"], "2.7.1+cu126");
  std::vector<std::string> codes;
  for (const auto& f : doc["findings"]) codes.push_back(f["code"].get<std::string>());
  EXPECT_EQ(codes, (std::vector<std::string>{"fleet-driver", "fleet-torch"}));
  EXPECT_EQ(doc["findings"][0]["machines"], json::array({"node3"}));
  EXPECT_EQ(doc["findings"][1]["machines"], json::array({"node4"}));
  EXPECT_EQ(doc["fix_first"], 0);
  const auto strict = e2e::run_gpuscout({"fleet", "--strict", kFourNodes});
  EXPECT_EQ(strict.exit_code, 4) << "something to fix";
}

TEST(Fleet, MarkdownAndHtmlFiles) {
  const std::string dir = e2e::temp_dir();
  const std::string md = dir + "/fleet.md", html = dir + "/fleet.html";
  const auto run = e2e::run_gpuscout({"fleet", kFourNodes, "--markdown", md, "--html", html});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string page = e2e::read_file(html);
  EXPECT_NE(page.find("<h1>gpuscout fleet</h1>"), std::string::npos);
  EXPECT_NE(page.find("<td>node3</td>"), std::string::npos);
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_NE(e2e::read_file(md).find("| node4 |"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(Fleet, BadInputIsExitTwoNamingIt) {
  const std::string dir = e2e::temp_dir();
  const auto missing = e2e::run_gpuscout({"fleet", dir + "/absent.json"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("absent.json: no such file or folder"), std::string::npos) << missing.err;
  EXPECT_EQ(e2e::run_gpuscout({"fleet"}).exit_code, 2);
  EXPECT_EQ(e2e::run_gpuscout({"fleet", dir}).exit_code, 2) << "a folder without .json files";
  std::ofstream(dir + "/empty.json");
  const auto only_bad = e2e::run_gpuscout({"fleet", dir + "/empty.json"});
  EXPECT_EQ(only_bad.exit_code, 2);
  EXPECT_NE(only_bad.err.find("empty.json"), std::string::npos) << only_bad.err;
  // Beside good files a bad one is a machine that could not be read, not the end of the report.
  const auto mixed = e2e::run_gpuscout({"fleet", "--json", kFourNodes, dir + "/empty.json"});
  ASSERT_EQ(mixed.exit_code, 0) << mixed.err;
  const json doc = mixed.json();
  EXPECT_EQ(doc["machines"][4]["answered"], false);
  EXPECT_EQ(doc["machines"][4]["status"], "no-answer");
  EXPECT_EQ(doc["findings"][0]["code"], "fleet-no-answer");
  const auto both = e2e::run_gpuscout({"fleet", "--pdsh", "a,b", "--slurm"});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("only one of --slurm and --pdsh"), std::string::npos) << both.err;
  std::filesystem::remove_all(dir);
}

}  // namespace

namespace {

// Real pdsh with its ssh module, and a stand-in `ssh` first on PATH that runs the command here with the host's own
// environment (its fake driver), as the host itself would; "ghost" is a host ssh cannot reach (exit 255).
TEST(Fleet, PdshHostList) {
  if (!gpuscout::os::find_program("pdsh")) GTEST_SKIP() << "pdsh is not installed (scripts/install-deps installs it)";
  const std::string dir = e2e::temp_dir();
  const std::string scenarios = std::string(GPUSCOUT_SOURCE_DIR) + "/tests/fakes/scenarios";
  std::ofstream(dir + "/ssh") << "#!/bin/sh\n"
                                 "# ssh [options] HOST COMMAND...: the options pdsh passes, then the host\n"
                                 "while [ $# -gt 0 ]; do case $1 in -l|-p) shift 2 ;; -*) shift ;; *) break ;; esac; done\n"
                                 "host=$1; shift\n"
                                 "[ -f \"" << dir << "/env-$host\" ] || { echo \"ssh: Could not resolve hostname $host\" >&2; exit 255; }\n"
                                 "exec env $(cat \"" << dir << "/env-$host\") \"$@\"\n";
  std::filesystem::permissions(dir + "/ssh", std::filesystem::perms::owner_all);
  const auto host = [&](const std::string& name, const std::string& scenario) {
    std::ofstream(dir + "/env-" + name) << "LD_LIBRARY_PATH=" << GPUSCOUT_FAKE_LIB_DIR << " GPUSCOUT_FAKE_SCENARIO="
                                        << scenarios << "/" << scenario << ".json\n";
  };
  host("alpha", "slurm-two-a100");
  host("beta", "slurm-two-a100");
  host("gamma", "slurm-two-a100-570");
  const auto run = e2e::run_gpuscout({"fleet", "--json", "--deadline", "30", "--timeout", "3", "--pdsh",
                                      "alpha,beta,gamma,ghost"},
                                     e2e::merge({e2e::fake_driver_env("no-device"),  // each host's file overrides it
                                                 {{"PDSH_RCMD_TYPE", "ssh"},
                                                  {"PATH", dir + ":" + std::string(std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin")}}}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json doc = run.json();
  ASSERT_EQ(doc["machines"].size(), 4u) << doc.dump(1);
  EXPECT_EQ(doc["machines"][0]["name"], "alpha");
  EXPECT_EQ(doc["machines"][2]["name"], "gamma");
  EXPECT_EQ(doc["machines"][2]["driver"], "570.172.08");
  EXPECT_EQ(doc["machines"][3]["name"], "ghost");
  EXPECT_EQ(doc["machines"][3]["answered"], false);
  std::vector<std::string> codes;
  for (const auto& f : doc["findings"]) codes.push_back(f["code"].get<std::string>());
  EXPECT_NE(std::ranges::find(codes, "fleet-driver"), codes.end()) << doc["findings"].dump(1);
  EXPECT_NE(std::ranges::find(codes, "fleet-no-answer"), codes.end());
  std::filesystem::remove_all(dir);
}

}  // namespace

namespace {

// --deadline bounds the whole run: a `scontrol` that never answers (slurmctld down) used to get 10 s of its own after
// srun's share.
TEST(Fleet, SlurmDeadlineIncludesScontrol) {
  const std::string dir = e2e::temp_dir();
  std::ofstream(dir + "/srun") << "#!/bin/sh\nexit 0\n";
  std::ofstream(dir + "/scontrol") << "#!/bin/sh\nexec sleep 60\n";
  for (const char* name : {"/srun", "/scontrol"})
    std::filesystem::permissions(dir + name, std::filesystem::perms::owner_all);
  const auto started = std::chrono::steady_clock::now();
  const auto run = e2e::run_gpuscout({"fleet", "--deadline", "5", "--slurm"},
                                     {{"SLURM_JOB_NODELIST", "node[1-2]"},
                                      {"PATH", dir + ":" + std::string(std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin")}});
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(run.exit_code, 2) << run.err;  // no node answered
  EXPECT_LT(took, 6.5) << "fleet --deadline 5 --slurm ran past its deadline";
}

}  // namespace
