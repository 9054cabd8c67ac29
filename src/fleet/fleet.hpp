#pragma once
/// `gpuscout fleet`: many machines as a list of inventories (DESIGN.md), compared. Each machine gets its own verdict
/// (diagnose, as `doctor` gives it); then the fleet's findings say what differs between machines and matters (driver,
/// PyTorch build, GPUs, GPU count, /dev/shm, the OS) and which machines share a problem of their own (a kernel module
/// that does not match its library, ECC errors, a full disk), most urgent first. Pure: machines in, findings out;
/// gathering them (saved files, srun, pdsh) is gather.hpp's job.
#include <optional>
#include <string>
#include <vector>

#include "core/json.hpp"
#include "diagnose/diagnose.hpp"
#include "inventory/inventory.hpp"

namespace gpuscout::fleet {

inline constexpr const char* kFleetSchema = "gpuscout.fleet/1";

/// One machine of the fleet: its inventory, or why there is none.
struct Machine {
  std::string name;    ///< Slurm's node name, else the host name, else the file's name (machine_name)
  std::string source;  ///< the file it was read from, or the launcher ("srun", "pdsh")
  std::optional<Inventory> inventory;
  /// Why there is no inventory: the node did not answer in time, its answer or file is unreadable. "" with one.
  std::string problem;
  std::optional<diagnose::Verdict> verdict;  ///< set by analyse() for every machine with an inventory
};

/// The name a machine goes by in a fleet: the Slurm node name it ran on (SLURMD_NODENAME, recorded in the
/// inventory's environment), else its host name; nullopt when the inventory records neither.
std::optional<std::string> machine_name(const Inventory& inventory);

/// One line of the fleet table, the same in every output form.
struct Row {
  std::string name;
  std::string gpus;     ///< "8× NVIDIA H100 80GB HBM3", "2× A, 1× B", "none"
  std::string driver;   ///< NVIDIA driver version, "" when none
  std::string cuda;     ///< the CUDA version the driver supports, ""
  std::string torch;    ///< "2.5.1+cu121", "" without PyTorch
  std::string verdict;  ///< the verdict's status ("ready", "cpu-only", "needs-action"), or "no-answer"
};
Row row_of(const Machine& machine);

/// Something the fleet shows: a difference between machines, or one machine's problem that others share.
struct FleetFinding {
  std::string code;      ///< "fleet-driver", ...; a per-machine finding keeps doctor's code
  std::string severity;  ///< "error", "warning", "info"
  std::string message;
  std::string fix;
  std::vector<std::string> machines;  ///< the machines to act on (for a difference: the ones unlike the most)
};

struct Fleet {
  std::vector<Machine> machines;        ///< in the order given
  std::vector<FleetFinding> findings;   ///< most urgent first: findings.front() is what to fix first
};

/// Diagnoses every machine and compares them. Machines keep their order; two with the same name get their source
/// appended so that every name in the findings points at one row.
Fleet analyse(std::vector<Machine> machines);

/// The first finding worth acting on (error or warning), if any.
const FleetFinding* fix_first(const Fleet& fleet);

/// "gpuscout.fleet/1": the table, the findings and each machine's verdict (docs/json.md).
nlohmann::ordered_json to_json(const Fleet& fleet);

}  // namespace gpuscout::fleet
