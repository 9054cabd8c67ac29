#pragma once
/// Text rendering of `doctor` and `info`: one screen a learner can read. Formats only; computes nothing.
#include <cstddef>
#include <string>

#include "diagnose/diagnose.hpp"
#include "inventory/inventory.hpp"

namespace gpuscout::report {

struct TextStyle {
  bool color = false;  ///< ANSI colours (only on a terminal, never with NO_COLOR)
  bool detail = true;  ///< `info`: CPU clocks, caches and SIMD flags, the libraries' own error strings, GPU processes
  size_t width = 100;  ///< columns the verdict's long lines wrap to (the terminal's width when there is one)
};

/// The inventory as sections (CPU, memory, disks, OS, GPUs, driver, CUDA, toolkit, Python/PyTorch).
std::string render_inventory_text(const Inventory& inventory, const TextStyle& style);
/// One finding: "  severity [code] message", then "      fix: ...", wrapped to the style's width.
std::string render_finding_text(const Finding& finding, const TextStyle& style);
/// The first screen: whether the machine can train on its GPU, the one command (never wrapped), then "run gpuscout
/// again to check".
std::string render_first_screen(const diagnose::Verdict& verdict, const TextStyle& style);
/// The plan's steps, numbered, each command on a line of its own.
std::string render_steps_text(const diagnose::Plan& plan, const TextStyle& style);
/// The verdict block: the first screen, the status, each finding with its fix, the steps.
std::string render_verdict_text(const diagnose::Verdict& verdict, const TextStyle& style);

}  // namespace gpuscout::report
