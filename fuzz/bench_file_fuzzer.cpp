// libFuzzer target: any bytes as a saved benchmark (`gpuscout bench --save`, read by `bench --compare` and
// `report --bench/--compare`) through the one typed reader, then what those commands do with the result: the text
// report, the side-by-side comparison (JSON and text), every chart of the report and the HTML page, with redaction.
// A damaged or hostile file must give a clear error or a page with gaps: an exception or a sanitizer report is a
// bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "bench/report.hpp"
#include "report/chart_data.hpp"
#include "report/html.hpp"
#include "report/privacy.hpp"
#include "scratch_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpuscout;
  static fuzz::ScratchFile file(".json");
  const auto& path = file.write({reinterpret_cast<const char*>(data), size});
  auto result = bench::load_bench_file(path);
  if (!result) return 0;

  const auto written = bench::to_json(*result);
  (void)written.dump(2);  // what --save would write again
  (void)bench::from_json(nlohmann::json::parse(written.dump()));  // and read back, as the next report would
  (void)bench::render_text(*result);
  const auto comparison = bench::compare_json(*result, *result, path, "fuzz-b.json");
  (void)comparison.dump(2);  // bench --compare --json
  (void)bench::render_compare(comparison);

  report::BenchRun run{"fuzz.json", *result};
  (void)report::gemm_charts(run);
  (void)report::bandwidth_chart(run);
  (void)report::speedup_chart(run);
  (void)report::compare_charts({run, run});

  report::PrivacyContext ctx;
  ctx.home_dirs = {"/home/alice"};
  ctx.user_names = {"alice"};
  ctx.host_names = {"alice-laptop"};
  run.result = report::redact_bench(run.result, ctx);
  report::HtmlInput in;
  in.inventory_source = "Read from fuzz.json";
  in.bench = run;
  in.bench_source = "Benchmark from fuzz.json";
  in.compare = {run, run};
  in.generated_at = "2026-01-01T00:00:00Z";
  in.nonce = "fuzz";
  (void)report::render_html(in);
  return 0;
}
