// Every recorded machine in tests/fakes/sysroots against its expected.json (see the README there).
#include <filesystem>
#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "e2e_support.hpp"

using nlohmann::json;

namespace {

std::vector<std::string> sysroots() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(GPUSCOUT_SYSROOTS_DIR))
    if (e.is_directory() && std::filesystem::exists(e.path() / "expected.json")) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// The features gpuscout reports (deep-learning relevant ones); expected.json may list others too.
const std::set<std::string> kReported = {"avx", "avx2", "fma", "f16c", "avx512f", "avx512dq", "avx512bw", "avx512vl",
                                         "avx512_vnni", "avx512_bf16", "avx512_fp16", "avx_vnni", "amx_tile", "amx_bf16",
                                         "amx_int8", "amx_fp16", "neon", "sve", "sve2", "bf16", "i8mm"};

}  // namespace

class Sysroot : public ::testing::TestWithParam<std::string> {};

TEST_P(Sysroot, MatchesExpectedFacts) {
  const std::string name = GetParam();
  json expected;
  std::ifstream(std::string(GPUSCOUT_SYSROOTS_DIR) + "/" + name + "/expected.json") >> expected;
  const auto run = e2e::run_gpuscout({"info", "--json", "--no-python"}, e2e::sysroot_env(name));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json doc = run.json();
  ASSERT_TRUE(doc.is_object());

  const auto& cpu = expected.value("cpu", json::object());
  for (const char* key : {"vendor", "model", "sockets", "physical_cores", "logical_cpus"})
    if (cpu.contains(key) && !cpu[key].is_null()) EXPECT_EQ(doc["cpu"][key], cpu[key]) << name << " cpu." << key;
  if (cpu.contains("cpu_quota")) {
    if (cpu["cpu_quota"].is_null()) EXPECT_TRUE(doc["cpu"]["cpu_quota"].is_null()) << name;
    else EXPECT_NEAR(doc["cpu"]["cpu_quota"].get<double>(), cpu["cpu_quota"].get<double>(), 1e-6) << name;
  }
  if (cpu.contains("max_freq_khz") && cpu["max_freq_khz"].is_number())
    EXPECT_NEAR(doc["cpu"]["max_mhz"].get<double>(), cpu["max_freq_khz"].get<double>() / 1000, 1) << name;
  const auto features = doc["cpu"]["features"].get<std::vector<std::string>>();
  auto has = [&](const std::string& f) {
    const std::string n = f == "asimd" ? "neon" : f;
    return std::find(features.begin(), features.end(), n) != features.end();
  };
  for (const auto& f : cpu.value("features_include", json::array()))
    if (kReported.count(f.get<std::string>() == "asimd" ? "neon" : f.get<std::string>())) EXPECT_TRUE(has(f)) << name << " lacks " << f;
  for (const auto& f : cpu.value("features_exclude", json::array())) EXPECT_FALSE(has(f)) << name << " has " << f;

  const auto& mem = expected.value("memory", json::object());
  if (mem.contains("total_bytes")) EXPECT_EQ(doc["memory"]["total_bytes"], mem["total_bytes"]) << name;
  if (mem.contains("cgroup_limit_bytes")) EXPECT_EQ(doc["memory"]["cgroup_limit_bytes"], mem["cgroup_limit_bytes"]) << name;

  for (const auto& d : expected.value("disks", json::array())) {
    bool found = false;
    for (const auto& got : doc["disks"])
      if (got["mount"] == d["mount"]) {
        found = true;
        EXPECT_EQ(got["total_bytes"], d["total_bytes"]) << name << " " << d["mount"];
        if (d.contains("available_bytes")) EXPECT_EQ(got["free_bytes"], d["available_bytes"]) << name << " " << d["mount"];
      }
    EXPECT_TRUE(found) << name << " missing disk " << d["mount"];
  }
  if (!expected.value("must_not_crash", false))
    EXPECT_EQ(doc["disks"].size(), expected.value("disks", json::array()).size()) << name << ": " << doc["disks"].dump();

  const auto& os = expected.value("os", json::object());
  for (const char* key : {"id", "version_id", "kernel", "container", "wsl"})
    if (os.contains(key)) EXPECT_EQ(doc["os"][key], os[key]) << name << " os." << key;
  if (os.contains("virtualization")) {
    const bool want = !os["virtualization"].is_null();
    EXPECT_EQ(!doc["os"]["virtualization"].is_null(), want) << name << " virtualization " << doc["os"]["virtualization"];
    if (want && os["virtualization"] != "other") EXPECT_EQ(doc["os"]["virtualization"], os["virtualization"]) << name;
  }
  const auto& platform = expected.value("platform", json::object());
  for (const char* key : {"kind", "cloud", "laptop"})
    if (platform.contains(key)) EXPECT_EQ(doc["platform"][key], platform[key]) << name << " platform." << key;

  const auto& gpus = expected.value("gpus", json::array());
  if (!expected.value("must_not_crash", false)) EXPECT_EQ(doc["gpus"].size(), gpus.size()) << name << ": " << doc["gpus"].dump();
  for (const auto& want : gpus) {
    const json* got = nullptr;
    for (const auto& g : doc["gpus"])
      if (g["pci_bus_id"] == want["pci_bus_id"]) got = &g;
    ASSERT_NE(got, nullptr) << name << " missing GPU " << want["pci_bus_id"];
    EXPECT_EQ((*got)["vendor"], want["vendor"]) << name;
    EXPECT_NE((*got)["name"].get<std::string>().find(want["name_contains"].get<std::string>()), std::string::npos)
        << name << ": " << (*got)["name"];
    if (want.contains("kernel_driver")) EXPECT_EQ((*got)["kernel_driver"], want["kernel_driver"]) << name;
  }
  if (expected.contains("nvidia_kernel_module"))
    EXPECT_EQ(doc["nvidia"]["kernel_module_version"], expected["nvidia_kernel_module"]) << name;
  if (expected.contains("nvidia_uvm_loaded")) EXPECT_EQ(doc["nvidia"]["uvm_loaded"], expected["nvidia_uvm_loaded"]) << name;
  if (expected.contains("nouveau_loaded")) EXPECT_EQ(doc["nvidia"]["nouveau_loaded"], expected["nouveau_loaded"]) << name;
}

INSTANTIATE_TEST_SUITE_P(Recorded, Sysroot, ::testing::ValuesIn(sysroots()),
                         [](const auto& param_info) {
                           std::string n = param_info.param;
                           for (auto& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

TEST(RealMachine, ThisMachineProbesWithoutErrorsOrCrash) {
  const auto run = e2e::run_gpuscout({"doctor", "--json", "--no-python"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json doc = run.json();
  EXPECT_GT(doc["cpu"]["logical_cpus"].get<int>(), 0);
  EXPECT_GT(doc["memory"]["total_bytes"].get<uint64_t>(), 0u);
  EXPECT_FALSE(doc["disks"].empty());
  // No driver here: the real no-GPU path (the default test env hides any driver library).
  EXPECT_NE(doc["verdict"]["status"], "ready");
}
