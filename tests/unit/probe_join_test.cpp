// Joining PCI, NVML and CUDA views into one entry per physical GPU: by PCI bus id, never by index.
#include <gtest/gtest.h>

#include "probe/sources.hpp"

namespace {

using gpuscout::CudaDevice;
using gpuscout::Gpu;
using gpuscout::Inventory;
using gpuscout::probe::join_gpus;
using gpuscout::probe::NvmlReport;

Gpu pci_gpu(const char* bus, uint16_t device_id, const char* pci_name) {
  Gpu g;
  g.vendor = "nvidia";
  g.name = pci_name;
  g.pci_bus_id = bus;
  g.pci_vendor_id = 0x10de;
  g.pci_device_id = device_id;
  g.sources = {"pci"};
  return g;
}

Gpu nvml_gpu(int index, const char* bus, const char* name, uint64_t memory) {
  Gpu g;
  g.vendor = "nvidia";
  g.name = name;
  g.nvml_index = index;
  g.pci_bus_id = bus;
  g.memory_total_bytes = memory;
  g.sources = {"nvml"};
  return g;
}

CudaDevice cuda_device(int index, const char* bus, const char* cc, int sms) {
  CudaDevice d;
  d.index = index;
  d.name = "from cuda";
  d.pci_bus_id = bus;
  d.compute_capability = cc;
  d.sm_count = sms;
  return d;
}

TEST(ProbeJoin, MatchesByBusIdWhateverTheOrder) {
  Inventory inv;
  inv.gpus = {pci_gpu("0000:01:00.0", 0x2684, "AD102 [GeForce RTX 4090]"), pci_gpu("0000:02:00.0", 0x1eb8, "TU104GL [Tesla T4]")};
  NvmlReport nvml;
  // NVML lists in its own order, CUDA fastest first: both reversed against PCI here.
  nvml.gpus = {nvml_gpu(0, "0000:02:00.0", "Tesla T4", 16ull << 30), nvml_gpu(1, "0000:01:00.0", "NVIDIA GeForce RTX 4090", 24ull << 30)};
  inv.cuda.devices = {cuda_device(0, "0000:01:00.0", "8.9", 128), cuda_device(1, "0000:02:00.0", "7.5", 40)};
  join_gpus(inv, nvml);
  ASSERT_EQ(inv.gpus.size(), 2u);
  const Gpu& rtx = inv.gpus[0];
  EXPECT_EQ(rtx.pci_bus_id, "0000:01:00.0");
  EXPECT_EQ(rtx.index, 0);
  EXPECT_EQ(rtx.name, "NVIDIA GeForce RTX 4090");  // NVML's product name wins over pci.ids'
  EXPECT_EQ(rtx.nvml_index, 1);
  EXPECT_EQ(rtx.cuda_index, 0);
  EXPECT_EQ(rtx.sm_count, 128);
  EXPECT_EQ(rtx.memory_total_bytes, 24ull << 30);
  EXPECT_EQ(rtx.sources, (std::vector<std::string>{"pci", "nvml", "cuda"}));
  const Gpu& t4 = inv.gpus[1];
  EXPECT_EQ(t4.nvml_index, 0);
  EXPECT_EQ(t4.cuda_index, 1);
  EXPECT_EQ(t4.compute_capability, "7.5");
  EXPECT_EQ(t4.sm_count, 40);
  // Named from the catalogue by PCI id and name, architecture from the capability table.
  EXPECT_TRUE(rtx.catalog_name);
  EXPECT_TRUE(t4.catalog_name);
  EXPECT_EQ(t4.architecture, "Turing");
}

TEST(ProbeJoin, KeepsGpusOnlyNvmlOrOnlyCudaSees) {
  // WSL: no PCI device for the GPU, NVML and CUDA see it; a CUDA-only device (restricted NVML) too.
  Inventory inv;
  NvmlReport nvml;
  nvml.gpus = {nvml_gpu(0, "0000:01:00.0", "NVIDIA GeForce RTX 4060 Laptop GPU", 8ull << 30)};
  inv.cuda.devices = {cuda_device(0, "0000:01:00.0", "8.9", 24), cuda_device(1, "0000:65:00.0", "9.0", 132)};
  join_gpus(inv, nvml);
  ASSERT_EQ(inv.gpus.size(), 2u);
  EXPECT_EQ(inv.gpus[0].name, "NVIDIA GeForce RTX 4060 Laptop GPU");
  EXPECT_EQ(inv.gpus[0].cuda_index, 0);
  EXPECT_EQ(inv.gpus[1].pci_bus_id, "0000:65:00.0");
  EXPECT_EQ(inv.gpus[1].name, "from cuda");
  EXPECT_EQ(inv.gpus[1].vendor, "nvidia");
  EXPECT_EQ(inv.gpus[1].sources, (std::vector<std::string>{"cuda"}));
}

TEST(ProbeJoin, NvmlErrorsStayOnTheirGpu) {
  Inventory inv;
  inv.gpus = {pci_gpu("0000:01:00.0", 0x2684, "AD102"), pci_gpu("0000:02:00.0", 0x2684, "AD102")};
  NvmlReport nvml;
  auto broken = nvml_gpu(1, "0000:02:00.0", "NVIDIA GeForce RTX 4090", 24ull << 30);
  broken.errors.push_back(gpuscout::ProbeError{"nvml", "nvmlDeviceGetTemperature", "Not Supported", 3});
  nvml.gpus = {nvml_gpu(0, "0000:01:00.0", "NVIDIA GeForce RTX 4090", 24ull << 30), broken};
  join_gpus(inv, nvml);
  ASSERT_EQ(inv.gpus.size(), 2u);
  EXPECT_TRUE(inv.gpus[0].errors.empty());
  ASSERT_EQ(inv.gpus[1].errors.size(), 1u);
  EXPECT_EQ(inv.gpus[1].errors[0].what, "nvmlDeviceGetTemperature");
}

TEST(ProbeJoin, NoDriverKeepsPciViewAndTheCatalogueCapability) {
  Inventory inv;
  inv.gpus = {pci_gpu("0000:01:00.0", 0x2684, "AD102 [GeForce RTX 4090]")};
  join_gpus(inv, NvmlReport{});
  ASSERT_EQ(inv.gpus.size(), 1u);
  EXPECT_FALSE(inv.gpus[0].nvml_index);
  EXPECT_EQ(inv.gpus[0].compute_capability, "8.9");  // from the catalogue row found by PCI id
  EXPECT_EQ(inv.gpus[0].architecture, "Ada Lovelace");
}

}  // namespace
