// `gpuscout bench`: measures CPU and GPU for deep-learning math against the hardware's limit.
#include <csignal>

#include <algorithm>
#include <cstdio>
#include <optional>

#include <fmt/format.h>

#include "bench/gpu_plugin.hpp"
#include "bench/harness.hpp"
#include "bench/report.hpp"
#include "bench/run.hpp"
#include "cli/commands.hpp"
#include "cli/inventory_source.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "cli/state.hpp"
#include "core/error.hpp"
#include "core/i18n.hpp"
#include "os/lifetime.hpp"
#include "os/system.hpp"
#include "os/write_target.hpp"

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
  std::optional<std::string> save;
  std::optional<std::string> timeout;
  std::vector<std::string> compare;
  bool torch = false;
  bool nccl = false;
  std::string python;  ///< --python: the interpreter whose PyTorch --torch measures
};

int run_compare(const BenchArgs& args) {
  if (args.compare.size() != 2) throw UsageError(tr("--compare takes two files: --compare A.json B.json"));
  auto a = bench::load_bench_file(args.compare[0]);
  if (!a) throw UsageError(a.error().message);
  auto b = bench::load_bench_file(args.compare[1]);
  if (!b) throw UsageError(b.error().message);
  const auto c = bench::compare_json(*a, *b, args.compare[0], args.compare[1]);
  if (args.json) fmt::print("{}\n", c.dump(2));
  else print_text(bench::render_compare(c));
  return 0;
}

// Everything that can be wrong with the request, found before minutes of measuring.
bench::BenchOptions check_request(const BenchArgs& args) {
  if (args.quick && args.full) throw UsageError(tr("--quick and --full exclude each other"));
  bench::BenchOptions options;
  options.full = args.full;
  bench::apply_device(args.device, options);
  if (args.nccl && !options.run_gpu) throw UsageError(tr("--nccl measures the GPUs: it cannot go with --device cpu"));
  options.nccl = args.nccl;
  if (!args.dtypes.empty()) options.dtypes = bench::parse_dtype_list(args.dtypes);
  if (!args.size.empty()) options.size = bench::parse_size(args.size);
  if (args.timeout) options.gpu_timeout = bench::parse_timeout(*args.timeout);
  options.plugin_install_dir = GPUSCOUT_PLUGIN_DIR;
  if (args.save) {
    if (auto ok = os::check_write_target(*args.save, replace_read_only()); !ok) throw UsageError(trf("--save {}", ok.error().message));
  }
  if (auto ok = bench::check_library_overrides(); !ok) throw UsageError(ok.error().message);
  // The measurements run on this machine; a recorded one's CPU features could even name instructions it lacks.
  if (!os::sysroot().empty())
    throw UsageError(trf("bench measures this machine, but GPUSCOUT_SYSROOT={} makes gpuscout read a "
                                 "recorded one: unset GPUSCOUT_SYSROOT to run bench",
                                 os::sysroot()));
  return options;
}

// What the probes say about this machine: the description bench reports and the driver's state, and with --torch
// the interpreter and its PyTorch (the same probe as doctor's). A hung driver costs at most the shorter of --timeout
// and the doctor's 5 s.
Inventory machine_inventory(const bench::BenchOptions& options, const BenchArgs& args) {
  double seconds = 5.0;
  if (options.gpu_timeout) seconds = std::min(seconds, static_cast<double>(options.gpu_timeout->count()) / 1000.0);
  return obtain_inventory({.from = "", .python = args.torch, .timeout_s = seconds, .python_executable = args.python});
}

// --torch: the lesson's matmul in the user's own PyTorch, after gpuscout's own runs (never at the same time: they
// would share the CPU and the GPU), then compared with them.
void run_torch(const bench::BenchOptions& options, const Inventory& inventory, bench::BenchResult& result) {
  if (options.progress) options.progress(tr("The same matrix products in your PyTorch"));
  const auto timeout = options.gpu_timeout ? *options.gpu_timeout : bench::default_torch_timeout(options.full, inventory);
  result.torch = bench::run_torch_bench(options, inventory, timeout);
  bench::compare_with_native(*result.torch, result);
}

