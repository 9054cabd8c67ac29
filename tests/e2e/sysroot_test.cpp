// Every recorded machine in tests/fakes/sysroots against its expected.json (see the README there), and its whole
// `info --json` against the golden expected-info.json beside it (GPUSCOUT_UPDATE_GOLDEN=1 rewrites those).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

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

// --- Golden outputs: the whole `info --json` of each recorded machine ------------------------------------------

namespace {

// The fake driver scenario each machine's golden run uses ("" = no driver library, as in the checks above): the
// recorded NVIDIA machines get their own GPU, and no-gpu-vm gets the scenario whose NVML calls fail, so that the
// per-GPU error records are in a golden file too. Python is never run (--no-python), so the output depends only
// on the files here.
const std::map<std::string, std::string> kGoldenScenario = {
    {"laptop-intel-nvidia", "laptop-4060"},
    {"colab-t4", "colab-t4"},
    {"slurm-node-numa", "slurm-two-a100"},
    {"no-gpu-vm", "nvml-errors"},
    {"win-laptop-4060", "win-laptop-4060"},
    {"win-driver-mismatch", "win-driver-mismatch"},
    {"container-limited", "two-mixed"},  // a GPU node's pod given CUDA_VISIBLE_DEVICES=0 of its two GPUs
};

// The fake drivers read the real environment, as the driver reads the recorded process's: the variables CUDA
// honours are passed on from the sysroot's recorded proc/self/environ, so CUDA sees what that process saw.
std::map<std::string, std::string> recorded_cuda_environment(const std::string& name) {
  std::map<std::string, std::string> out = {{"CUDA_VISIBLE_DEVICES", "<unset>"}, {"CUDA_DEVICE_ORDER", "<unset>"}};
  std::ifstream in(std::string(GPUSCOUT_SYSROOTS_DIR) + "/" + name + "/proc/self/environ", std::ios::binary);
  std::string entry;
  while (std::getline(in, entry, '\0')) {
    const auto eq = entry.find('=');
    if (eq != std::string::npos && out.count(entry.substr(0, eq))) out[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  return out;
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
}

// What changes from run to run or from checkout to checkout: the time, the version, the host, the build folder.
json without_volatile_fields(json doc) {
  for (const char* key : {"collected_at", "gpuscout_version", "hostname", "probe_ms"})
    if (doc.contains(key) && !doc[key].is_null()) doc[key] = doc[key].is_number() ? json(0) : json("(varies)");
  if (doc.contains("probe_timings_ms") && doc["probe_timings_ms"].is_object())
    for (auto& [key, value] : doc["probe_timings_ms"].items())
      if (value.is_number()) value = 0;
  std::string text = doc.dump(2);
  replace_all(text, GPUSCOUT_FAKE_OLD_LIB_DIR, "<fake-lib-old>");  // before its prefix, the new driver's folder
  replace_all(text, GPUSCOUT_FAKE_LIB_DIR, "<fake-lib>");
  replace_all(text, GPUSCOUT_SYSROOTS_DIR, "<sysroots>");
  replace_all(text, GPUSCOUT_BINARY_DIR, "<build>");
  replace_all(text, GPUSCOUT_SOURCE_DIR, "<source>");
  return json::parse(text);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Each difference as JSON Patch names it (the JSON pointer), with both values: readable in a test log.
std::string describe_differences(const json& want, const json& got) {
  std::string out;
  int shown = 0;
  for (const auto& op : json::diff(want, got)) {
    if (++shown > 20) {
      out += "  ...\n";
      break;
    }
    const std::string pointer = op["path"].get<std::string>();
    const json::json_pointer ptr(pointer);
    const std::string expected = want.contains(ptr) ? want.at(ptr).dump() : "(absent)";
    const std::string actual = got.contains(ptr) ? got.at(ptr).dump() : "(absent)";
    out += "  " + pointer + ": expected " + expected + ", got " + actual + "\n";
  }
  return out;
}

}  // namespace

TEST_P(Sysroot, WholeOutputMatchesGoldenFile) {
  const std::string name = GetParam();
  const auto scenario = kGoldenScenario.find(name);
  auto env = e2e::merge({e2e::sysroot_env(name), {{"GPUSCOUT_PYTHON", "/nonexistent/python3"}}});
  if (scenario != kGoldenScenario.end())
    env = e2e::merge({env, e2e::fake_driver_env(scenario->second), recorded_cuda_environment(name)});
  const auto run = e2e::run_gpuscout({"info", "--json", "--no-python"}, env);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json got = without_volatile_fields(run.json());
  const std::string golden = std::string(GPUSCOUT_SYSROOTS_DIR) + "/" + name + "/expected-info.json";
  const char* update = std::getenv("GPUSCOUT_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::ofstream(golden, std::ios::binary | std::ios::trunc) << got.dump(2) << "\n";
    std::cout << "[ golden ] wrote " << golden << "\n";
    return;
  }
  ASSERT_TRUE(std::filesystem::exists(golden))
      << golden << " is missing: run `GPUSCOUT_UPDATE_GOLDEN=1 ctest -R 'e2e\\..*Sysroot'` and review the new file";
  const json want = json::parse(read_text(golden));
  EXPECT_TRUE(got == want) << name << ": `info --json` differs from " << golden << "\n"
                           << describe_differences(want, got)
                           << "If the change is intended, run `GPUSCOUT_UPDATE_GOLDEN=1 ctest -R 'e2e\\..*Sysroot'` and review "
                              "the diff of the golden files.";
}

// --- Text that is not UTF-8 -------------------------------------------------------------------------------------

namespace {

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// A copy of a recorded machine whose firmware, CPU, OS, mount and pci.ids strings carry Latin-1 bytes (0xE9, "é"
// in Latin-1) and a control character, as real DMI tables and hand-edited files do.
std::string latin1_sysroot() {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(e2e::temp_dir()) / "latin1";
  fs::copy(fs::path(GPUSCOUT_SYSROOTS_DIR) / "laptop-intel-nvidia", root,
           fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  write_file(root / "sys/class/dmi/id/product_name", "Caf\xE9 Laptop\x01\n");
  write_file(root / "sys/class/dmi/id/sys_vendor", "Soci\xE9t\xE9\n");
  std::string cpuinfo = read_text((root / "proc/cpuinfo").string());
  replace_all(cpuinfo, "i7-13700H", "i7-13700H Caf\xE9");
  write_file(root / "proc/cpuinfo", cpuinfo);
  std::string release = read_text((root / "etc/os-release").string());
  replace_all(release, "PRETTY_NAME=\"Ubuntu 24.04.3 LTS\"", "PRETTY_NAME=\"Ubuntu 24.04.3 LTS \xE9\xE9\"");
  write_file(root / "etc/os-release", release);
  std::ofstream(root / "proc/self/mounts", std::ios::app) << "/dev/sda1 /media/Caf\\351 ext4 rw,relatime 0 0\n";
  // The fake statvfs matches the unescaped mount point: the raw byte, as the probe measures it.
  std::ofstream(root / "statvfs.txt", std::ios::app) << "/media/Caf\xE9 1000000000 500000000 400000000\n";
  write_file(root / "usr/share/misc/pci.ids", "10de  NVIDIA Corporation\n\t28e0  AD107M [GeForce RTX 4060 Caf\xE9]\n");
  return root.string();
}

const std::string kFffd = "\xEF\xBF\xBD";

}  // namespace

TEST(NonUtf8, ProbedStringsComeOutAsValidUtf8) {
  const std::string root = latin1_sysroot();
  for (const char* command : {"info", "doctor"}) {
    const auto run = e2e::run_gpuscout({command, "--json", "--no-python"},
                                       {{"GPUSCOUT_SYSROOT", root}, {"GPUSCOUT_PYTHON", "/nonexistent/python3"}});
    ASSERT_EQ(run.exit_code, 0) << command << ": " << run.err;
    const json doc = run.json();  // nlohmann's parser rejects invalid UTF-8: parsing is the check
    ASSERT_TRUE(doc.is_object()) << command;
    EXPECT_EQ(doc["platform"]["product_name"], "Caf" + kFffd + " Laptop") << command;
    EXPECT_EQ(doc["platform"]["system_vendor"], "Soci" + kFffd + "t" + kFffd) << command;
    EXPECT_EQ(doc["os"]["pretty_name"], "Ubuntu 24.04.3 LTS " + kFffd + kFffd) << command;
    EXPECT_EQ(doc["cpu"]["model"], "13th Gen Intel(R) Core(TM) i7-13700H Caf" + kFffd) << command;
    bool mount_seen = false;
    for (const auto& d : doc["disks"]) mount_seen = mount_seen || d["mount"] == "/media/Caf" + kFffd;
    EXPECT_TRUE(mount_seen) << command << ": " << doc["disks"].dump();
    bool gpu_seen = false;
    for (const auto& g : doc["gpus"]) gpu_seen = gpu_seen || g["name"] == "GeForce RTX 4060 Caf" + kFffd;
    EXPECT_TRUE(gpu_seen) << command << ": " << doc["gpus"].dump();
  }
  const auto text = e2e::run_gpuscout({"doctor", "--no-python"},
                                      {{"GPUSCOUT_SYSROOT", root}, {"GPUSCOUT_PYTHON", "/nonexistent/python3"}});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("Caf" + kFffd), std::string::npos) << text.out;
}

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
