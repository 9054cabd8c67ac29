// The recorded environment (probe/environment.cpp): which names, unset against empty, the bounds.
#include <map>

#include <gtest/gtest.h>

#include "probe/sources.hpp"

using namespace gpuscout;

namespace {

probe::EnvironmentLookup lookup_in(const std::map<std::string, std::string>& env) {
  return [&env](const std::string& name) -> std::optional<std::string> {
    const auto it = env.find(name);
    return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
}

std::vector<std::string> names_of(const std::map<std::string, std::string>& env) {
  std::vector<std::string> out;
  for (const auto& [k, v] : env) out.push_back(k);
  return out;
}

}  // namespace

TEST(ProbeEnvironment, RecordsTheListedNamesAndNcclOnly) {
  const std::map<std::string, std::string> env = {
      {"CUDA_VISIBLE_DEVICES", "0"}, {"OMP_NUM_THREADS", "4"}, {"NCCL_DEBUG", "INFO"},
      {"NCCL_P2P_DISABLE", "1"},     {"HOME", "/home/alice"},  {"NCCL_", "x"}, {"PATH", "/usr/bin"}};
  const auto got = probe::recorded_environment(names_of(env), lookup_in(env));
  EXPECT_EQ(got, (Environment{{"CUDA_VISIBLE_DEVICES", "0"},
                              {"NCCL_DEBUG", "INFO"},
                              {"NCCL_P2P_DISABLE", "1"},
                              {"OMP_NUM_THREADS", "4"}}));
}

TEST(ProbeEnvironment, EmptyIsAValueUnsetIsAbsent) {
  const std::map<std::string, std::string> env = {{"CUDA_VISIBLE_DEVICES", ""}};
  const auto got = probe::recorded_environment(names_of(env), lookup_in(env));
  ASSERT_EQ(got.count("CUDA_VISIBLE_DEVICES"), 1u);
  EXPECT_EQ(got.at("CUDA_VISIBLE_DEVICES"), "");
  EXPECT_EQ(got.count("CUDA_DEVICE_ORDER"), 0u);
}

TEST(ProbeEnvironment, BoundedAndCleaned) {
  std::map<std::string, std::string> env;
  env["LD_LIBRARY_PATH"] = std::string(5000, 'a') + "\xe4\xb8\xad";
  env["CUDA_DEVICE_ORDER"] = std::string("PCI\xff_BUS_ID");
  for (int i = 0; i < 100; ++i) env["NCCL_X" + std::to_string(1000 + i)] = "1";
  env["NCCL_" + std::string(200, 'L')] = "1";  // no setting has such a name
  const auto got = probe::recorded_environment(names_of(env), lookup_in(env));
  EXPECT_EQ(got.size(), kMaxEnvironmentVariables);
  EXPECT_EQ(got.at("LD_LIBRARY_PATH").size(), kMaxEnvironmentValueBytes);
  EXPECT_EQ(got.at("CUDA_DEVICE_ORDER"), "PCI\xef\xbf\xbd_BUS_ID");
  // The fixed names come first; then NCCL_* by name until the bound.
  EXPECT_EQ(got.count("NCCL_X1000"), 1u);
  EXPECT_EQ(got.count("NCCL_X1099"), 0u);
  // A value cut inside a character ends before it.
  env["LD_LIBRARY_PATH"] = std::string(4095, 'a') + "\xe4\xb8\xad";
  EXPECT_EQ(probe::recorded_environment(names_of(env), lookup_in(env)).at("LD_LIBRARY_PATH").size(), 4095u);
}
