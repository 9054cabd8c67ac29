// fleet: many machines in one table (saved `info --json` files, or each node through srun or pdsh), what differs
// between them and what to fix first.
#include <algorithm>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "cli/usage.hpp"
#include "core/error.hpp"
#include "core/i18n.hpp"
#include "fleet/gather.hpp"
#include "inventory/json.hpp"
#include "os/system.hpp"
#include "os/write_target.hpp"
#include "report/fleet_render.hpp"

namespace gpuscout::cli {
namespace {

struct FleetOptions {
  std::vector<std::string> paths;
  bool slurm = false;
  std::string pdsh;
  bool json = false;
  std::optional<std::string> markdown;  ///< "" = standard output
  std::string html;
  double deadline_s = 120;
  double timeout_s = 5;
  std::string gpuscout;
  bool strict = false;
};

std::vector<fleet::Machine> gather(const FleetOptions& o) {
  if (o.slurm && !o.pdsh.empty()) throw UsageError(tr("give only one of --slurm and --pdsh"));
  // With --slurm the arguments after it are srun's (separate_launcher_arguments put them behind "--").
  fleet::LaunchOptions launch{.launcher_args = o.slurm ? o.paths : std::vector<std::string>{},
                              .gpuscout = o.gpuscout,
                              .deadline = std::chrono::seconds(static_cast<long long>(o.deadline_s)),
                              .probe_timeout_s = o.timeout_s};
  if (o.slurm) return usage(fleet::gather_slurm(launch), "--slurm:");
  if (!o.pdsh.empty()) {
    if (!o.paths.empty()) throw UsageError(tr("--pdsh gathers the inventories itself: give no files with it"));
    launch.launcher_args = {o.pdsh};
    return usage(fleet::gather_pdsh(launch), "--pdsh:");
  }
  return usage(fleet::read_saved(o.paths));
}

int run_fleet(const FleetOptions& o) {
  if (!o.html.empty() && o.markdown && *o.markdown == o.html) throw UsageError(tr("--html and --markdown name the same file"));
  const fleet::Fleet result = fleet::analyse(gather(o));
  if (o.json) {
    print(json_text(fleet::to_json(result)) + "\n");
  } else if (o.markdown && o.markdown->empty()) {
    print(report::render_fleet_markdown(result));
  } else {
    report::FleetTextOptions style{.color = color_output()};
    if (const auto columns = os::terminal_columns(); columns && *columns >= 40) style.width = static_cast<size_t>(*columns);
    print_text(report::render_fleet_text(result, style));
  }
  if (o.markdown && !o.markdown->empty()) write_output_file(*o.markdown, report::render_fleet_markdown(result), "--markdown");
  if (!o.html.empty()) {
    write_output_file(o.html, report::render_fleet_html(result, os::utc_now_iso8601(), GPUSCOUT_VERSION), "--html");
    fmt::print(stderr, "{}\n", trf("gpuscout: fleet page written to {}", o.html));
  }
  return o.strict && fleet::fix_first(result) ? 4 : 0;
}

}  // namespace

void separate_launcher_arguments(std::vector<std::string>& args) {
  const auto fleet = std::ranges::find(args, "fleet");
  if (fleet == args.end()) return;
  const auto slurm = std::find(fleet, args.end(), "--slurm");
  if (slurm == args.end() || std::find(fleet, slurm, "--") != slurm) return;
  if (slurm + 1 != args.end() && slurm[1] == "--") return;
  args.insert(slurm + 1, "--");
}

void add_fleet_command(CLI::App& app, GlobalOptions& global) {
  auto* sub = app.add_subcommand(
      "fleet", tr("Many machines in one table: saved `info --json` files or a folder of them, or every node through "
                  "srun (--slurm) or pdsh (--pdsh); what differs and what to fix first"));
  auto o = std::make_shared<FleetOptions>();
  sub->add_option("files", o->paths, tr("Saved `gpuscout info --json` files, or folders of them"))->type_name("FILE");
  sub->add_flag("--slurm", o->slurm,
                tr("Ask every node through srun; every argument after --slurm is srun's (partition, nodes): "
                   "`gpuscout fleet --json --slurm -p gpu -N 4`"));
  sub->add_option("--pdsh", o->pdsh, tr("Ask every host of a plain host list through pdsh: `--pdsh 'node[1-4]'`"))
      ->type_name("HOSTS");
  sub->add_flag("--json", o->json, tr("Print JSON (schema gpuscout.fleet/1, see docs/json.md)"));
  sub->add_option("--markdown", o->markdown, tr("Print the Markdown table to paste (or write it to FILE)"))
      ->expected(0, 1)
      ->default_str("")
      ->type_name("[FILE]");
  sub->add_option("--html", o->html, tr("Write the fleet as a self-contained HTML page to FILE"))->type_name("FILE");
  sub->add_option("--deadline", o->deadline_s,
                  tr("Seconds the nodes have to answer, all together (default 120); a node that has not answered "
                     "by then is reported as such"))
      ->check(finite_number(5.0, 3600.0));
  sub->add_option("--timeout", o->timeout_s, tr("Each node's driver probe deadline in seconds (default 5)"))
      ->check(finite_number(0.1, 120.0));
  sub->add_option("--gpuscout", o->gpuscout,
                  tr("The gpuscout the nodes run (default: this program's path, which must exist on them)"))
      ->type_name("PATH");
  sub->add_flag("--strict", o->strict, tr("Exit with 4 when something needs fixing (for scripts), else 0"));
  sub->callback([o, &global] { global.exit_code = run_fleet(*o); });
}

}  // namespace gpuscout::cli
