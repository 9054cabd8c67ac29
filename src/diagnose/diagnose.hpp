#pragma once
/// The verdict: rules over an Inventory and the compatibility tables. Pure: the same inventory (this
/// machine's, or one loaded with --from) always gives the same findings.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "inventory/inventory.hpp"

namespace gpuscout::diagnose {

struct Finding {
  std::string code;      ///< stable identifier ("driver-library-mismatch"), documented in docs/json.md
  std::string severity;  ///< "error", "warning", "info"
  std::string message;   ///< what is wrong, in plain language
  std::string fix;       ///< the exact next step: a command, a version, a menu path
};

struct Verdict {
  std::string status;  ///< "ready", "cpu-only", "needs-action"
  std::vector<Finding> findings;
  std::string device;  ///< what a training script should use: "cuda:N" or "cpu"
  std::optional<std::string> pip_install;  ///< the PyTorch install command that fits this machine
};

/// A PyTorch wheel chosen for a machine: which release, which CUDA variant (none = CPU), and the command.
struct TorchChoice {
  std::string torch;                ///< "2.14"
  std::optional<std::string> cuda;  ///< "13.0"
  std::string command;              ///< pip install ...
  std::optional<std::string> driver_needed;  ///< minimum driver when the current one is too old or missing
};
/// The newest stable wheel that runs every NVIDIA GPU of the machine with its driver (CPU wheel without one).
TorchChoice choose_torch(const Inventory& inventory);

Verdict diagnose(const Inventory& inventory);

/// "cuda:N" for the usable NVIDIA GPU with the most free memory (N in CUDA's numbering), else "cpu".
std::string best_device(const Inventory& inventory);

nlohmann::ordered_json to_json(const Verdict& verdict);

}  // namespace gpuscout::diagnose
