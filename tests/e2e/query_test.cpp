// query: nvidia-smi's --query-gpu conventions on a fake two-GPU machine, the same answer from --from, gpuscout's
// own dotted fields, and the errors for a field or format nvidia-smi would refuse.
#include <cstdio>
#include <fstream>

#include <gtest/gtest.h>

#include "core/json.hpp"
#include "e2e_support.hpp"

namespace {

using nlohmann::json;

const char* kScenario = "two-3070-3090";

std::map<std::string, std::string> machine() {
  return e2e::merge({e2e::fake_driver_env(kScenario), e2e::sysroot_env("no-gpu-vm")});
}

json scenario_gpus() {
  return json::parse(e2e::read_file(std::string(GPUSCOUT_SCENARIOS_DIR) + "/" + kScenario + ".json"))["gpus"];
}

/// The line nvidia-smi prints for `g` (a scenario GPU, the second: index 1) with the fields of EveryNvidiaSmiField.
std::string fmt_line(const json& g, uint64_t used, uint64_t total) {
  const auto watts = [](const json& mw) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f W", mw.get<double>() / 1000.0);
    return std::string(buf);
  };
  return "1, 00000000:4B:00.0, 580.95.05, " + g["cc"].get<std::string>() + ", " + g["temperature_c"].dump() + ", " +
         watts(g["power_mw"]) + ", " + watts(g["power_limit_mw"]) + ", " + g["util_gpu"].dump() + " %, " +
         g["pcie_gen"].dump() + ", " + g["pcie_width"].dump() + ", " + std::to_string(used >> 20) + " MiB, " +
         std::to_string((total - used) >> 20) + " MiB, " + g["uuid"].get<std::string>() + "\n";
}

e2e::Run query(std::vector<std::string> args, std::map<std::string, std::string> env = machine()) {
  args.insert(args.begin(), "query");
  return e2e::run_gpuscout(args, env);
}

}  // namespace

