// fleet: the comparison of many inventories (fleet.cpp), the launchers' output (gather.cpp) and the renderers.
#include <algorithm>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "fleet/fleet.hpp"
#include "fleet/gather.hpp"
#include "inventory/json.hpp"
#include "report/fleet_render.hpp"

namespace gpuscout::fleet {
namespace {

/// A node with `gpus` NVIDIA H100s, the driver, and a CUDA PyTorch (probed Python).
Inventory node(const std::string& name, const std::string& driver, const std::string& torch, int gpus = 8) {
  Inventory inv;
  inv.cpu.arch = "x86_64";
  inv.environment = Environment{{"SLURMD_NODENAME", name}};
  for (int i = 0; i < gpus; ++i) {
    Gpu g;
    g.index = i;
    g.vendor = "nvidia";
    g.name = "NVIDIA H100 80GB HBM3";
    g.pci_bus_id = "0000:" + std::to_string(10 + i) + ":00.0";
    g.compute_capability = "9.0";
    g.memory_total_bytes = 80ULL << 30;
    g.memory_free_bytes = 80ULL << 30;
    g.nvml_index = i;
    g.cuda_index = i;
    inv.gpus.push_back(g);
  }
  inv.nvidia.library_found = true;
  inv.nvidia.driver_version = driver;
  inv.nvidia.cuda_driver_version = driver.starts_with("580") ? "13.0" : "12.4";
  inv.nvidia.kernel_module_loaded = true;
  inv.nvidia.uvm_loaded = true;
  inv.cuda.library_found = true;
  inv.cuda.available = true;
  inv.cuda.device_count = gpus;
  inv.python.probed = true;
  inv.python.torch_installed = true;
  inv.torch = TorchInfo{};
  inv.torch->version = torch;
  inv.torch->cuda = torch.substr(torch.find("+cu") + 3, 2) + "." + torch.substr(torch.find("+cu") + 5, 1);
  inv.torch->cuda_available = true;
  inv.torch->device_count = gpus;
  inv.memory.shm_total_bytes = 500ULL << 30;
  return inv;
}

Machine machine(Inventory inv) {
  Machine m;
  m.name = *machine_name(inv);
  m.source = "test";
  m.inventory = std::move(inv);
  return m;
}

const FleetFinding* find(const Fleet& f, std::string_view code) {
  const auto it = std::ranges::find(f.findings, code, &FleetFinding::code);
  return it == f.findings.end() ? nullptr : &*it;
}

/// The made-up cluster of the issue: four nodes, node3 on another driver branch, node4 with another PyTorch.
std::vector<Machine> four_nodes() {
  return {machine(node("node1", "580.95.05", "2.9.0+cu128")), machine(node("node2", "580.95.05", "2.9.0+cu128")),
          machine(node("node3", "550.54.15", "2.9.0+cu128")), machine(node("node4", "580.95.05", "2.8.0+cu126"))};
}

TEST(Fleet, NamesTheDriverAndTorchOutliers) {
  const Fleet f = analyse(four_nodes());
  ASSERT_EQ(f.machines.size(), 4u);
  const auto* driver = find(f, "fleet-driver");
  ASSERT_NE(driver, nullptr);
  EXPECT_EQ(driver->severity, "warning");  // another branch
  EXPECT_EQ(driver->machines, std::vector<std::string>{"node3"});
  EXPECT_NE(driver->message.find("580.95.05 on node1, node2, node4; 550.54.15 on node3"), std::string::npos)
      << driver->message;
  EXPECT_NE(driver->fix.find("Install driver 580.95.05 on node3"), std::string::npos) << driver->fix;
  const auto* torch = find(f, "fleet-torch");
  ASSERT_NE(torch, nullptr);
  EXPECT_EQ(torch->machines, std::vector<std::string>{"node4"});
  EXPECT_NE(torch->fix.find("2.9.0+cu128"), std::string::npos);
  EXPECT_EQ(find(f, "fleet-gpu-count"), nullptr);
  EXPECT_EQ(find(f, "fleet-gpu-model"), nullptr);
  const auto row = row_of(f.machines[2]);
  EXPECT_EQ(row.name, "node3");
  EXPECT_EQ(row.gpus, "8× NVIDIA H100 80GB HBM3");
  EXPECT_EQ(row.driver, "550.54.15");
  EXPECT_EQ(row.cuda, "12.4");
  EXPECT_EQ(row.torch, "2.9.0+cu128");
  ASSERT_NE(fix_first(f), nullptr);
}

TEST(Fleet, SameBranchIsOnlyInfo) {
  auto nodes = four_nodes();
  nodes[2] = machine(node("node3", "580.82.07", "2.9.0+cu128"));
  const Fleet f = analyse(std::move(nodes));
  ASSERT_NE(find(f, "fleet-driver"), nullptr);
  EXPECT_EQ(find(f, "fleet-driver")->severity, "info");
}

TEST(Fleet, AMissingGpuComesFirst) {
  auto nodes = four_nodes();
  nodes[1] = machine(node("node2", "580.95.05", "2.9.0+cu128", 7));
  const Fleet f = analyse(std::move(nodes));
  const auto* count = find(f, "fleet-gpu-count");
  ASSERT_NE(count, nullptr);
  EXPECT_EQ(count->severity, "error");
  EXPECT_EQ(count->machines, std::vector<std::string>{"node2"});
  EXPECT_EQ(fix_first(f), count);
}

TEST(Fleet, ATieHasNoMajorityToFollow) {
  std::vector<Machine> nodes{machine(node("a", "580.95.05", "2.9.0+cu128")), machine(node("b", "550.54.15", "2.9.0+cu128"))};
  const Fleet f = analyse(std::move(nodes));
  ASSERT_NE(find(f, "fleet-driver"), nullptr);
  EXPECT_NE(find(f, "fleet-driver")->fix.find("Choose one"), std::string::npos);
}

TEST(Fleet, SilentNodesAndSharedProblems) {
  auto nodes = four_nodes();
  // node1 and node2: CUDA counts one GPU fewer than NVML, with nothing in the environment to explain it.
  for (int i : {0, 1}) {
    auto& inv = *nodes[i].inventory;
    inv.gpus.back().cuda_index.reset();
    inv.cuda.device_count = 7;
  }
  nodes.push_back({"node5", "srun", std::nullopt, "did not answer within 120 s", std::nullopt});
  const Fleet f = analyse(std::move(nodes));
  const auto* silent = find(f, "fleet-no-answer");
  ASSERT_NE(silent, nullptr);
  EXPECT_EQ(silent->machines, std::vector<std::string>{"node5"});
  const auto* count = find(f, "cuda-count-mismatch");
  ASSERT_NE(count, nullptr) << "the per-machine rule, shared by two nodes";
  EXPECT_EQ(count->machines, (std::vector<std::string>{"node1", "node2"}));
  EXPECT_EQ(row_of(f.machines[4]).verdict, "no-answer");
  EXPECT_EQ(f.findings.front().severity, "error");
}

TEST(Fleet, SmallDevShmOnOneNode) {
  auto nodes = four_nodes();
  nodes[3].inventory->memory.shm_total_bytes = 64ULL << 20;
  const Fleet f = analyse(std::move(nodes));
  ASSERT_NE(find(f, "fleet-dev-shm"), nullptr);
  EXPECT_EQ(find(f, "fleet-dev-shm")->machines, std::vector<std::string>{"node4"});
}

TEST(Fleet, OneNameOneRow) {
  std::vector<Machine> nodes{machine(node("same", "580.95.05", "2.9.0+cu128")),
                             machine(node("same", "580.95.05", "2.9.0+cu128"))};
  nodes[0].source = "a.json";
  nodes[1].source = "b.json";
  const Fleet f = analyse(std::move(nodes));
  EXPECT_EQ(f.machines[0].name, "same (a)");
  EXPECT_EQ(f.machines[1].name, "same (b)");
  std::vector<Machine> files{machine(node("x", "580.95.05", "2.9.0+cu128")), machine(node("x", "580.95.05", "2.9.0+cu128"))};
  files[0].name = files[1].name = "info";
  files[0].source = "saved/colab/info.json";
  files[1].source = "saved/kaggle/info.json";
  const Fleet g = analyse(std::move(files));
  EXPECT_EQ(g.machines[0].name, "colab/info");
  EXPECT_EQ(g.machines[1].name, "kaggle/info");
}

TEST(Fleet, MachineNamePrefersTheSlurmNode) {
  Inventory inv;
  inv.hostname = "host.example";
  EXPECT_EQ(machine_name(inv), "host.example");
  inv.environment = Environment{{"SLURMD_NODENAME", "gpu07"}};
  EXPECT_EQ(machine_name(inv), "gpu07");
  EXPECT_EQ(machine_name(Inventory{}), std::nullopt);
}

TEST(Fleet, Json) {
  const auto j = to_json(analyse(four_nodes()));
  EXPECT_EQ(j["schema"], kFleetSchema);
  EXPECT_EQ(j["summary"]["machines"], 4);
  EXPECT_EQ(j["summary"]["answered"], 4);
  ASSERT_EQ(j["machines"].size(), 4u);
  EXPECT_EQ(j["machines"][2]["driver"], "550.54.15");
  EXPECT_EQ(j["machines"][2]["gpu_count"], 8);
  EXPECT_TRUE(j["fix_first"].is_number());
  EXPECT_NE(j["findings"][j["fix_first"].get<size_t>()]["severity"], "info");
}

TEST(FleetRender, TextMarkdownHtml) {
  auto nodes = four_nodes();
  nodes[0].name = "<script>x</script>";
  const Fleet f = analyse(std::move(nodes));
  const std::string text = report::render_fleet_text(f, {});
  EXPECT_NE(text.find("machine"), std::string::npos);
  EXPECT_NE(text.find("node3"), std::string::npos);
  EXPECT_NE(text.find("[fleet-driver]"), std::string::npos);
  EXPECT_NE(text.find("Fix first: node3"), std::string::npos) << text;
  const std::string md = report::render_fleet_markdown(f);
  EXPECT_EQ(std::ranges::count(md, '\n') >= 6, true);
  EXPECT_NE(md.find("| node3 | 8× NVIDIA H100 80GB HBM3 | 550.54.15 | 12.4 | 2.9.0+cu128 |"), std::string::npos) << md;
  const std::string html = report::render_fleet_html(f, "2026-12-02T00:00:00Z", "0.0");
  EXPECT_EQ(html.find("<script"), std::string::npos) << "no script at all, and the name escaped";
  EXPECT_NE(html.find("&lt;script&gt;"), std::string::npos);
  EXPECT_NE(html.find("default-src 'none'; style-src"), std::string::npos);
}

TEST(FleetGather, SplitsLabelledOutput) {
  // Task 0's "abcdef" string cut in two pieces by srun, with task 1's line between them.
  const auto parts = split_labelled(" 0: {\n 1: {\n 0:   \"a\": \"abc\n 1: }\n 0: def\"}\n10: x\n"
                                    "srun: error: node3: task 2: Exited\nnode1: {\nno label here\n");
  ASSERT_EQ(parts.size(), 4u);
  EXPECT_EQ(parts[0].first, "0");
  EXPECT_EQ(parts[0].second, "{  \"a\": \"abcdef\"}");
  EXPECT_EQ(parts[1].first, "1");
  EXPECT_EQ(parts[1].second, "{}");
  EXPECT_EQ(parts[2].first, "10");
  EXPECT_EQ(parts[3].first, "node1");
}

TEST(FleetGather, SrunNodeErrors) {
  const auto errors = srun_node_errors(
      "srun: error: node3: task 2: Exited with exit code 1\nsrun: error: Unable to allocate resources: x\n"
      "srun: Job step aborted\n");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors.at("node3"), "task 2: Exited with exit code 1");
}

TEST(FleetGather, SrunCommandKeepsOneTaskPerNodeLast) {
  LaunchOptions o;
  o.launcher_args = {"-p", "gpu", "--ntasks-per-node=4"};
  o.gpuscout = "/opt/gpuscout";
  o.deadline = std::chrono::seconds(90);
  o.probe_timeout_s = 2.5;
  const auto argv = slurm_command(o);
  const std::vector<std::string> want{"srun",         "--time=2",         "-p",   "gpu",
                                      "--ntasks-per-node=4", "--ntasks-per-node=1", "--label", "--kill-on-bad-exit=0",
                                      "/opt/gpuscout", "info",            "--json", "--timeout", "2.5"};
  EXPECT_EQ(argv, want);
}

class FleetFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("gpuscout-fleet-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const auto path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }
  std::filesystem::path dir_;
};

TEST_F(FleetFiles, AFolderWithAnEmptyFile) {
  write("a.json", json_text(inventory_to_json(node("node1", "580.95.05", "2.9.0+cu128"))));
  write("b.json", "");
  write("notes.txt", "not read");
  auto machines = read_saved({dir_.string()});
  ASSERT_TRUE(machines) << machines.error().message;
  ASSERT_EQ(machines->size(), 2u);
  EXPECT_EQ((*machines)[0].name, "node1");
  EXPECT_FALSE((*machines)[1].inventory);
  EXPECT_EQ((*machines)[1].name, "b");
  EXPECT_NE((*machines)[1].problem.find("empty"), std::string::npos) << (*machines)[1].problem;
}

TEST_F(FleetFiles, Errors) {
  EXPECT_FALSE(read_saved({}));
  auto missing = read_saved({(dir_ / "nope.json").string()});
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("nope.json: no such file or folder"), std::string::npos);
  auto empty_folder = read_saved({dir_.string()});
  ASSERT_FALSE(empty_folder);
  EXPECT_NE(empty_folder.error().message.find("no .json files"), std::string::npos);
  auto bad = read_saved({write("bad.json", "{\"schema\": 3}")});
  ASSERT_FALSE(bad) << "nothing to compare: an error naming the file";
  EXPECT_NE(bad.error().message.find("bad.json"), std::string::npos) << bad.error().message;
}

}  // namespace
}  // namespace gpuscout::fleet
