// query: chosen facts as CSV, the way `nvidia-smi --query-gpu=... --format=csv` prints them (docs/query.md).
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/inventory_source.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "cli/usage.hpp"
#include "core/error.hpp"
#include "core/i18n.hpp"
#include "inventory/json.hpp"
#include "report/query.hpp"

namespace gpuscout::cli {
namespace {

struct QueryOptions {
  std::string gpu_fields;  ///< --query-gpu
  std::string paths;       ///< --query
  std::string format = "csv";
  std::string from;
  std::string python;
  double timeout_s = 5.0;
  CLI::Option* timeout = nullptr;
};

/// The Python probe takes a second or more: it runs only when a --query path asks for what it finds.
bool needs_python(const std::vector<std::string>& paths) {
  for (const auto& p : paths)
    if (p == "python" || p == "torch" || p.starts_with("python.") || p.starts_with("torch.")) return true;
  return false;
}

void run_query(const QueryOptions& o) {
  if (o.gpu_fields.empty() == o.paths.empty())
    throw UsageError(tr("give one of --query-gpu=FIELDS (nvidia-smi's names) and --query=PATHS (gpuscout's JSON names)"));
  const auto format = usage(report::parse_query_format(o.format));
  const bool gpu = !o.gpu_fields.empty();
  const auto fields = usage(report::parse_field_list(gpu ? o.gpu_fields : o.paths), gpu ? "--query-gpu" : "--query");
  const Inventory inv = obtain_inventory({.from = o.from,
                                          .python = !gpu && needs_python(fields),
                                          .timeout_s = o.timeout_s,
                                          .timeout_given = o.timeout && o.timeout->count() > 0,
                                          .python_executable = o.python});
  print(usage(gpu ? report::render_gpu_query(inv, fields, format)
                  : report::render_inventory_query(inventory_to_json(inv), fields, format)));
}

}  // namespace

void add_query_command(CLI::App& app, GlobalOptions& global) {
  auto* sub = app.add_subcommand("query", tr("Print chosen facts as CSV, as nvidia-smi --query-gpu does, for scripts"));
  auto o = std::make_shared<QueryOptions>();
  sub->add_option("--query-gpu", o->gpu_fields,
                  tr("GPU fields, one line per NVIDIA GPU: nvidia-smi's names (name, memory.total, pci.bus_id, ...) "
                     "or gpus[] keys of info --json"))
      ->type_name("FIELDS");
  sub->add_option("--query", o->paths,
                  tr("Facts by their info --json names, dotted: cpu.model,memory.total_bytes,torch.version"))
      ->type_name("PATHS");
  sub->add_option("--format", o->format, tr("csv, optionally with noheader and nounits (default csv)"))
      ->type_name("FORMAT");
  sub->add_option("--from", o->from, tr("Read a saved `gpuscout info --json` instead of probing this machine"))
      ->type_name("FILE");
  add_python_option(*sub, o->python, nullptr);
  o->timeout = sub->add_option("--timeout", o->timeout_s,
                               tr("Seconds before a hung probe is cut off (drivers: 5 by default; Python: 30, or "
                                  "GPUSCOUT_PYTHON_TIMEOUT)"))
                   ->check(finite_number(0.1, 120.0));
  sub->callback([o, &global] {
    run_query(*o);
    global.exit_code = 0;
  });
}

}  // namespace gpuscout::cli
