// `gpuscout bench`: measures CPU and GPU for deep-learning math against the hardware's limit.
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>

#include <fmt/format.h>

#include "bench/harness.hpp"
#include "bench/report.hpp"
#include "bench/run.hpp"
#include "cli/commands.hpp"
#include "cli/state.hpp"
#include "core/error.hpp"
#include "os/system.hpp"

#ifndef GPUSCOUT_PLUGIN_DIR
#define GPUSCOUT_PLUGIN_DIR ""
#endif

namespace gpuscout::cli {
namespace {

struct BenchArgs {
  bool quick = false;
  bool full = false;
  std::string device = "all";
  std::string dtypes;
  std::string size;
  bool json = false;
  std::string save;
  std::vector<std::string> compare;
};

// First Ctrl-C: ask every benchmark loop to stop (GPU memory is freed by the plugin's shutdown on the way
// out); a second one falls back to the default action.
void on_sigint(int) {
  bench::stop_flag().store(true);
  ::signal(SIGINT, SIG_DFL);
}

int run_compare(const BenchArgs& args) {
  if (args.compare.size() != 2) throw UsageError("--compare takes two files: --compare A.json B.json");
  auto a = bench::load_bench_file(args.compare[0]);
  if (!a) throw UsageError(a.error().message);
  auto b = bench::load_bench_file(args.compare[1]);
  if (!b) throw UsageError(b.error().message);
  const auto c = bench::compare_json(*a, *b, args.compare[0], args.compare[1]);
  if (args.json) fmt::print("{}\n", c.dump(2));
  else fmt::print("{}", bench::render_compare(c));
  return 0;
}

int run(const BenchArgs& args) {
  if (!args.compare.empty()) return run_compare(args);
  if (args.quick && args.full) throw UsageError("--quick and --full exclude each other");
  bench::BenchOptions options;
  options.full = args.full;
  bench::apply_device(args.device, options);
  if (!args.dtypes.empty()) options.dtypes = bench::parse_dtype_list(args.dtypes);
  if (!args.size.empty()) options.size = bench::parse_size(args.size);
  options.plugin_install_dir = GPUSCOUT_PLUGIN_DIR;
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  bool progress_shown = false;
  if (tty) {
    options.progress = [&progress_shown](std::string_view line) {
      fmt::print(stderr, "\r\033[K  {} ...", line);
      std::fflush(stderr);
      progress_shown = true;
    };
  }
  auto clear_progress = [&] {
    if (progress_shown) fmt::print(stderr, "\r\033[K");
    progress_shown = false;
  };
  bench::stop_flag().store(false);
  struct sigaction sa{}, old{};
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, &old);
  struct Restore {
    struct sigaction* old;
    ~Restore() { ::sigaction(SIGINT, old, nullptr); }
  } restore{&old};

  bench::BenchResult result;
  try {
    result = bench::run_bench(options);
  } catch (const bench::Interrupted&) {
    clear_progress();
    fmt::print(stderr, "gpuscout: bench interrupted; nothing saved\n");
    return 130;
  } catch (...) {
    clear_progress();
    throw;
  }
  clear_progress();
  const auto doc = bench::to_json(result);
  const std::string doc_text = doc.dump(2) + "\n";
  if (!args.save.empty()) {
    if (auto ok = os::write_file_atomic(args.save, doc_text); !ok) throw UsageError("--save " + ok.error().message);
  }
  // `gpuscout report` draws the last complete run of this machine without being given a file.
  if (auto why = keep_last_bench(doc_text))
    fmt::print(stderr, "gpuscout: note: this result is not kept for `gpuscout report` ({})\n", *why);
  if (args.json) fmt::print("{}\n", doc.dump(2));
  else fmt::print("{}", bench::render_text(result));
  bool wrong = false;
  if (result.cpu)
    for (const auto& g : result.cpu->gemm) wrong = wrong || !g.run.ok;
  for (const auto& g : result.gpus)
    for (const auto& e : g.gemm) wrong = wrong || (e.status == 0 && !e.ok);
  return wrong ? 1 : 0;  // a fast wrong answer fails loudly
}

}  // namespace

void add_bench_command(CLI::App& app, GlobalOptions& global) {
  auto* sub = app.add_subcommand("bench", "Measure CPU and GPU for deep-learning math against the hardware's limit");
  auto args = std::make_shared<BenchArgs>();
  sub->add_flag("--quick", args->quick, "A short run (the default): under 20 s on a small machine");
  sub->add_flag("--full", args->full, "The full ladder of sizes and longer time budgets");
  sub->add_option("--device", args->device, "cpu, gpu or all (default)");
  sub->add_option("--dtype", args->dtypes, "Precisions, comma-separated: fp64,fp32,tf32,fp16,bf16,fp8");
  sub->add_option("--size", args->size, "One matrix size N for every GEMM instead of the ladder");
  sub->add_flag("--json", args->json, "Print the result as JSON (docs/bench.md)");
  sub->add_option("--save", args->save, "Also write the JSON to FILE (all or nothing)");
  sub->add_option("--compare", args->compare, "Put two saved results side by side: --compare A.json B.json")
      ->expected(2);
  sub->callback([args, &global] { global.exit_code = run(*args); });
}

}  // namespace gpuscout::cli
