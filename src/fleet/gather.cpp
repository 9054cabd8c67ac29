#include "fleet/gather.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "core/i18n.hpp"
#include "core/json_position.hpp"
#include "core/path.hpp"
#include "core/text.hpp"
#include "inventory/json.hpp"
#include "os/process.hpp"
#include "os/system.hpp"

namespace gpuscout::fleet {
namespace {

/// The machine an inventory (or the reason there is none) describes, named by it where it can tell.
Machine with_inventory(Machine m, Result<Inventory> inv) {
  if (!inv) {
    m.problem = text::visible(inv.error().message, /*keep_newlines=*/true);
    return m;
  }
  if (auto name = machine_name(*inv)) m.name = text::visible(*name);
  m.inventory = std::move(*inv);
  return m;
}

Machine from_file(const std::string& path) {
  Machine m;
  // Names from the file system reach the terminal: control characters in them are shown, never obeyed.
  m.source = text::visible(path);
  m.name = text::visible(core::from_path(core::to_path(path).stem()));
  return with_inventory(std::move(m), load_inventory_file(path));
}

Result<std::vector<std::string>> json_files_in(const std::string& folder) {
  std::error_code ec;
  std::vector<std::string> out;
  for (std::filesystem::directory_iterator it(core::to_path(folder), ec), end; !ec && it != end; it.increment(ec)) {
    const auto name = core::from_path(it->path().filename());
    if (name.ends_with(".json") && !name.starts_with(".")) out.push_back(core::from_path(it->path()));
  }
  if (ec) return fail(trf("{}: the folder cannot be read: {}", folder, ec.message()));
  if (out.empty()) return fail(trf("{}: no .json files in this folder (save each machine's `gpuscout info --json "
                                   "> NAME.json` there)", folder));
  std::ranges::sort(out);
  return out;
}

/// An answer a launcher brought back: the inventory, or why it is unusable.
Machine from_answer(std::string_view label, const std::string& text, std::string_view launcher) {
  Machine m;
  m.source = std::string(launcher);
  m.name = text::visible(label);
  const std::string clean = text::clean_utf8(text);
  const std::string where = trf("{} answer of {}", launcher, label);
  auto doc = core::parse_json(clean);
  if (!doc) {
    m.problem = trf("its answer is not an inventory ({}): is gpuscout installed there at the same path?",
                    doc.error().message);
    return m;
  }
  return with_inventory(std::move(m), inventory_from_json(*doc, where));
}

std::string last_lines(std::string_view text, size_t n) {
  const auto lines = text::split(text::trim(text), '\n');
  std::vector<std::string> tail;
  for (size_t i = lines.size() > n ? lines.size() - n : 0; i < lines.size(); ++i) tail.emplace_back(lines[i]);
  return text::join(tail, " | ");
}

/// Slurm's compressed node list ("gpu[01-04],login1") as names, by Slurm's own `scontrol show hostnames`, within
/// what is left of the run's deadline (10 s at most); none when nothing is left.
std::vector<std::string> expand_nodelist(const std::string& list, std::chrono::steady_clock::time_point end) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
  if (left < std::chrono::milliseconds(100)) return {};
  auto r = os::run({"scontrol", "show", "hostnames", list}, std::min<std::chrono::milliseconds>(left, std::chrono::seconds(10)));
  if (!r || r->exit_code != 0) return {};
  std::vector<std::string> out;
  for (auto line : text::split(r->out, '\n'))
    if (!text::trim(line).empty()) out.emplace_back(text::trim(line));
  return out;
}

std::optional<std::string> job_nodelist(const std::vector<Machine>& machines) {
  for (const auto& m : machines)
    if (m.inventory && m.inventory->environment)
      if (auto it = m.inventory->environment->find("SLURM_JOB_NODELIST"); it != m.inventory->environment->end())
        return it->second;
  return os::getenv("SLURM_JOB_NODELIST");
}

std::string launcher_failure(std::string_view launcher, const os::ProcessResult& r, std::chrono::seconds deadline) {
  if (r.timed_out) return trf("did not answer within {} s", deadline.count());
  const std::string err = last_lines(r.err, 3);
  return err.empty() ? trf("gave no answer ({} exited with code {})", launcher, r.exit_code)
                     : trf("gave no answer: {}", err);
}

/// The nodes in `expected` that gave no answer, each with the reason srun or the deadline gives.
void add_silent(std::vector<Machine>& machines, const std::vector<std::string>& expected,
                const std::map<std::string, std::string>& node_errors, const std::string& fallback,
                std::string_view launcher) {
  std::set<std::string> named;
  for (const auto& m : machines) named.insert(m.name);
  for (const auto& node : expected) {
    if (named.contains(node)) continue;
    const auto it = node_errors.find(node);
    machines.push_back({node, std::string(launcher), std::nullopt,
                        it != node_errors.end() ? trf("gave no answer: {}", it->second) : fallback, std::nullopt});
  }
}

/// Rows in the order of the job's node list (answers arrive in any order); machines it does not name stay last.
void in_node_order(std::vector<Machine>& machines, const std::vector<std::string>& expected) {
  const auto position = [&](const Machine& m) {
    return static_cast<size_t>(std::ranges::find(expected, m.name) - expected.begin());
  };
  std::ranges::stable_sort(machines, [&](const Machine& a, const Machine& b) { return position(a) < position(b); });
}

std::vector<std::string> info_command(const LaunchOptions& o) {
  return {o.gpuscout.empty() ? core::self_executable() : o.gpuscout, "info", "--json", "--timeout",
          fmt::format("{:g}", o.probe_timeout_s)};
}

}  // namespace

