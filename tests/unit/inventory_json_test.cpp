// The saved-inventory reader (--from FILE): another person's file is checked field by field when read.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "inventory/json.hpp"
#include "test_support.hpp"

using namespace gpuscout;

namespace {


std::string doc(const std::string& body) { return R"({"schema": "gpuscout.inventory/1", )" + body + "}"; }

struct BadCase {
  const char* name;
  std::string text;
  std::string message;  // the whole message after "FILE: "
};

}  // namespace

TEST(InventoryReader, RejectsEachHostileFieldNamingFileLineAndField) {
  const BadCase cases[] = {
      {"overflow", doc(R"("memory": {"total_bytes": 1e999})"), "line 1 column 62: the number 1e999 is too large"},
      {"overflow-nested", "{\"schema\": \"gpuscout.inventory/1\",\n \"cpu\": {\"max_mhz\": -1e999}}",
       "line 2 column 21: the number -1e999 is too large"},
      {"empty-version", doc(R"("nvidia": {"cuda_driver_version": ""})"),
       "line 1 column 70: field nvidia.cuda_driver_version: '' is not a version like 12.8"},
      {"abc-version", doc(R"("nvidia": {"cuda_driver_version": "abc"})"),
       "line 1 column 70: field nvidia.cuda_driver_version: 'abc' is not a version like 12.8"},
      {"driver-version", doc(R"("cuda": {"driver_version": "x13"})"),
       "line 1 column 63: field cuda.driver_version: 'x13' is not a version like 12.8"},
      {"torch-cuda", doc(R"("torch": {"version": "2.5.1", "cuda": "cu121"})"),
       "line 1 column 74: field torch.cuda: 'cu121' is not a version like 12.8"},
      {"cc-no-dot", doc(R"("gpus": [{"name": "A"}, {"name": "B", "compute_capability": "12"}])"),
       "line 1 column 96: field gpus[1].compute_capability: '12' is not a compute capability like 8.9"},
      {"cc-cuda", doc(R"("cuda": {"devices": [{"compute_capability": "8."}]})"),
       "line 1 column 80: field cuda.devices[0].compute_capability: '8.' is not a compute capability like 8.9"},
      {"negative-bytes", doc(R"("gpus": [{"memory_total_bytes": -1}])"),
       "line 1 column 68: field gpus[0].memory_total_bytes: -1 is negative"},
      {"fractional-bytes", doc(R"("memory": {"total_bytes": 1.5})"),
       "line 1 column 62: field memory.total_bytes: 1.5 is not a whole number"},
      {"huge-gpu-bytes", doc(R"("gpus": [{"memory_free_bytes": 18446744073709551615}])"),
       "line 1 column 67: field gpus[0].memory_free_bytes: 18446744073709551615 is out of range (0 to "
       "1125899906842624)"},
      {"huge-disk", doc(R"("disks": [{"mount": "/", "total_bytes": 1e30}])"),
       "line 1 column 76: field disks[0].total_bytes: 1e+30 is out of range (0 to 4611686018427387904)"},
      {"pci-id", doc(R"("gpus": [{"pci_device_id": 70000}])"),
       "line 1 column 63: field gpus[0].pci_device_id: 70000 is out of range (0 to 65535)"},
      {"negative-count", doc(R"("cpu": {"logical_cpus": -4})"),
       "line 1 column 60: field cpu.logical_cpus: -4 is negative"},
      {"negative-index", doc(R"("gpus": [{"cuda_index": -1}])"),
       "line 1 column 60: field gpus[0].cuda_index: -1 is negative"},
      {"negative-real", doc(R"("cpu": {"cpu_quota": -2})"),
       "line 1 column 57: field cpu.cpu_quota: -2 is out of range (0 to 1e+15)"},
      {"string-count", doc(R"("cpu": {"logical_cpus": "8"})"),
       "line 1 column 60: field cpu.logical_cpus: '8' is text, expected a whole number"},
      {"list-section", doc(R"("gpus": "many")"), "line 1 column 44: field gpus: 'many' is text, expected a list"},
      {"object-section", doc(R"("nvidia": [1])"), "line 1 column 46: field nvidia: [1] is a list, expected an object"},
      {"bool-flag", doc(R"("os": {"wsl": "yes"})"), "line 1 column 50: field os.wsl: 'yes' is text, expected true or false"},
      {"string-name", doc(R"("gpus": [{"name": 5}])"), "line 1 column 54: field gpus[0].name: 5 is a number, expected text"},
      {"cpu-list", doc(R"("cpu": {"allowed_cpus": "0-3,x"})"),
       "line 1 column 60: field cpu.allowed_cpus: '0-3,x' is not a CPU list like 0-7,16-23"},
      {"node-cpus", doc(R"("cpu": {"numa_nodes": [{"node": 1, "cpus": "9-2"}]})"),
       "line 1 column 79: field cpu.numa_nodes[0].cpus: '9-2' is not a CPU list like 0-7,16-23"},
      {"gpu-numa-node", doc(R"("gpus": [{"numa_node": -1}])"),
       "line 1 column 59: field gpus[0].numa_node: -1 is negative"},
      {"multi-line", "{\n  \"schema\": \"gpuscout.inventory/1\",\n  \"gpus\": [\n    {\"compute_capability\": \"x\"}\n  ]\n}\n",
       "line 4 column 28: field gpus[0].compute_capability: 'x' is not a compute capability like 8.9"},
      {"syntax", doc(R"("cpu": {)"),
       "line 1 column 45: not valid JSON (truncated or damaged?): syntax error while parsing object - unexpected end "
       "of input; expected '}'"},
  };
  for (const auto& c : cases) {
    const std::string path = gpuscout::test_support::write_temp("inventory-json", std::string(c.name) + ".json", c.text);
    const auto r = load_inventory_file(path);
    ASSERT_FALSE(r.has_value()) << c.name;
    EXPECT_EQ(r.error().message, path + ": " + c.message) << c.name;
  }
}

