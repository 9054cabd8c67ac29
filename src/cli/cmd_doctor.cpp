// doctor (the default), info and device: probe (or load --from), diagnose, print.
#include <cstdlib>
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/inventory_source.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "core/i18n.hpp"
#include "diagnose/diagnose.hpp"
#include "inventory/json.hpp"
#include "os/system.hpp"
#include "report/doctor_text.hpp"

namespace gpuscout::cli {
namespace {

struct InventoryOptions {
  bool json = false;
  bool no_python = false;
  std::string from;
  std::string python;
  double timeout_s = 5.0;
  CLI::Option* timeout = nullptr;  ///< given or not: it bounds the Python probe only when given
};

void add_inventory_options(CLI::App* sub, InventoryOptions& o) {
  sub->add_flag("--json", o.json, tr("Print JSON (schema gpuscout.inventory/1, see docs/json.md)"));
  auto* no_python = sub->add_flag("--no-python", o.no_python, tr("Skip the Python/PyTorch probe"));
  add_python_option(*sub, o.python, no_python);
  sub->add_option("--from", o.from, tr("Read a saved `gpuscout info --json` instead of probing this machine"))->type_name("FILE");
  o.timeout = sub->add_option("--timeout", o.timeout_s,
                              tr("Seconds before a hung probe is cut off (drivers: 5 by default; Python: 30, or "
                              "GPUSCOUT_PYTHON_TIMEOUT)"))
                  ->check(finite_number(0.1, 120.0));
}

Inventory obtain(const InventoryOptions& o) {
  return obtain_inventory({.from = o.from,
                           .python = !o.no_python,
                           .timeout_s = o.timeout_s,
                           .timeout_given = o.timeout && o.timeout->count() > 0,
                           .python_executable = o.python});
}

/// `detail`: info's full inventory; doctor shows the verdict first and leaves the raw detail to info.
report::TextStyle text_style(bool detail) {
  report::TextStyle s;
  s.color = color_output();
  s.detail = detail;
  if (const auto columns = os::terminal_columns(); columns && *columns >= 40) s.width = static_cast<size_t>(*columns);
  return s;
}

}  // namespace

void add_doctor_command(CLI::App& app, GlobalOptions& global) {
  auto* sub = app.add_subcommand("doctor", tr("Check this machine for deep learning: a verdict and the next steps (default)"));
  auto o = std::make_shared<InventoryOptions>();
  add_inventory_options(sub, *o);
  auto strict = std::make_shared<bool>(false);
  sub->add_flag("--strict", *strict,
                tr("Exit with the verdict: 0 ready, 3 cpu-only, 4 needs-action (for scripts and CI jobs)"));
  sub->callback([o, strict, &global] {
    const Inventory inv = obtain(*o);
    const auto verdict = diagnose::diagnose(inv);
    if (o->json) {
      Json j = inventory_to_json(inv);
      j["verdict"] = diagnose::to_json(verdict);
      print(json_text(j) + "\n");
    } else {
      // The verdict and the next step first, a beginner's first screen; the inventory follows.
      const auto style = text_style(false);
      print_text(report::render_verdict_text(verdict, style) + "\n" + report::render_inventory_text(inv, style) + "\n" +
                 tr("Everything gpuscout found, with the libraries' own messages: `gpuscout info`") + "\n");
    }
    global.exit_code = *strict ? diagnose::strict_exit_code(verdict) : 0;
  });
}

void add_info_command(CLI::App& app, GlobalOptions& global) {
  auto* sub = app.add_subcommand("info", tr("Everything gpuscout knows about this machine, without a verdict"));
  auto o = std::make_shared<InventoryOptions>();
  add_inventory_options(sub, *o);
  sub->callback([o, &global] {
    const Inventory inv = obtain(*o);
    if (o->json) print(json_text(inventory_to_json(inv)) + "\n");
    else print_text(report::render_inventory_text(inv, text_style(true)));
    global.exit_code = 0;
  });
}

void add_device_command(CLI::App& app, GlobalOptions& global) {
  auto* sub = app.add_subcommand(
      "device", tr("Print the device a training script should use (cuda:N or cpu), for `DEVICE=$(gpuscout device)`"));
  auto o = std::make_shared<InventoryOptions>();
  sub->add_option("--from", o->from, tr("Read a saved `gpuscout info --json` instead of probing this machine"))->type_name("FILE");
  auto* no_python = sub->add_flag("--no-python", o->no_python, tr("Decide from the driver alone, without asking PyTorch"));
  add_python_option(*sub, o->python, no_python);
  sub->callback([o, &global] {
    const Inventory inv = obtain(*o);
    print(diagnose::diagnose(inv).device + "\n");
    global.exit_code = 0;
  });
}

void add_internal_commands(CLI::App&, GlobalOptions&) {}

}  // namespace gpuscout::cli
