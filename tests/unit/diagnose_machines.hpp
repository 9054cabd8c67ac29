#pragma once
// Machines the diagnose tests start from (diagnose_test.cpp, diagnose_rules_test.cpp, diagnose_environment_test.cpp).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "inventory/inventory.hpp"

namespace gpuscout::test_machines {

/// One NVIDIA GPU with a working driver: NVML and CUDA answer, CUDA counts it; no Python probed.
inline Inventory machine_with(const std::string& cc, const std::string& driver, uint64_t memory = 24ULL << 30) {
  Inventory inv;
  inv.cpu.arch = "x86_64";
  Gpu g;
  g.vendor = "nvidia";
  g.name = "GPU";
  g.pci_bus_id = "0000:01:00.0";
  g.compute_capability = cc;
  g.memory_total_bytes = memory;
  g.memory_free_bytes = memory;
  g.cuda_index = 0;
  inv.gpus.push_back(g);
  inv.nvidia.library_found = true;
  inv.nvidia.driver_version = driver;
  inv.nvidia.kernel_module_loaded = true;
  inv.nvidia.uvm_loaded = true;
  inv.cuda.library_found = true;
  inv.cuda.available = true;
  inv.cuda.device_count = 1;
  return inv;
}

/// The same machine with a PyTorch installed: `cuda` is the CUDA it was built with (none for a CPU build).
inline Inventory with_torch(Inventory inv, const std::string& version, std::optional<std::string> cuda,
                            bool cuda_available) {
  inv.torch = TorchInfo{};
  inv.torch->version = version;
  inv.torch->cuda = std::move(cuda);
  inv.torch->cuda_available = cuda_available;
  return inv;
}

}  // namespace gpuscout::test_machines
