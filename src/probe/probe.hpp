#pragma once
/// Probing a machine into an Inventory. Each source lives in its own file and records its own
/// errors; a source that fails, hangs or finds garbage never stops the others.
#include <chrono>
#include <optional>
#include <string>

#include "inventory/inventory.hpp"

namespace gpuscout::probe {

struct Options {
  bool python = true;  ///< run the Python/PyTorch probe (skipped with --no-python)
  /// --python; "" = the rules of probe/python_select.hpp (GPUSCOUT_PYTHON, VIRTUAL_ENV, ..., python3 on PATH)
  std::string python_executable;
  /// Driver calls (NVML, CUDA) run in a child process cut off after this long (a wedged driver hangs).
  std::chrono::milliseconds driver_timeout{std::chrono::seconds(5)};
  /// The Python probe's deadline, including the search for other interpreters when the chosen one has no torch:
  /// --timeout when it is given, else GPUSCOUT_PYTHON_TIMEOUT (both checked by the command line: cli/environment.hpp);
  /// nullopt = kDefaultPythonTimeout.
  std::optional<std::chrono::milliseconds> python_timeout;
  /// `import torch` can take seconds on a cold disk, more than a driver call is given.
  static constexpr std::chrono::milliseconds kDefaultPythonTimeout{std::chrono::seconds(30)};
  bool toolkit = true;  ///< look for nvcc and cuDNN
};

/// Probes this machine (or the recorded one under GPUSCOUT_SYSROOT). Never throws for machine faults.
Inventory collect(const Options& options = {});

}  // namespace gpuscout::probe

namespace gpuscout {
/// Library entry point: the whole inventory of this machine.
inline Inventory probe_machine(const probe::Options& options = {}) { return probe::collect(options); }
}  // namespace gpuscout
