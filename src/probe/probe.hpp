#pragma once
/// Probing a machine into an Inventory. Each source lives in its own file and records its own
/// errors; a source that fails, hangs or finds garbage never stops the others.
#include <chrono>
#include <string>

#include "inventory/inventory.hpp"

namespace gpuscout::probe {

struct Options {
  bool python = true;  ///< run the Python/PyTorch probe (skipped with --no-python)
  std::string python_executable;  ///< "" = $GPUSCOUT_PYTHON, else python3 from PATH
  /// Driver calls (NVML, CUDA) run in a child process cut off after this long (a wedged driver hangs).
  std::chrono::milliseconds driver_timeout{std::chrono::seconds(5)};
  /// `import torch` can take seconds on a cold disk; past this the probe is abandoned.
  std::chrono::milliseconds python_timeout{std::chrono::seconds(30)};
  bool toolkit = true;  ///< look for nvcc and cuDNN
};

/// Probes this machine (or the recorded one under GPUSCOUT_SYSROOT). Never throws for machine faults.
Inventory collect(const Options& options = {});

}  // namespace gpuscout::probe

namespace gpuscout {
/// Library entry point: the whole inventory of this machine.
inline Inventory probe_machine(const probe::Options& options = {}) { return probe::collect(options); }
}  // namespace gpuscout