TEST(InventoryReader, AcceptsWhatTheSchemaAllows) {
  const std::string text = doc(R"(
    "gpus": [{"name": "RTX", "memory_total_bytes": 25757220864, "temperature_c": -5, "compute_capability": "12.0",
              "pci_device_id": 65535, "errors": [{"source": "nvml", "what": "x", "message": "m", "code": -1}]}],
    "memory": {"total_bytes": 8e9},
    "nvidia": {"driver_version": "580.95.05", "cuda_driver_version": "13.0", "kernel_module_version": null},
    "torch": {"version": "unknown", "cuda": "12.8", "devices": [{"capability": "8.9"}]},
    "cpu": {"max_mhz": 5400.5, "logical_cpus": 20, "future_field": {"any": "thing"}, "allowed_cpus": "0-7:2/4,16",
            "numa_nodes": [{"node": 0, "cpus": "0-15", "memory_total_bytes": 68719476736}, {"node": 1, "cpus": ""}]},
    "newer_section": [1, 2, 3])");
  const auto r = load_inventory_file(gpuscout::test_support::write_temp("inventory-json", "good.json", text));
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->gpus.at(0).temperature_c, -5);
  EXPECT_EQ(r->gpus.at(0).errors.at(0).code, -1);
  EXPECT_EQ(r->gpus.at(0).memory_total_bytes, 25757220864ULL);
  EXPECT_EQ(r->memory.total_bytes, 8000000000ULL);
  EXPECT_EQ(r->nvidia.cuda_driver_version, "13.0");
  EXPECT_FALSE(r->nvidia.kernel_module_version.has_value());
  EXPECT_EQ(r->torch->devices.at(0).capability, "8.9");
  EXPECT_DOUBLE_EQ(r->cpu.max_mhz.value(), 5400.5);
  EXPECT_EQ(r->cpu.allowed_cpus, "0-7:2/4,16");
  ASSERT_EQ(r->cpu.numa_nodes.size(), 2u);
  EXPECT_EQ(r->cpu.numa_nodes[0].memory_total_bytes, 68719476736ULL);
  EXPECT_EQ(r->cpu.numa_nodes[1].cpus, "") << "a node with memory and no CPUs";
  EXPECT_FALSE(r->cpu.numa_nodes[1].memory_total_bytes.has_value());
}