Result<std::vector<Machine>> read_saved(const std::vector<std::string>& paths) {
  if (paths.empty()) return fail(tr("name the saved inventories: gpuscout fleet FILE... or FOLDER (or use --slurm)"));
  std::vector<Machine> out;
  for (const auto& path : paths) {
    std::error_code ec;
    const auto status = std::filesystem::status(core::to_path(path), ec);
    if (ec || !std::filesystem::exists(status)) return fail(trf("{}: no such file or folder", path));
    if (std::filesystem::is_directory(status)) {
      auto files = json_files_in(path);
      if (!files) return fail(files.error().message);
      for (const auto& f : *files) out.push_back(from_file(f));
    } else {
      out.push_back(from_file(path));
    }
  }
  if (std::ranges::none_of(out, [](const Machine& m) { return m.inventory.has_value(); }))
    return fail(out.size() == 1 ? out.front().problem
                                : trf("none of the {} files is a saved inventory; the first: {}", out.size(),
                                      out.front().problem));
  return out;
}

std::vector<std::pair<std::string, std::string>> split_labelled(std::string_view output) {
  std::vector<std::pair<std::string, std::string>> out;
  for (auto line : text::split(output, '\n')) {
    const size_t colon = line.find(": ");
    if (colon == std::string_view::npos || colon == 0) continue;
    const auto label = text::trim(line.substr(0, colon));
    // A label is one word ("12", "node3", "gpu-a.cluster"): a launcher's message ("srun: error: ...") is no answer.
    if (label.empty() || label.find_first_of(" \t") != std::string_view::npos || label == "srun" || label == "pdsh")
      continue;
    auto it = std::ranges::find(out, label, &std::pair<std::string, std::string>::first);
    if (it == out.end()) {
      out.emplace_back(std::string(label), std::string());
      it = out.end() - 1;
    }
    // srun cuts a line over 1024 bytes into pieces, each labelled, between other tasks' lines: the pieces are joined
    // as they came, without a newline (an answer is JSON, whose newlines are only layout, never inside a string).
    it->second.append(line.substr(colon + 2));
  }
  return out;
}

std::vector<Machine> machines_from_answers(std::string_view output, std::string_view launcher) {
  std::vector<Machine> machines;
  for (const auto& [label, text] : split_labelled(output)) {
    machines.push_back(from_answer(label, text, launcher));
    if (launcher == "pdsh") machines.back().name = label;  // pdsh's label is the host as the user named it
  }
  return machines;
}

std::map<std::string, std::string> srun_node_errors(std::string_view err) {
  std::map<std::string, std::string> out;
  constexpr std::string_view kPrefix = "srun: error: ";
  for (auto line : text::split(err, '\n')) {
    line = text::trim(line);
    if (!line.starts_with(kPrefix)) continue;
    line.remove_prefix(kPrefix.size());
    // "node3: task 2: Exited with exit code 1": a node name, then what its task did.
    const size_t colon = line.find(": ");
    if (colon == std::string_view::npos) continue;
    const auto node = line.substr(0, colon);
    if (node.find(' ') != std::string_view::npos) continue;  // "Unable to allocate resources: ..." names no node
    out.emplace(std::string(node), std::string(line.substr(colon + 2)));
  }
  return out;
}

