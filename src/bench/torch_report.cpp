// `bench --torch` in the text report (its JSON is written with the rest of the bench JSON, in report.cpp).
#include <fmt/format.h>

#include "bench/report.hpp"
#include "bench/torch_bench.hpp"
#include "core/i18n.hpp"
#include "core/text.hpp"

namespace gpuscout::bench {
namespace {

std::string skipped_text(const std::string& why) {
  if (why == "deadline") return tr("not run: no time left before the deadline");
  if (why == "needs-sm80") return tr("not run: needs compute capability 8.0 or newer");
  if (why == "tf32-rocm") return tr("not run: TF32 is a CUDA setting");
  return why;
}

// GPU rates in TFLOP/s and CPU rates in GFLOP/s, as in the rest of the report.
std::string rate_text(const TorchCase& c, double gflops) {
  return c.device == "cpu" ? trf("{:.1f} GFLOP/s", gflops) : trf("{:.1f} TFLOP/s", gflops / 1000);
}

void case_text(const TorchCase& c, std::string& o) {
  const std::string head = fmt::format("  {:<7} {:<5} {:>6}  ", c.device, dtype_name(c.dtype), c.n);
  if (!c.skipped.empty() || c.m.samples_s.empty()) {
    o += head + (c.skipped.empty() ? c.error : skipped_text(c.skipped)) + "\n";
    return;
  }
  std::string native = c.native_gflops ? rate_text(c, *c.native_gflops) : std::string("-");
  if (c.of_native) native += fmt::format(" ({:.0f}%)", 100 * *c.of_native);
  o += head + fmt::format("{:>16}  {:>10.3f} ms  {:>22}  {:>7}  {}", rate_text(c, c.gflops),
                          c.m.stats.median_s * 1e3, native,
                          c.of_peak ? fmt::format("{:.0f}%", 100 * *c.of_peak) : "-",
                          c.ok ? "ok" : (c.error.empty() ? std::string("WRONG") : c.error)) +
       "\n";
}

}  // namespace

void torch_text(const TorchBench& t, std::string& o) {
  o += "\n";
  if (!t.version) {
    o += trf("PyTorch  {}", t.error) + "\n";
    return;
  }
  std::string head = trf("PyTorch {} ({})", *t.version, t.python.empty() ? "python" : t.python);
  if (t.num_threads)
    head += t.usable_cpus ? trf(": {} CPU thread(s) of {}", *t.num_threads, *t.usable_cpus)
                          : trf(": {} CPU thread(s)", *t.num_threads);
  if (t.blas) head += trf(", BLAS {}", *t.blas);
  if (t.cpu_capability) head += trf(", CPU kernels {}", *t.cpu_capability);
  if (t.debug.value_or(false)) head += tr(", DEBUG build");
  o += head + "\n";
  if (!t.cases.empty())
    o += fmt::format("  {:<7} {:<5} {:>6}  {:>16}  {:>13}  {:>22}  {:>7}  {}\n", tr("device"), tr("dtype"), "n",
                     tr("rate"), tr("median"), tr("gpuscout's own"), tr("of peak"), tr("check"));
  for (const auto& c : t.cases) case_text(c, o);
  if (!t.error.empty()) o += "  " + t.error + "\n";
  for (const auto& f : t.findings) {
    o += "  " + text::wrap(fmt::format("{} [{}] {}", f.severity, f.code, f.message), 100, "    ", 2);
    o += "      " + text::wrap(std::string(tr("fix:")) + " " + f.fix, 100, "           ", 6);
  }
}

}  // namespace gpuscout::bench
