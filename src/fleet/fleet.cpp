#include "fleet/fleet.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/i18n.hpp"
#include "core/text.hpp"
#include "core/units.hpp"
#include "core/version.hpp"
#include "diagnose/torch_choice.hpp"

namespace gpuscout::fleet {
namespace {

/// A list of names for a message: all of them up to eight, then "and N more".
std::string name_list(const std::vector<std::string>& names) {
  constexpr size_t kShown = 8;
  if (names.size() <= kShown) return text::join(names, ", ");
  std::vector<std::string> shown(names.begin(), names.begin() + kShown);
  return trf("{} and {} more", text::join(shown, ", "), names.size() - kShown);
}

bool discrete(const Gpu& g) { return !g.integrated; }

std::vector<const Gpu*> discrete_gpus(const Inventory& inv) {
  std::vector<const Gpu*> out;
  for (const auto& g : inv.gpus)
    if (discrete(g)) out.push_back(&g);
  return out;
}

bool has_nvidia_gpu(const Inventory& inv) {
  return std::ranges::any_of(inv.gpus, [](const Gpu& g) { return g.vendor == "nvidia" && discrete(g); });
}

/// "8× NVIDIA H100 80GB HBM3" or "2× A, 1× B" in the order the GPUs appear.
std::string gpu_summary(const Inventory& inv) {
  std::vector<std::pair<std::string, int>> counts;
  for (const Gpu* g : discrete_gpus(inv)) {
    auto it = std::ranges::find(counts, g->name, &std::pair<std::string, int>::first);
    if (it == counts.end()) counts.emplace_back(g->name, 1);
    else ++it->second;
  }
  if (counts.empty()) return tr("none");
  std::vector<std::string> parts;
  for (const auto& [name, n] : counts) parts.push_back(fmt::format("{}× {}", n, name));
  return text::join(parts, ", ");
}

// ---- What is compared between machines: one row per fact, its value per machine and what to do about a difference.

/// A fact's value on one machine; nullopt where the fact does not apply there (no NVIDIA GPU for the driver).
using ValueOf = std::optional<std::string> (*)(const Inventory&);

struct Compared {
  const char* code;
  const char* label;  ///< N_(): what differs, "NVIDIA driver"
  ValueOf value;
  /// N_(): the step for the machines unlike the most, {0} the value most machines have, {1} those machines.
  const char* fix;
  /// The severity of a difference: warning for what breaks jobs across machines, info for what only surprises.
  const char* severity;
};

std::optional<std::string> driver_value(const Inventory& inv) {
  if (!has_nvidia_gpu(inv)) return std::nullopt;
  if (inv.nvidia.driver_version) return *inv.nvidia.driver_version;
  if (inv.nvidia.kernel_module_version) return *inv.nvidia.kernel_module_version;
  return std::string(tr("not installed"));
}

std::optional<std::string> torch_value(const Inventory& inv) {
  if (!inv.python.probed) return std::nullopt;
  if (inv.torch) return inv.torch->version;
  return std::string(tr("not installed"));
}

/// The cards and their memory, without the count (a machine missing a GPU is fleet-gpu-count's finding).
std::optional<std::string> gpu_model_value(const Inventory& inv) {
  std::set<std::string> kinds;
  for (const Gpu* g : discrete_gpus(inv))
    kinds.insert(g->memory_total_bytes ? fmt::format("{} ({})", g->name, units::format_bytes(*g->memory_total_bytes))
                                       : g->name);
  if (kinds.empty()) return std::nullopt;  // a login or CPU node: not a GPU kind of its own
  return text::join(std::vector<std::string>(kinds.begin(), kinds.end()), ", ");
}

std::optional<std::string> toolkit_value(const Inventory& inv) {
  if (!has_nvidia_gpu(inv)) return std::nullopt;
  return inv.toolkit.nvcc_version ? *inv.toolkit.nvcc_version : std::string(tr("not installed"));
}

std::optional<std::string> os_value(const Inventory& inv) {
  std::string out = inv.os.pretty_name.value_or(inv.os.id.value_or(inv.os.family));
  if (inv.os.kernel) out += ", " + *inv.os.kernel;
  return out;
}

constexpr Compared kCompared[] = {
    {"fleet-driver", N_("NVIDIA driver"), driver_value,
     N_("Install driver {0} on {1}, as on the other machines, then reboot: ranks of one job on different drivers "
        "can fail in NCCL or give different results."),
     "warning"},
    {"fleet-torch", N_("PyTorch"), torch_value, nullptr, "warning"},  // torch_fix
    {"fleet-gpu-model", N_("GPUs"), gpu_model_value,
     N_("Keep each job on one kind of GPU: {1} have other GPUs than most machines ({0}). Give each kind its own Slurm "
        "partition, or a node feature that jobs pick with `--constraint`: a job spread over both runs at the slower "
        "card's pace."),
     "warning"},
    {"fleet-toolkit", N_("CUDA toolkit (nvcc)"), toolkit_value,
     N_("Install CUDA toolkit {0} on {1} if jobs compile CUDA code (extensions, Triton caches): the same code then "
        "builds the same way everywhere."),
     "info"},
    {"fleet-os", N_("Operating system"), os_value,
     N_("Bring {1} to {0} like the other machines when you next maintain them."), "info"},
};

/// Machines grouped by a value, the largest group first (ties by value, so the output is stable).
struct Group {
  std::string value;
  std::vector<std::string> machines;
};

std::vector<Group> groups_of(const std::vector<Machine>& machines, ValueOf value) {
  std::map<std::string, std::vector<std::string>> by_value;
  for (const auto& m : machines)
    if (m.inventory)
      if (auto v = value(*m.inventory)) by_value[*v].push_back(m.name);
  std::vector<Group> out;
  for (auto& [v, names] : by_value) out.push_back({v, std::move(names)});
  std::ranges::stable_sort(out, [](const Group& a, const Group& b) { return a.machines.size() > b.machines.size(); });
  return out;
}

/// "A on n1, n2; B on n3": the four largest groups, then how many other values there are.
std::string groups_text(const std::vector<Group>& groups) {
  constexpr size_t kShown = 4;
  std::vector<std::string> parts;
  for (size_t i = 0; i < groups.size() && i < kShown; ++i)
    parts.push_back(trf("{} on {}", groups[i].value, name_list(groups[i].machines)));
  if (groups.size() > kShown) parts.push_back(trf("{} other values", groups.size() - kShown));
  return text::join(parts, "; ");
}

/// The machines outside the largest group: the ones to change.
std::vector<std::string> outliers(const std::vector<Group>& groups) {
  std::vector<std::string> out;
  for (size_t i = 1; i < groups.size(); ++i) out.insert(out.end(), groups[i].machines.begin(), groups[i].machines.end());
  return out;
}

bool same_branch(const std::vector<Group>& groups) {
  std::set<std::string> branches;
  for (const auto& g : groups) branches.insert(g.value.substr(0, g.value.find('.')));
  return branches.size() == 1;
}

const Inventory* inventory_of(const std::vector<Machine>& machines, const std::string& name) {
  for (const auto& m : machines)
    if (m.name == name && m.inventory) return &*m.inventory;
  return nullptr;
}

/// The pip command that installs exactly `version` ("2.9.1+cu128"): PyTorch's local version names its wheel index
/// ("cu128", "cpu", "rocm6.4"); a version without one is the default wheel on PyPI.
std::string exact_torch_install(const std::string& python, const std::string& version) {
  const size_t plus = version.find('+');
  const std::string pin = fmt::format("{} -m pip install \"torch=={}\"", python, version.substr(0, plus));
  if (plus == std::string::npos) return pin;
  return pin + " --index-url https://download.pytorch.org/whl/" + version.substr(plus + 1);
}

/// fleet-torch's fix: the exact build, the command, and which of the machines need a newer driver for it first (a
/// wheel their driver cannot run is no fix).
std::string torch_fix(const std::vector<Machine>& machines, const std::vector<Group>& groups,
                      const std::vector<std::string>& outliers) {
  const Inventory* model = inventory_of(machines, groups[0].machines.front());
  if (!model || !model->torch)
    return trf("Install PyTorch in the same way on every machine the jobs run on: {} have none.",
               name_list(groups[0].machines));
  // The interpreter as the first machine to change names it (its own path); the others' may differ.
  const Inventory* first = inventory_of(machines, outliers.front());
  std::string fix = trf("Install PyTorch {} on {}, the build the other machines have (same version and CUDA "
                        "variant: a job whose ranks import different builds can hang or fail at the first "
                        "collective), in the environment the jobs use there: `{}`",
                        groups[0].value, name_list(outliers),
                        exact_torch_install(first ? diagnose::python_command(*first) : "python3", groups[0].value));
  const auto wheel_cuda = model && model->torch && model->torch->cuda ? Version::parse(*model->torch->cuda) : std::nullopt;
  if (!wheel_cuda) return fix;
  std::vector<std::string> old_driver;
  for (const auto& name : outliers) {
    const Inventory* inv = inventory_of(machines, name);
    const auto driver_cuda = inv && inv->nvidia.cuda_driver_version ? Version::parse(*inv->nvidia.cuda_driver_version)
                                                                     : std::nullopt;
    if (driver_cuda && driver_cuda->major() < wheel_cuda->major()) old_driver.push_back(name);
  }
  if (!old_driver.empty())
    fix += ". " + trf("First give {} a driver that runs CUDA {} (the driver finding): this build cannot start on "
                     "their driver.",
                     name_list(old_driver), *model->torch->cuda);
  return fix;
}

void compare_facts(const std::vector<Machine>& machines, std::vector<FleetFinding>& out) {
  for (const auto& c : kCompared) {
    const auto groups = groups_of(machines, c.value);
    if (groups.size() < 2) continue;
    FleetFinding f{c.code, c.severity, trf("Not the same {} on every machine: {}.", tr(c.label), groups_text(groups)), "", outliers(groups)};
    const bool tie = groups[0].machines.size() == groups[1].machines.size();
    f.fix = tie                      ? trf("Choose one {} for every machine: no value is on most of them.", tr(c.label))
            : f.code == "fleet-torch" ? torch_fix(machines, groups, f.machines)
                                      : fmt::format(fmt::runtime(tr(c.fix)), groups[0].value, name_list(f.machines));
    // A newer driver of the same branch is a point release: worth aligning, rarely the cause of a failure.
    if (f.code == "fleet-driver" && same_branch(groups)) f.severity = "info";
    out.push_back(std::move(f));
  }
}

/// GPU count against the most common count among machines that have GPUs: a missing card is a hardware fault.
void compare_gpu_count(const std::vector<Machine>& machines, std::vector<FleetFinding>& out) {
  const auto count_value = [](const Inventory& inv) -> std::optional<std::string> {
    const auto n = discrete_gpus(inv).size();
    return n ? std::optional<std::string>(std::to_string(n)) : std::nullopt;
  };
  const auto groups = groups_of(machines, count_value);
  if (groups.size() < 2 || groups[0].machines.size() == groups[1].machines.size()) return;
  const int most = std::stoi(groups[0].value);
  std::vector<std::string> fewer;
  for (size_t i = 1; i < groups.size(); ++i)
    if (std::stoi(groups[i].value) < most) fewer.insert(fewer.end(), groups[i].machines.begin(), groups[i].machines.end());
  if (fewer.empty()) return;
  out.push_back({"fleet-gpu-count", "error",
                 trf("Not the same number of GPUs on every machine: {} on {}; {}.", groups[0].value, name_list(groups[0].machines),
                     groups_text(std::vector<Group>(groups.begin() + 1, groups.end()))),
                 trf("Check {}: `nvidia-smi` and `sudo dmesg | grep -i -e xid -e 'fallen off'` show a GPU in a bad "
                     "state or gone from the bus; reseat or service the card, then reboot.",
                     name_list(fewer)),
                 fewer});
}

/// /dev/shm far below the others' (a node set up by hand, a tmpfs size= in /etc/fstab): DataLoader workers there die
/// with "bus error" where the same job runs elsewhere.
void compare_shm(const std::vector<Machine>& machines, std::vector<FleetFinding>& out) {
  std::vector<uint64_t> sizes;
  for (const auto& m : machines)
    if (m.inventory && m.inventory->memory.shm_total_bytes) sizes.push_back(*m.inventory->memory.shm_total_bytes);
  if (sizes.size() < 2) return;
  std::ranges::sort(sizes);
  const uint64_t median = sizes[sizes.size() / 2];
  std::vector<std::string> small, parts;
  for (const auto& m : machines) {
    if (!m.inventory || !m.inventory->memory.shm_total_bytes) continue;
    const uint64_t size = *m.inventory->memory.shm_total_bytes;
    if (size * 2 > median) continue;
    small.push_back(m.name);
    parts.push_back(trf("{} on {}", units::format_bytes(size), m.name));
  }
  if (small.empty()) return;
  out.push_back({"fleet-dev-shm", "warning",
                 trf("/dev/shm is much smaller on some machines: {}; {} on most.", text::join(parts, ", "),
                     units::format_bytes(median)),
                 trf("Give /dev/shm on {} the size the others have (`sudo mount -o remount,size={} /dev/shm`, and the "
                     "same in /etc/fstab): PyTorch DataLoader workers pass batches through it.",
                     name_list(small), units::format_bytes(median)),
                 small});
}

/// Each machine's own findings (doctor's), grouped by code and text so that a problem several machines share is
/// one finding naming them all. Info-level notes (a laptop, a hosted notebook) are each machine's own business.
void shared_problems(const std::vector<Machine>& machines, std::vector<FleetFinding>& out) {
  std::vector<FleetFinding> grouped;
  for (const auto& m : machines) {
    if (!m.verdict) continue;
    for (const auto& f : m.verdict->findings) {
      if (f.severity == "info") continue;
      auto it = std::ranges::find_if(grouped, [&](const FleetFinding& g) {
        return g.code == f.code && g.message == f.message && g.fix == f.fix;
      });
      if (it == grouped.end()) grouped.push_back({f.code, f.severity, f.message, f.fix, {m.name}});
      else it->machines.push_back(m.name);
    }
  }
  out.insert(out.end(), grouped.begin(), grouped.end());
}

void unanswered(const std::vector<Machine>& machines, std::vector<FleetFinding>& out) {
  for (const auto& m : machines)
    if (!m.inventory)
      out.push_back({"fleet-no-answer", "error", fmt::format("{}: {}", m.name, m.problem),
                     tr("Log in to the machine and run `gpuscout doctor` there: it says what is wrong and how to fix "
                        "it."),
                     {m.name}});
}

int severity_rank(std::string_view s) { return s == "error" ? 0 : s == "warning" ? 1 : 2; }

/// The last `parts` components of a path, without the file's extension: "colab-t4/expected-info".
std::string path_tail(const std::string& path, size_t parts) {
  std::string out = path;
  if (const size_t dot = out.rfind('.'); dot != std::string::npos && out.find('/', dot) == std::string::npos)
    out.resize(dot);
  size_t at = out.size();
  for (size_t i = 0; i < parts && at != std::string::npos && at > 0; ++i) at = out.rfind('/', at - 1);
  return at == std::string::npos ? out : out.substr(at + 1);
}

/// Two machines of one name (files saved under one name in different folders, a host saved twice): each is named by
/// the shortest end of its source path that tells them apart, so every name in the findings points at one row.
void unique_names(std::vector<Machine>& machines) {
  std::map<std::string, std::vector<Machine*>> by_name;
  for (auto& m : machines) by_name[m.name].push_back(&m);
  for (auto& [name, same] : by_name) {
    if (same.size() < 2) continue;
    for (size_t parts = 1; parts <= 8; ++parts) {
      std::set<std::string> tails;
      for (const Machine* m : same) tails.insert(path_tail(m->source, parts));
      if (tails.size() < same.size() && parts < 8) continue;
      for (Machine* m : same) {
        const std::string tail = path_tail(m->source, parts);
        m->name = tail == name || tail.ends_with("/" + name) ? tail : fmt::format("{} ({})", name, tail);
      }
      break;
    }
  }
}

}  // namespace

std::optional<std::string> machine_name(const Inventory& inventory) {
  if (inventory.environment)
    if (auto it = inventory.environment->find("SLURMD_NODENAME"); it != inventory.environment->end() &&
                                                                  !text::trim(it->second).empty())
      return std::string(text::trim(it->second));
  if (inventory.hostname && !text::trim(*inventory.hostname).empty()) return std::string(text::trim(*inventory.hostname));
  return std::nullopt;
}

Row row_of(const Machine& m) {
  Row row{m.name, "", "", "", "", m.verdict ? m.verdict->status : std::string("no-answer")};
  if (!m.inventory) return row;
  const Inventory& inv = *m.inventory;
  row.gpus = gpu_summary(inv);
  row.driver = inv.nvidia.driver_version.value_or("");
  row.cuda = inv.nvidia.cuda_driver_version.value_or(inv.cuda.driver_version.value_or(""));
  row.torch = inv.torch ? inv.torch->version : "";
  return row;
}

Fleet analyse(std::vector<Machine> machines) {
  unique_names(machines);
  for (auto& m : machines)
    if (m.inventory) m.verdict = diagnose::diagnose(*m.inventory);
  Fleet fleet;
  fleet.machines = std::move(machines);
  auto& f = fleet.findings;
  unanswered(fleet.machines, f);
  compare_gpu_count(fleet.machines, f);
  compare_facts(fleet.machines, f);
  compare_shm(fleet.machines, f);
  shared_problems(fleet.machines, f);
  // Most urgent first; within a severity, what touches more machines first, then the order found.
  std::ranges::stable_sort(f, [](const FleetFinding& a, const FleetFinding& b) {
    if (severity_rank(a.severity) != severity_rank(b.severity)) return severity_rank(a.severity) < severity_rank(b.severity);
    return a.machines.size() > b.machines.size();
  });
  return fleet;
}

const FleetFinding* fix_first(const Fleet& fleet) {
  for (const auto& f : fleet.findings)
    if (f.severity != "info") return &f;
  return nullptr;
}

nlohmann::ordered_json to_json(const Fleet& fleet) {
  using J = nlohmann::ordered_json;
  J machines = J::array();
  int answered = 0, ready = 0;
  for (const auto& m : fleet.machines) {
    const Row row = row_of(m);
    J jm = {{"name", row.name},         {"source", m.source}, {"answered", m.inventory.has_value()},
            {"problem", m.inventory ? J(nullptr) : J(m.problem)},
            {"gpus", row.gpus},          {"gpu_count", m.inventory ? J(discrete_gpus(*m.inventory).size()) : J(nullptr)},
            {"driver", row.driver.empty() ? J(nullptr) : J(row.driver)},
            {"cuda", row.cuda.empty() ? J(nullptr) : J(row.cuda)},
            {"torch", row.torch.empty() ? J(nullptr) : J(row.torch)},
            {"status", row.verdict},
            {"verdict", m.verdict ? diagnose::to_json(*m.verdict) : J(nullptr)}};
    answered += m.inventory ? 1 : 0;
    ready += row.verdict == "ready" ? 1 : 0;
    machines.push_back(std::move(jm));
  }
  J findings = J::array();
  for (const auto& f : fleet.findings)
    findings.push_back({{"code", f.code}, {"severity", f.severity}, {"message", f.message}, {"fix", f.fix},
                        {"machines", f.machines}});
  const FleetFinding* first = fix_first(fleet);
  return {{"schema", kFleetSchema},
          {"summary", {{"machines", fleet.machines.size()}, {"answered", answered}, {"ready", ready}}},
          {"machines", std::move(machines)},
          {"findings", std::move(findings)},
          {"fix_first", first ? J(static_cast<size_t>(first - fleet.findings.data())) : J(nullptr)}};
}

}  // namespace gpuscout::fleet