int interrupted_exit() {
  const int signal = bench::stop_signal() ? bench::stop_signal() : SIGINT;
  fmt::print(stderr, "{}\n", signal == SIGTERM ? tr("gpuscout: bench stopped (SIGTERM); nothing saved")
                                                 : tr("gpuscout: bench interrupted; nothing saved"));
  return 128 + signal;
}

int publish(const BenchArgs& args, const bench::BenchResult& result) {
  const auto doc = bench::to_json(result);
  const std::string doc_text = doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
  if (args.save) {
    write_output_file(*args.save, doc_text, "--save");
  }
  // `gpuscout report` draws the last complete run of this machine without being given a file.
  if (auto why = keep_last_bench(doc_text))
    fmt::print(stderr, "{}\n", trf("gpuscout: note: this result is not kept for `gpuscout report` ({})", *why));
  if (args.json) fmt::print("{}", doc_text);
  else print_text(bench::render_text(result));
  bool wrong = false;
  if (result.cpu)
    for (const auto& g : result.cpu->gemm) wrong = wrong || !g.run.ok;
  for (const auto& g : result.gpus)
    for (const auto& e : g.gemm) wrong = wrong || (e.status == 0 && !e.ok);
  if (result.nccl)
    for (const auto& s : result.nccl->sizes) wrong = wrong || (s.status == 0 && !s.verified);
  if (result.torch)
    for (const auto& f : result.torch->findings) wrong = wrong || f.code == "torch-matmul-wrong";
  return wrong ? 1 : 0;  // a fast wrong answer fails loudly
}

int run(const BenchArgs& args) {
  if (!args.compare.empty()) return run_compare(args);
  bench::BenchOptions options = check_request(args);
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
  // Ctrl-C, SIGTERM or SIGHUP: the children are killed at once (the driver frees the GPU's memory when the GPU
  // child dies), every benchmark loop stops, and the run ends with nothing saved.
  bench::reset_stop();
  const os::ScopedStopHook stop_hook(bench::stop_on_signal);
  bench::BenchResult result;
  try {
    if (options.progress) options.progress(tr("Reading this machine's CPU, memory and GPUs"));
    const Inventory inventory = machine_inventory(options, args);
    bench::throw_if_stopped();
    result = bench::run_bench(options, inventory);
    if (args.torch) run_torch(options, inventory, result);
  } catch (const bench::Interrupted&) {
    clear_progress();
    return interrupted_exit();
  } catch (...) {
    clear_progress();
    throw;
  }
  clear_progress();
  return publish(args, result);
}

}  // namespace

void add_bench_command(CLI::App& app, GlobalOptions& global) {
  auto* sub = app.add_subcommand("bench", tr("Measure CPU and GPU for deep-learning math against the hardware's limit"));
  auto args = std::make_shared<BenchArgs>();
  sub->add_flag("--quick", args->quick, tr("A short run (the default): under 20 s on a small machine"));
  sub->add_flag("--full", args->full, tr("The full ladder of sizes and longer time budgets"));
  sub->add_option("--device", args->device, tr("cpu, gpu or all (default)"));
  sub->add_option("--dtype", args->dtypes, tr("Precisions, comma-separated: fp64,fp32,tf32,fp16,bf16,fp8"));
  sub->add_option("--size", args->size, tr("One matrix size N for every GEMM instead of the ladder"));
  sub->add_flag("--json", args->json, tr("Print the result as JSON (docs/bench.md)"));
  sub->add_option("--save", args->save, tr("Also write the JSON to FILE (all or nothing)"))->type_name("FILE");
  sub->add_option("--timeout", args->timeout,
                  tr("Seconds the GPU part (and PyTorch's run with --torch) may take before a hung driver is given up on "
                  "(default: 3 minutes per GPU, 10 with --full)"));
  sub->add_flag("--torch", args->torch,
                tr("Also run the same matrix products in your own PyTorch and compare them with gpuscout's"));
  sub->add_flag("--nccl", args->nccl,
                tr("Also measure NCCL all-reduce bus bandwidth across all the GPUs of this machine"));
  add_python_option(*sub, args->python, nullptr)->needs(sub->get_option("--torch"));
  sub->add_option("--compare", args->compare, tr("Put two saved results side by side: --compare A.json B.json"))
      ->expected(2);
  sub->callback([args, &global] { global.exit_code = run(*args); });
}

}  // namespace gpuscout::cli
