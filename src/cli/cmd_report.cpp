// report: one page to look at (--html FILE) and one block to paste (--markdown), from what the other commands
// compute: doctor's probes and verdict, the last saved benchmark, fit's memory plan and advise's ranking.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <random>

#include <fmt/format.h>

#include "advise/advise.hpp"
#include "bench/report.hpp"
#include "cli/commands.hpp"
#include "cli/inventory_source.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "cli/state.hpp"
#include "cli/usage.hpp"
#include "core/error.hpp"
#include "core/data_info.hpp"
#include "core/i18n.hpp"
#include "diagnose/diagnose.hpp"
#include "os/system.hpp"
#include "plan/catalogue.hpp"
#include "plan/hf_config.hpp"
#include "report/html.hpp"
#include "report/markdown.hpp"
#include "report/privacy.hpp"

namespace gpuscout::cli {
namespace {

struct ReportOptions {
  std::string html;
  std::optional<std::string> markdown;  ///< "" = standard output
  std::string from;
  bool no_python = false;
  std::string python;
  double timeout_s = 5.0;
  CLI::Option* timeout = nullptr;
  std::string bench;
  std::vector<std::string> compare;
  std::string model, config;
  std::string budget, goal = "learn";
  bool include_private = false;
};

/// 128 random bits as letters and digits: the page's CSP nonce.
std::string make_nonce() {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  std::random_device rd;
  std::string out;
  for (int i = 0; i < 24; ++i) out += kAlphabet[rd() % (sizeof kAlphabet - 1)];
  return out;
}

report::BenchRun load_run(const std::string& path, std::string_view option) {
  return {std::filesystem::path(path).filename().string(), usage(bench::load_bench_file(path), option)};
}

std::string collected_at(const bench::BenchResult& result) {
  return result.collected_at.empty() ? std::string(tr("at an unknown time")) : result.collected_at;
}

/// --bench, else the last complete `bench` of this machine (never for --from: that is another machine).
std::optional<report::BenchRun> find_bench(const ReportOptions& o, std::string& source) {
  if (!o.bench.empty()) {
    auto run = load_run(o.bench, "--bench");
    source = trf("Benchmark from {}, collected {}.", run.label,
                         collected_at(run.result));
    return run;
  }
  if (!o.from.empty()) {
    source = tr("No benchmark: with --from, pass that machine's saved `gpuscout bench --save FILE` as --bench FILE.");
    return std::nullopt;
  }
  const auto last = last_bench_path();
  std::error_code ec;
  if (!last || !std::filesystem::exists(*last, ec)) {
    source = tr("No benchmark yet on this machine: run `gpuscout bench` (about 20 s), then this report again.");
    return std::nullopt;
  }
  auto result = bench::load_bench_file(*last);
  if (!result) {
    source = trf("The last benchmark could not be read ({}): run `gpuscout bench` again.", result.error().message);
    return std::nullopt;
  }
  report::BenchRun run{tr("this machine"), std::move(*result)};
  source = trf("The last `gpuscout bench` of this machine, collected {}.", collected_at(run.result));
  return run;
}

/// A benchmark kept in a shared home folder may come from another node of a cluster: say so when its CPU or
/// GPUs differ from the machine the report describes.
std::string bench_mismatch(const bench::BenchResult& result, const Inventory& inv) {
  std::vector<std::string> differ;
  const std::string cpu = result.cpu ? result.cpu->facts.model : std::string();
  if (!cpu.empty() && inv.cpu.model && cpu != *inv.cpu.model) differ.push_back(trf("its CPU is {}", cpu));
  std::vector<std::string> bench_gpus, inv_gpus;
  for (const auto& g : result.gpus)
    if (!g.name.empty()) bench_gpus.push_back(g.name);
  for (const auto& g : inv.gpus)
    if (g.vendor == "nvidia") inv_gpus.push_back(g.name);
  std::sort(bench_gpus.begin(), bench_gpus.end());
  std::sort(inv_gpus.begin(), inv_gpus.end());
  if (!bench_gpus.empty() && bench_gpus != inv_gpus)
    differ.push_back(trf("its GPUs are {}", fmt::format("{}", fmt::join(bench_gpus, ", "))));
  if (differ.empty()) return {};
  return trf(" It does not look like this machine: {}.", fmt::format("{}", fmt::join(differ, "; ")));
}

/// Legend labels: file names, with their folder when two files share a name.
void unique_labels(std::vector<report::BenchRun>& runs, const std::vector<std::string>& paths) {
  std::vector<bool> shared(runs.size(), false);
  for (size_t i = 0; i < runs.size(); ++i)
    for (size_t j = i + 1; j < runs.size(); ++j)
      if (runs[i].label == runs[j].label) shared[i] = shared[j] = true;
  for (size_t i = 0; i < runs.size(); ++i)
    if (shared[i]) runs[i].label = paths[i];
}

std::optional<plan::ModelShape> chosen_model(const ReportOptions& o) {
  if (!o.model.empty() && !o.config.empty()) throw UsageError(tr("give only one of --model and --config"));
  if (!o.model.empty()) return usage(plan::find_model(o.model), "--model").shape;
  if (!o.config.empty()) return usage(plan::load_hf_config(o.config), "--config").shape;
  return std::nullopt;
}

void redact_verdict(diagnose::Verdict& v, const report::PrivacyContext& ctx) {
  for (auto& f : v.findings) {
    f.message = report::redact_text(f.message, ctx);
    f.fix = report::redact_text(f.fix, ctx);
  }
  for (auto& s : v.plan.steps) {
    s.action = report::redact_text(s.action, ctx);
    s.command = report::redact_text(s.command, ctx);
    s.why = report::redact_text(s.why, ctx);
    s.changes = report::redact_text(s.changes, ctx);
  }
}

void run_report(const ReportOptions& o) {
  // Every input is checked before the slow work, so a typo costs nothing and leaves nothing behind.
  if (!o.html.empty() && o.markdown && *o.markdown == o.html)
    throw UsageError(tr("--html and --markdown name the same file"));
  if (!o.compare.empty() && o.compare.size() < 2)
    throw UsageError(tr("--compare takes two or more saved benchmark files (gpuscout bench --save FILE)"));
  std::vector<report::BenchRun> compare;
  for (const auto& path : o.compare) compare.push_back(load_run(path, "--compare"));
  unique_labels(compare, o.compare);
  std::string bench_source;
  auto bench = find_bench(o, bench_source);
  const auto model = chosen_model(o);
  const auto rates = usage(advise::load_rates());
  advise::Request request;
  request.goal = usage(advise::parse_goal(o.goal), "--goal");
  if (!o.budget.empty())
    request.budget_usd = usage(advise::to_usd(usage(advise::parse_money(o.budget, rates), "--budget"), rates), "--budget");

  Inventory inventory = obtain_inventory({.from = o.from,
                                          .python = !o.no_python,
                                          .timeout_s = o.timeout_s,
                                          .timeout_given = o.timeout && o.timeout->count() > 0,
                                          .python_executable = o.python});
  auto verdict = diagnose::diagnose(inventory);
  if (bench) bench_source += bench_mismatch(bench->result, inventory);
  const auto ctx = report::privacy_context(inventory, o.from.empty());
  if (!o.include_private) {
    inventory = report::redact_inventory(inventory, ctx);
    redact_verdict(verdict, ctx);
    if (bench) bench->result = report::redact_bench(bench->result, ctx);
    for (auto& r : compare) r.result = report::redact_bench(r.result, ctx);
  }

  if (o.markdown) {
    const std::string md = report::render_markdown(inventory, verdict, {o.include_private}, ctx);
    if (o.markdown->empty()) {
      std::fwrite(md.data(), 1, md.size(), stdout);
      std::fflush(stdout);
    } else {
      write_output_file(*o.markdown, md, "--markdown");
    }
  }
  if (o.html.empty()) return;

  report::HtmlInput in;
  in.inventory_source = o.from.empty() ? std::string(tr("Probed on this machine"))
                                      : trf("Read from {}", std::filesystem::path(o.from).filename().string());
  in.verdict = std::move(verdict);
  in.bench = std::move(bench);
  in.bench_source = bench_source;
  in.compare = std::move(compare);
  in.memory = report::build_memory_plans(inventory, model);
  auto offers = advise::load_offers();
  if (offers) {
    in.advice = advise::advise(request, catalog::gpus(), *offers, &inventory);
    in.advice->rates_date = rates.date;
    advise::add_stale_warnings(*in.advice, core::today());
  } else {
    in.advice_error = trf("No advice: {}", offers.error().message);
  }
  in.generated_at = os::utc_now_iso8601();
  in.nonce = make_nonce();
  in.inventory = std::move(inventory);
  write_output_file(o.html, report::render_html(in), "--html");
  fmt::print(stderr, "{}\n", trf("gpuscout: report written to {}", o.html));
}

}  // namespace

void add_report_command(CLI::App& app, GlobalOptions& global) {
  auto* sub = app.add_subcommand("report", tr("One page to look at (--html FILE) or one block to paste in a forum "
                                           "or issue (--markdown, the default)"));
  auto o = std::make_shared<ReportOptions>();
  sub->add_option("--html", o->html, tr("Write a self-contained HTML report (charts, no network) to FILE"))
      ->type_name("FILE");
  sub->add_option("--markdown", o->markdown, tr("Print the paste-into-an-issue block (or write it to FILE)"))
      ->expected(0, 1)
      ->default_str("")
      ->type_name("[FILE]");
  sub->add_option("--from", o->from, tr("Describe another machine: a saved `gpuscout info --json`"))
      ->type_name("FILE");
  auto* no_python = sub->add_flag("--no-python", o->no_python, tr("Skip the Python/PyTorch probe"));
  add_python_option(*sub, o->python, no_python);
  o->timeout = sub->add_option("--timeout", o->timeout_s,
                               tr("Seconds before a hung probe is cut off (drivers: 5 by default; Python: 30, or "
                               "GPUSCOUT_PYTHON_TIMEOUT)"))
                   ->check(finite_number(0.1, 120.0));
  sub->add_option("--bench", o->bench, tr("A saved `gpuscout bench --save FILE` (default: this machine's last bench)"))
      ->type_name("FILE");
  sub->add_option("--compare", o->compare, tr("Saved benchmark files to draw side by side: --compare A.json B.json ..."))
      ->type_name("FILE");
  sub->add_option("--model", o->model, tr("Model for the memory plan, from the fit catalogue (default: chosen for the GPU)"))
      ->type_name("NAME");
  sub->add_option("--config", o->config, tr("Model for the memory plan: a Hugging Face config.json or model folder"))
      ->type_name("PATH");
  sub->add_option("--budget", o->budget, tr("Budget for the buying advice: 1500, 7000CNY, 900EUR"))
      ->type_name("MONEY");
  sub->add_option("--goal", o->goal, tr("learn | build | research | llm (default learn)"))
      ->type_name("GOAL");
  sub->add_flag("--include-private", o->include_private,
                tr("Keep the host name, user name, home paths and GPU UUIDs (left out by default)"));
  sub->callback([o, &global] {
    ReportOptions opts = *o;
    if (opts.html.empty() && !opts.markdown) opts.markdown = std::string();  // plain `report`: the block
    run_report(opts);
    global.exit_code = 0;
  });
}

}  // namespace gpuscout::cli