std::map<std::string, std::string> pdsh_host_errors(std::string_view err) {
  // "pdsh@login1: node3: ssh exited with exit code 255", "pdsh@login1: node3: connect: Connection refused"
  std::map<std::string, std::string> out;
  for (auto line : text::split(err, '\n')) {
    line = text::trim(line);
    if (!line.starts_with("pdsh@")) continue;
    const size_t first = line.find(": ");
    if (first == std::string_view::npos) continue;
    line.remove_prefix(first + 2);
    const size_t second = line.find(": ");
    if (second == std::string_view::npos) continue;
    const auto host = line.substr(0, second);
    if (host.empty() || host.find(' ') != std::string_view::npos) continue;
    out.emplace(std::string(host), std::string(line.substr(second + 2)));
  }
  return out;
}

std::vector<std::string> slurm_command(const LaunchOptions& o) {
  // The step's own time limit (minutes, rounded up) ends it on the cluster even if srun itself is killed.
  const auto minutes = (o.deadline.count() + 59) / 60;
  std::vector<std::string> argv{"srun", fmt::format("--time={}", std::max<long long>(1, minutes))};
  argv.insert(argv.end(), o.launcher_args.begin(), o.launcher_args.end());
  // After the user's options, so they hold: one task per node, each line labelled by its task.
  for (const char* a : {"--ntasks-per-node=1", "--label", "--kill-on-bad-exit=0"}) argv.emplace_back(a);
  const auto info = info_command(o);
  argv.insert(argv.end(), info.begin(), info.end());
  return argv;
}

Result<std::vector<Machine>> gather_slurm(const LaunchOptions& o) {
  if (!os::find_program("srun"))
    return fail(tr("srun is not on PATH: run `gpuscout fleet --slurm` on a Slurm login node (or load the Slurm "
                   "module first)"));
  // --deadline bounds the whole run: srun leaves a moment of it for scontrol, which names the nodes that stayed
  // silent.
  const auto end = std::chrono::steady_clock::now() + o.deadline;
  const auto for_scontrol = std::min<std::chrono::milliseconds>(std::chrono::seconds(2), o.deadline / 4);
  auto r = os::run(slurm_command(o), o.deadline - for_scontrol);
  if (!r) return fail(trf("srun could not be started: {}", r.error().message));
  auto machines = machines_from_answers(r->out, "srun");
  const auto errors = srun_node_errors(r->err);
  std::vector<std::string> expected;
  if (const auto list = job_nodelist(machines)) expected = expand_nodelist(*list, end);
  add_silent(machines, expected, errors, launcher_failure("srun", *r, o.deadline), "srun");
  in_node_order(machines, expected);
  if (machines.empty())
    return fail(trf("no node answered through srun: {}", launcher_failure("srun", *r, o.deadline)));
  return machines;
}

Result<std::vector<Machine>> gather_pdsh(const LaunchOptions& o) {
  if (!os::find_program("pdsh")) return fail(tr("pdsh is not on PATH: install it (Debian and Ubuntu: `sudo apt install pdsh`)"));
  if (o.launcher_args.empty()) return fail(tr("--pdsh needs a host list: --pdsh node1,node2 or --pdsh 'node[1-4]'"));
  const std::string hosts = text::join(o.launcher_args, ",");
  // The hosts named one by one are the ones to hear from; a range ("node[1-4]") is pdsh's to expand, and a host of
  // it that fails is named in pdsh's own error lines.
  std::vector<std::string> expected;
  for (auto host : text::split(hosts, ','))
    if (host = text::trim(host); !host.empty() && host.find_first_of("[]^@") == std::string_view::npos)
      expected.emplace_back(host);
  // pdsh's own per-host limit ends a second early, so it can still report the hosts that did not answer; --deadline
  // bounds the whole run.
  std::vector<std::string> argv{"pdsh", "-S", "-u", std::to_string(std::max<long long>(1, o.deadline.count() - 1)),
                                "-w", hosts};
  const auto info = info_command(o);
  argv.insert(argv.end(), info.begin(), info.end());
  auto r = os::run(argv, o.deadline);
  if (!r) return fail(trf("pdsh could not be started: {}", r.error().message));
  auto machines = machines_from_answers(r->out, "pdsh");
  const auto errors = pdsh_host_errors(r->err);
  for (const auto& [host, message] : errors)
    if (std::ranges::find(expected, host) == expected.end()) expected.push_back(host);
  add_silent(machines, expected, errors, launcher_failure("pdsh", *r, o.deadline), "pdsh");
  in_node_order(machines, expected);
  if (machines.empty()) return fail(trf("no host answered through pdsh: {}", launcher_failure("pdsh", *r, o.deadline)));
  return machines;
}

}  // namespace gpuscout::fleet
