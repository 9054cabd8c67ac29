// --from FILE is another person's file: each hostile field gives exit 2 and a message naming the file, the line
// and the field, in every command that reads one (never an internal error, a crash or a wrong answer).
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "e2e_support.hpp"

namespace {

struct Hostile {
  const char* name;
  const char* body;     // fields after "schema"
  const char* message;  // what stderr must contain after "FILE: "
};

const Hostile kHostile[] = {
    {"overflow", R"("memory": {"total_bytes": 1e999})", "line 1 column 62: the number 1e999 is too large"},
    {"empty-cuda-version", R"("nvidia": {"cuda_driver_version": "", "driver_version": "580.95.05"})",
     "line 1 column 70: field nvidia.cuda_driver_version: '' is not a version like 12.8"},
    {"abc-cuda-version", R"("nvidia": {"cuda_driver_version": "abc", "driver_version": "580.95.05"})",
     "line 1 column 70: field nvidia.cuda_driver_version: 'abc' is not a version like 12.8"},
    {"cc-without-dot", R"("gpus": [{"name": "RTX 4090", "vendor": "nvidia", "compute_capability": "12"}])",
     "field gpus[0].compute_capability: '12' is not a compute capability like 8.9"},
    {"negative-bytes", R"("gpus": [{"name": "RTX 4090", "vendor": "nvidia", "memory_total_bytes": -1}])",
     "field gpus[0].memory_total_bytes: -1 is negative"},
    {"fractional-bytes", R"("gpus": [{"name": "RTX 4090", "vendor": "nvidia", "memory_total_bytes": 1.5}])",
     "field gpus[0].memory_total_bytes: 1.5 is not a whole number"},
    {"huge-bytes", R"("gpus": [{"name": "RTX 4090", "vendor": "nvidia", "memory_total_bytes": 18446744073709551615}])",
     "field gpus[0].memory_total_bytes: 18446744073709551615 is out of range"},
    {"wrong-type", R"("cpu": {"logical_cpus": "eight"})", "field cpu.logical_cpus: 'eight' is text, expected a whole number"},
};

}  // namespace

TEST(FromHostile, EveryCommandExitsTwoNamingFileLineAndField) {
  const std::string dir = e2e::temp_dir();
  const std::vector<std::vector<std::string>> commands = {
      {"doctor"}, {"info", "--json"}, {"device"}, {"fit", "--model", "llama-3-8b"}, {"platforms"},
      {"report", "--markdown", dir + "/out.md"}};
  for (const auto& h : kHostile) {
    const std::string path = dir + "/" + h.name + ".json";
    std::ofstream(path) << R"({"schema": "gpuscout.inventory/1", )" << h.body << "}";
    for (auto args : commands) {
      args.insert(args.begin() + 1, {"--from", path});
      const auto run = e2e::run_gpuscout(args);
      EXPECT_EQ(run.exit_code, 2) << h.name << " " << args[0] << ": " << run.err;
      EXPECT_NE(run.err.find(path + ": "), std::string::npos) << h.name << " " << args[0] << ": " << run.err;
      EXPECT_NE(run.err.find(h.message), std::string::npos) << h.name << " " << args[0] << ": " << run.err;
      EXPECT_EQ(run.err.find("internal error"), std::string::npos) << h.name << " " << args[0] << ": " << run.err;
    }
  }
}

TEST(FromHostile, ASavedInventoryStillReadsBack) {
  const std::string dir = e2e::temp_dir();
  const auto saved = e2e::run_gpuscout({"info", "--json", "--no-python"},
                                       e2e::merge({e2e::fake_driver_env("two-mixed"), e2e::sysroot_env("laptop-intel-nvidia")}));
  ASSERT_EQ(saved.exit_code, 0) << saved.err;
  std::ofstream(dir + "/saved.json") << saved.out;
  const auto run = e2e::run_gpuscout({"info", "--json", "--from", dir + "/saved.json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.json(), saved.json());
}

// Issue 30: nesting 50,000-200,000 levels deep crashed (SIGSEGV) every command that reads JSON a person gives it.
TEST(FromHostile, NestingTooDeepIsAnErrorInEveryReader) {
  const std::string dir = e2e::temp_dir();
  const std::string deep(200'000, '[');
  const std::string inventory = dir + "/deep.json";
  std::ofstream(inventory) << R"({"schema": "gpuscout.inventory/1", "os": )" << deep;
  std::filesystem::create_directories(dir + "/fleet");
  std::ofstream(dir + "/fleet/deep.json") << R"({"schema": "gpuscout.inventory/1", "os": )" << deep;
  const std::string config = dir + "/config.json";
  std::ofstream(config) << R"({"model_type": "llama", "x": )" << deep;
  const std::string bench = dir + "/bench.json";
  std::ofstream(bench) << R"({"schema": "gpuscout.bench/1", "notes": )" << deep;
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"doctor", "--from", inventory}, inventory},
      {{"fit", "--from", inventory, "--model", "llama-3-8b"}, inventory},
      {{"fleet", dir + "/fleet"}, dir + "/fleet/deep.json"},
      {{"fit", "--config", config}, config},
      {{"report", "--bench", bench, "--markdown", dir + "/out.md"}, bench},
  };
  for (const auto& [args, named] : cases) {
    const auto run = e2e::run_gpuscout(args);
    EXPECT_EQ(run.exit_code, 2) << args[0] << ": " << run.err;
    EXPECT_TRUE(e2e::contains(run.err, named + ": line 1 column ")) << args[0] << ": " << run.err;
    EXPECT_TRUE(e2e::contains(run.err, "nested more than 128 levels deep")) << args[0] << ": " << run.err;
  }
}
