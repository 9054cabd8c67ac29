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
  bool timeout_given = false;  ///< --timeout was given: it is the Python probe's deadline too
  std::string python_executable = {};  ///< --python ("" = the usual rules)
};

Inventory obtain_inventory(const InventorySource& source);

}  // namespace gpuscout::cli