TEST(Query, NameAndMemoryAsNvidiaSmiPrintsThem) {
  const auto run = query({"--query-gpu=name,memory.total", "--format=csv,noheader,nounits"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::string expected;
  for (const auto& g : scenario_gpus())  // the driver's bytes in MiB, in PCI order (the scenario's order)
    expected += g["name"].get<std::string>() + ", " + std::to_string(g["memory_total"].get<uint64_t>() >> 20) + "\n";
  EXPECT_EQ(run.out, expected);
  EXPECT_TRUE(run.out.starts_with("NVIDIA GeForce RTX 3070, 8192\n")) << run.out;
}

TEST(Query, HeaderAndUnitsUnlessAskedAway) {
  const auto run = query({"--query-gpu=gpu_name,memory.total", "--format=csv"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(run.out.starts_with("name, memory.total [MiB]\nNVIDIA GeForce RTX 3070, 8192 MiB\n")) << run.out;
  const auto nounits = query({"--query-gpu=memory.total", "--format=csv,nounits"});
  EXPECT_TRUE(nounits.out.starts_with("memory.total\n8192\n")) << nounits.out;
}

TEST(Query, EveryNvidiaSmiFieldInItsForm) {
  const auto run = query({"--query-gpu=index,pci.bus_id,driver_version,compute_cap,temperature.gpu,power.draw,"
                          "power.limit,utilization.gpu,pcie.link.gen.current,pcie.link.width.current,memory.used,"
                          "memory.free,uuid"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json g = scenario_gpus()[1];
  const uint64_t used = g["memory_used"].get<uint64_t>(), total = g["memory_total"].get<uint64_t>();
  const std::string second = fmt_line(g, used, total);
  EXPECT_NE(run.out.find("index, pci.bus_id, driver_version, compute_cap, temperature.gpu, power.draw [W], "
                         "power.limit [W], utilization.gpu [%], pcie.link.gen.current, pcie.link.width.current, "
                         "memory.used [MiB], memory.free [MiB], uuid\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find(second), std::string::npos) << run.out << "\nexpected: " << second;
}

// The fields nvidia-smi users reach for that `info` already holds: the link's maximum, memory utilisation, clocks.
TEST(Query, ClocksAndLinkMaximaInNvidiaSmisForm) {
  const auto run = query({"--query-gpu=index,pcie.link.gen.max,pcie.link.width.max,utilization.memory,clocks.sm,"
                          "clocks.max.sm,clocks.max.mem"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json g = scenario_gpus()[1];
  EXPECT_NE(run.out.find("index, pcie.link.gen.max, pcie.link.width.max, utilization.memory [%], clocks.current.sm "
                         "[MHz], clocks.max.sm [MHz], clocks.max.memory [MHz]\n"),
            std::string::npos)
      << run.out;
  const std::string second = "1, " + g["pcie_gen_max"].dump() + ", " + g["pcie_width_max"].dump() + ", " +
                             g["util_memory"].dump() + " %, " + g["clock_sm_mhz"].dump() + " MHz, " +
                             g["max_clock_sm_mhz"].dump() + " MHz, " + g["max_clock_mem_mhz"].dump() + " MHz\n";
  EXPECT_NE(run.out.find(second), std::string::npos) << run.out << "\nexpected: " << second;
}

// The fixed fields of the recorded H200 (nvidia-smi 580.159.04 on 2026-12-04: ../shared/measurements/
// h200-2026-12-04/run1.log), byte for byte; the h200 scenario holds that card's facts.
TEST(Query, TheRecordedH200sFixedFieldsAsNvidiaSmiPrintedThem) {
  const auto run = query({"--query-gpu=name,memory.total,compute_cap,clocks.max.sm,clocks.max.memory,power.limit,"
                          "pcie.link.gen.max,pcie.link.width.max,vbios_version,persistence_mode,mig.mode.current,"
                          "ecc.mode.current,clocks.max.graphics",
                          "--format=csv,noheader"},
                         e2e::merge({e2e::fake_driver_env("h200"), e2e::sysroot_env("no-gpu-vm")}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "NVIDIA H200, 143771 MiB, 9.0, 1980 MHz, 3201 MHz, 700.00 W, 5, 16, 96.00.A5.00.1A, Enabled, "
                     "Disabled, Enabled, 1980 MHz\n");
}

// A GeForce has no MIG (NVML: NOT_SUPPORTED) and no vBIOS in this scenario: nvidia-smi's "[N/A]".
TEST(Query, WhatAGpuDoesNotHaveIsNotAvailable) {
  const auto run = query({"--query-gpu=index,persistence_mode,mig.mode.current,vbios_version,clocks.max.gr",
                          "--format=csv,noheader,nounits"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json g = scenario_gpus()[1];
  EXPECT_NE(run.out.find("1, Disabled, [N/A], [N/A], " + g["max_clock_sm_mhz"].dump() + "\n"), std::string::npos)
      << run.out;
}

TEST(Query, TheSameLineFromASavedInventory) {
  const auto saved = e2e::run_gpuscout({"info", "--json", "--no-python"}, machine());
  ASSERT_EQ(saved.exit_code, 0) << saved.err;
  const std::string path = e2e::temp_dir() + "/saved.json";
  std::ofstream(path) << saved.out;
  const std::vector<std::string> args = {"--query-gpu=index,name,pci.bus_id,memory.total,power.draw"};
  const auto live = query(args);
  auto from_args = args;
  from_args.insert(from_args.end(), {"--from", path});
  const auto from = query(from_args, {});
  ASSERT_EQ(from.exit_code, 0) << from.err;
  EXPECT_EQ(from.out, live.out);
  EXPECT_EQ(saved.json()["gpus"][1]["pci_bus_id_nvidia_smi"], "00000000:4B:00.0");
  EXPECT_EQ(saved.json()["gpus"][1]["pci_bus_id"], "0000:4b:00.0");
}

TEST(Query, OwnFieldsByTheirJsonNames) {
  const auto info = e2e::run_gpuscout({"info", "--json", "--no-python"}, machine());
  const json doc = info.json();
  const auto run = query({"--query=cpu.model,memory.total_bytes,gpus.1.name", "--format=csv,noheader"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, doc["cpu"]["model"].get<std::string>() + ", " + doc["memory"]["total_bytes"].dump() + ", " +
                         doc["gpus"][1]["name"].get<std::string>() + "\n");
  const auto gpu = query({"--query-gpu=name,architecture", "--format=csv,noheader"});
  EXPECT_EQ(gpu.out.substr(0, gpu.out.find('\n')),
            doc["gpus"][0]["name"].get<std::string>() + ", " + doc["gpus"][0]["architecture"].get<std::string>());
}

TEST(Query, RefusesWhatNvidiaSmiRefuses) {
  const auto field = query({"--query-gpu=name,memory.totl"});
  EXPECT_EQ(field.exit_code, 2);
  EXPECT_NE(field.err.find("Field \"memory.totl\" is not a valid field to query."), std::string::npos) << field.err;
  const auto path = query({"--query=cpu.modle"});
  EXPECT_EQ(path.exit_code, 2);
  EXPECT_NE(path.err.find("\"cpu.modle\""), std::string::npos) << path.err;
  const auto object = query({"--query=cpu"});
  EXPECT_EQ(object.exit_code, 2) << object.out;
  const auto format = query({"--query-gpu=name", "--format=xml"});
  EXPECT_EQ(format.exit_code, 2);
  EXPECT_NE(format.err.find("'xml'"), std::string::npos) << format.err;
  EXPECT_EQ(query({}).exit_code, 2);
  EXPECT_EQ(query({"--query-gpu=name", "--query=cpu.model"}).exit_code, 2);
  EXPECT_EQ(query({"--query-gpu=name,,uuid"}).exit_code, 2);
}

TEST(Color, ChosenOnceForEveryTextCommand) {
  const auto env = machine();
  const auto always = e2e::run_gpuscout({"--color=always", "doctor", "--no-python"}, env);
  EXPECT_NE(always.out.find("\x1b["), std::string::npos);
  const auto never = e2e::run_gpuscout({"--color", "never", "doctor", "--no-python"}, env);
  EXPECT_EQ(never.out.find("\x1b["), std::string::npos);
  const auto piped = e2e::run_gpuscout({"doctor", "--no-python"}, env);  // auto, and stdout is a pipe
  EXPECT_EQ(piped.out.find("\x1b["), std::string::npos);
  const auto bad = e2e::run_gpuscout({"--color=sometimes", "doctor", "--no-python"}, env);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("sometimes"), std::string::npos) << bad.err;
}

TEST(Query, TorchPathsAskThePythonProbe) {
  const auto env = e2e::merge({machine(), e2e::fake_torch_env("cu121-ok")});
  const json torch = json::parse(e2e::read_file(std::string(GPUSCOUT_SCENARIOS_DIR) + "/torch/cu121-ok.json"));
  const auto run = e2e::run_gpuscout({"query", "--query=torch.version,torch.cuda_available", "--format=csv,noheader"}, env);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, torch["version"].get<std::string>() + ", " + torch["cuda_available"].dump() + "\n");
}

TEST(Query, MemoryHealthInNvidiaSmisWords) {
  const auto env = e2e::merge({e2e::fake_driver_env("a100-retired-pages"), e2e::sysroot_env("no-gpu-vm")});
  const auto run = query({"--query-gpu=index,ecc.mode.current,ecc.mode.pending,ecc.errors.uncorrected.volatile.total,"
                          "retired_pages.dbe,retired_pages.pending,remapped_rows.uncorrectable,remapped_rows.pending,"
                          "remapped_rows.failure",
                          "--format=csv,noheader"},
                         env);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // The first A100 answers no retired-page calls: [N/A], as nvidia-smi prints an unsupported field.
  EXPECT_EQ(run.out, "0, Enabled, Enabled, 0, [N/A], [N/A], 0, No, No\n1, Enabled, Enabled, 1, 1, Yes, 1, Yes, No\n");
  const auto geforce = query({"--query-gpu=ecc.mode.current,remapped_rows.pending", "--format=csv,noheader"});
  ASSERT_EQ(geforce.exit_code, 0) << geforce.err;
  EXPECT_EQ(geforce.out, "[N/A], [N/A]\n[N/A], [N/A]\n") << "a GeForce card supports none of them";
}
