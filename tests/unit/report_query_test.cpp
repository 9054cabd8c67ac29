#include "report/query.hpp"

#include <gtest/gtest.h>

using namespace gpuscout;

namespace {

Inventory two_nvidia_and_an_igpu() {
  Inventory inv;
  inv.nvidia.driver_version = "580.95.05";
  Gpu a;
  a.vendor = "nvidia";
  a.name = "NVIDIA GeForce RTX 3070";
  a.pci_bus_id = "0000:01:00.0";
  a.nvml_index = 0;
  a.memory_total_bytes = 8ULL << 30;
  a.power_draw_mw = 35120;
  a.utilization_gpu_pct = 3;
  Gpu igpu;  // an Intel iGPU: nvidia-smi does not list it
  igpu.vendor = "intel";
  igpu.name = "Intel UHD Graphics 630";
  igpu.index = 1;
  Gpu b = a;
  b.index = 2;
  b.name = "NVIDIA GeForce RTX 3090";
  b.pci_bus_id = "0000:4b:00.0";
  b.nvml_index = 1;
  b.memory_total_bytes.reset();
  b.power_draw_mw.reset();
  inv.gpus = {a, igpu, b};
  return inv;
}

std::string gpu_query(const std::string& fields, const std::string& format = "csv") {
  auto r = report::render_gpu_query(two_nvidia_and_an_igpu(), *report::parse_field_list(fields), *report::parse_query_format(format));
  return r ? *r : "error: " + r.error().message;
}

}  // namespace

TEST(GpuQuery, NvidiaSmiHeadersUnitsAndNotAvailable) {
  EXPECT_EQ(gpu_query("index,name,memory.total,power.draw,utilization.gpu,pci.bus_id"),
            "index, name, memory.total [MiB], power.draw [W], utilization.gpu [%], pci.bus_id\n"
            "0, NVIDIA GeForce RTX 3070, 8192 MiB, 35.12 W, 3 %, 00000000:01:00.0\n"
            "1, NVIDIA GeForce RTX 3090, [N/A], [N/A], 3 %, 00000000:4B:00.0\n");
  EXPECT_EQ(gpu_query("name,memory.total", "csv,noheader,nounits"),
            "NVIDIA GeForce RTX 3070, 8192\nNVIDIA GeForce RTX 3090, [N/A]\n");
}

TEST(GpuQuery, AliasesPrintUnderTheMainName) {
  EXPECT_EQ(gpu_query("gpu_name,gpu_bus_id,driver_version", "nounits, csv"),
            "name, pci.bus_id, driver_version\nNVIDIA GeForce RTX 3070, 00000000:01:00.0, 580.95.05\n"
            "NVIDIA GeForce RTX 3090, 00000000:4B:00.0, 580.95.05\n");
}

TEST(GpuQuery, OwnGpuFieldsAndErrors) {
  EXPECT_EQ(gpu_query("pci_bus_id_nvidia_smi,vendor", "csv,noheader"), "00000000:01:00.0, nvidia\n00000000:4B:00.0, nvidia\n");
  const std::string refused = gpu_query("name,bogus");
  EXPECT_TRUE(refused.starts_with("error: Field \"bogus\" is not a valid field to query. The nvidia-smi fields "
                                  "gpuscout answers: index, name, uuid,"))
      << refused;
  EXPECT_NE(refused.find("clocks.max.sm"), std::string::npos) << refused;
  EXPECT_EQ(gpu_query("processes").substr(0, 22), "error: Field \"processe");
}

TEST(QueryFormat, CsvWithItsTwoModifiersOnly) {
  EXPECT_TRUE(report::parse_query_format("csv"));
  const auto both = report::parse_query_format("csv,noheader,nounits");
  ASSERT_TRUE(both);
  EXPECT_FALSE(both->header);
  EXPECT_FALSE(both->units);
  EXPECT_FALSE(report::parse_query_format("noheader"));
  EXPECT_FALSE(report::parse_query_format("csv,json"));
  EXPECT_FALSE(report::parse_query_format(""));
  EXPECT_FALSE(report::parse_field_list("name,,uuid"));
  EXPECT_FALSE(report::parse_field_list(""));
}

TEST(InventoryQuery, DottedPathsIntoTheDocument) {
  Inventory inv = two_nvidia_and_an_igpu();
  inv.cpu.model = "AMD Ryzen 7 5800X";
  const Json doc = inventory_to_json(inv);
  const auto q = [&](const std::string& paths, const std::string& format) {
    auto r = report::render_inventory_query(doc, *report::parse_field_list(paths), *report::parse_query_format(format));
    return r ? *r : "error: " + r.error().message;
  };
  EXPECT_EQ(q("cpu.model,gpus.2.name,gpus.0.memory_total_bytes", "csv"),
            "cpu.model, gpus.2.name, gpus.0.memory_total_bytes\nAMD Ryzen 7 5800X, NVIDIA GeForce RTX 3090, 8589934592\n");
  EXPECT_EQ(q("gpus.2.memory_total_bytes", "csv,noheader"), "[N/A]\n");
  EXPECT_NE(q("gpus.3.name", "csv").find("\"gpus.3.name\""), std::string::npos);
  EXPECT_NE(q("cpu", "csv").find("not one value"), std::string::npos);
}