TEST(InventoryReader, CleansStringsToUtf8) {
  // Latin-1 in the file itself, and escapes that decode to control characters.
  const std::string text = doc("\"platform\": {\"product_name\": \"Caf\xE9 \\u001b[31mPC\\u0000\"}");
  const auto r = load_inventory_file(gpuscout::test_support::write_temp("inventory-json", "latin1.json", text));
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->platform.product_name, "Caf\xEF\xBF\xBD [31mPC");
}

TEST(InventoryReader, ErrorsWithoutTheTextNameTheField) {
  const auto r = inventory_from_json(nlohmann::json::parse(doc(R"("nvidia": {"cuda_driver_version": ""})")), "pasted");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().message, "pasted: field nvidia.cuda_driver_version: '' is not a version like 12.8");
}

TEST(InventoryWriter, NeverThrowsOnInvalidUtf8) {
  Inventory inv;
  inv.platform.product_name = "Caf\xE9";
  const std::string out = json_text(inventory_to_json(inv));
  EXPECT_NE(out.find("Caf\xEF\xBF\xBD"), std::string::npos);
}

// Every recorded machine's golden output reads back to the same document: the reader knows every field the
// writer writes (a field missing from a section's list would come back as its default).
TEST(InventoryReader, RoundTripsEveryGoldenMachine) {
  int checked = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(GPUSCOUT_SYSROOTS_DIR)) {
    if (!e.path().filename().string().starts_with("expected-info")) continue;
    const auto r = load_inventory_file(e.path().string());
    ASSERT_TRUE(r.has_value()) << r.error().message;
    std::ifstream in(e.path());
    const auto want = nlohmann::json::parse(in);
    auto got = nlohmann::json::parse(json_text(inventory_to_json(*r)));
    EXPECT_EQ(got, want) << e.path();
    ++checked;
  }
  EXPECT_GE(checked, 10);
}

// The environment: "" and unset are different facts, and so are "not recorded" (null) and "none set" ({}).
TEST(InventoryReader, EnvironmentKeepsEmptyValuesAndNotRecorded) {
  Inventory inv;
  inv.environment = Environment{{"CUDA_VISIBLE_DEVICES", ""}, {"NCCL_DEBUG", "INFO"}};
  auto back = inventory_from_json(nlohmann::json::parse(json_text(inventory_to_json(inv))), "round-trip");
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_EQ(back->environment, inv.environment);
  inv.environment = Environment{};
  back = inventory_from_json(nlohmann::json::parse(json_text(inventory_to_json(inv))), "round-trip");
  ASSERT_TRUE(back->environment.has_value());
  EXPECT_TRUE(back->environment->empty());
  inv.environment.reset();
  const auto written = nlohmann::json::parse(json_text(inventory_to_json(inv)));
  EXPECT_TRUE(written.at("environment").is_null());
  EXPECT_FALSE(inventory_from_json(written, "old")->environment.has_value());
}

TEST(InventoryReader, EnvironmentFromOutsideIsBounded) {
  auto r = inventory_from_json(nlohmann::json::parse(doc(R"("environment": {"CUDA_VISIBLE_DEVICES": 0})")), "f");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().message, "f: field environment.CUDA_VISIBLE_DEVICES: 0 is a number, expected text");
  r = inventory_from_json(nlohmann::json::parse(doc(R"("environment": ["CUDA_VISIBLE_DEVICES"])")), "f");
  ASSERT_FALSE(r.has_value());
  nlohmann::json many = nlohmann::json::parse(doc(R"("environment": {})"));
  for (int i = 0; i < 65; ++i) many["environment"]["NCCL_X" + std::to_string(i)] = "1";
  r = inventory_from_json(many, "f");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().message, "f: field environment: holds more than 64 variables");
  nlohmann::json big = nlohmann::json::parse(doc(R"("environment": {})"));
  big["environment"]["LD_LIBRARY_PATH"] = std::string(10000, 'a');
  r = inventory_from_json(big, "f");
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->environment->at("LD_LIBRARY_PATH").size(), kMaxEnvironmentValueBytes);
}
