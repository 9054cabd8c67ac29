#pragma once
/// Text rendering of `doctor` and `info`: one screen a learner can read. Formats only; computes nothing.
#include <string>

#include "diagnose/diagnose.hpp"
#include "inventory/inventory.hpp"

namespace gpuscout::report {

struct TextStyle {
  bool color = false;  ///< ANSI colours (only on a terminal, never with NO_COLOR)
};

/// The inventory as sections (CPU, memory, disks, OS, GPUs, driver, CUDA, toolkit, Python/PyTorch).
std::string render_inventory_text(const Inventory& inventory, const TextStyle& style);
/// The verdict block: status, then each finding with its fix.
std::string render_verdict_text(const diagnose::Verdict& verdict, const TextStyle& style);

}  // namespace gpuscout::report
