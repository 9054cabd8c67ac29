#pragma once
/// Where a command's Inventory comes from: a saved `info --json` (--from FILE) or this machine's probes.
/// A bad --from file is a UsageError (exit 2) naming the file and what is wrong with it.
#include <string>

#include "inventory/inventory.hpp"

namespace gpuscout::cli {

struct InventorySource {
  std::string from;        ///< --from FILE ("" = probe this machine)
  bool python = true;      ///< run the Python/PyTorch probe
  double timeout_s = 5.0;  ///< driver probe deadline
};

Inventory obtain_inventory(const InventorySource& source);

}  // namespace gpuscout::cli
