#pragma once
/// Where a fleet's inventories come from: saved `gpuscout info --json` files (or a folder of them), or each node
/// answering at once through the launcher the cluster already runs: Slurm's srun, or pdsh for a plain host list.
/// Nothing here starts a daemon or logs in anywhere itself: the launcher does, with its own authentication.
#include <chrono>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "fleet/fleet.hpp"

namespace gpuscout::fleet {

/// Each FILE, or every *.json file in a FOLDER (by name). A file that is not an inventory becomes a machine with the
/// reason as its problem (a node that wrote an empty or cut file is part of the picture); a path that does not exist
/// and a folder without .json files are errors.
Result<std::vector<Machine>> read_saved(const std::vector<std::string>& paths);

/// A launcher's output with each line labelled by the task or host it came from ("3: text", "node1: text", as
/// `srun --label` and pdsh write them): the text of each label, its lines joined in order without newlines (srun cuts
/// long lines into labelled pieces; for JSON, newlines are only layout), labels in order of first appearance. Lines
/// without a label (a launcher's own messages) are left out.
std::vector<std::pair<std::string, std::string>> split_labelled(std::string_view output);

/// Each labelled answer as a machine: its inventory, named by its Slurm node (srun) or by pdsh's host label; an answer
/// that is not an inventory is a machine with the reason as its problem.
std::vector<Machine> machines_from_answers(std::string_view output, std::string_view launcher);

/// The lines of srun's standard error that name a node's failure ("srun: error: node3: task 2: Exited with exit code
/// 1"), as node -> message.
std::map<std::string, std::string> srun_node_errors(std::string_view err);

/// The lines of pdsh's standard error that name a host's failure ("pdsh@login1: node3: ssh exited with exit code
/// 255"), as host -> message.
std::map<std::string, std::string> pdsh_host_errors(std::string_view err);

struct LaunchOptions {
  std::vector<std::string> launcher_args;  ///< srun's options (partition, nodes, account), or pdsh's host list
  std::string gpuscout;                    ///< the gpuscout the nodes run (default: this executable's path)
  std::chrono::seconds deadline{120};      ///< for every node together: they answer in parallel
  double probe_timeout_s = 5.0;            ///< each node's driver probe deadline (gpuscout info --timeout)
};

/// srun ARGS --ntasks-per-node=1 --label GPUSCOUT info --json, one inventory per node. The job's node list (in each
/// answer's environment, or this process's when it runs inside an allocation) tells which nodes did not answer; they
/// come back as machines with the reason. Error: srun cannot be run, or no node answered.
Result<std::vector<Machine>> gather_slurm(const LaunchOptions& options);

/// The command gather_slurm runs (tests and --dry-run show it).
std::vector<std::string> slurm_command(const LaunchOptions& options);

/// pdsh -w HOSTS GPUSCOUT info --json: one inventory per host of a plain host list. Error: pdsh cannot be run, or
/// no host answered.
Result<std::vector<Machine>> gather_pdsh(const LaunchOptions& options);

}  // namespace gpuscout::fleet
