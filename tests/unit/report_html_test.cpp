// The HTML report: escaping, the data each chart receives, and the page's structure.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "catalog/catalog.hpp"
#include "core/units.hpp"
#include "plan/catalogue.hpp"
#include "bench/report.hpp"
#include "report/chart_data.hpp"
#include "report/html.hpp"
#include "report/html_escape.hpp"
#include "report/memory_plan.hpp"

namespace gpuscout::report {
namespace {

using nlohmann::json;

size_t count(const std::string& hay, std::string_view needle) {
  size_t n = 0;
  for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
  return n;
}

// A saved benchmark in the documented schema (docs/bench.md), small enough to check every number.
json bench_doc() {
  return json::parse(R"({
    "schema": "gpuscout.bench/1", "collected_at": "2026-11-29T10:00:00Z", "mode": "quick", "device": "all",
    "cpu": {"model": "Test CPU", "threads": 8, "blas": {"name": "OpenBLAS"},
            "peak_gflops": {"fp32": 1000.0, "fp64": 500.0},
            "gemm": [{"dtype": "fp32", "n": 5000, "gflops": 800.0, "ok": true, "efficiency": 0.8},
                     {"dtype": "fp32", "n": 512, "gflops": 400.0, "ok": true},
                     {"dtype": "fp64", "n": 2048, "gflops": 300.0, "ok": true}],
            "memory_gbs": {"copy": 50.0, "triad": 45.0}},
    "gpu_status": {"requested": true, "available": true, "message": ""},
    "gpus": [{"index": 0, "name": "NVIDIA GeForce RTX 4090", "memory_bandwidth_gbs_datasheet": 1008.0,
              "gemm": [{"dtype": "bf16", "n": 8192, "status": "ok", "tflops": 150.0, "peak_datasheet_tflops": 165.2, "ok": true},
                       {"dtype": "fp32", "n": 8192, "status": "ok", "tflops": 75.0, "peak_computed_tflops": 82.6, "ok": true},
                       {"dtype": "fp8", "n": 8192, "status": "unsupported"}],
              "transfers": {"d2d": {"status": "ok", "gbs": 900.0}, "h2d_pinned": {"status": "ok", "gbs": 25.0},
                            "d2h_pinned": {"status": "failed", "gbs": 0}},
              "pcie": {"expected_gbs": null, "gen_max": 4, "width_max": 16}}],
    "speedup": {"n": 5000, "cpu_fp32_ms": 312.5, "gpu_fp32_ms": 3.3, "gpu_bf16_ms": 1.7, "fp32": 94.7,
                "bf16_vs_cpu_fp32": 183.8, "basis": "measured at n=5000"}
  })");
}

/// A document as bench::load_bench_file reads it: through the one reader, which checks every field.
BenchRun run_of(std::string label, const json& doc) {
  auto r = bench::from_json(doc);
  EXPECT_TRUE(r.has_value()) << r.error().message;
  return {std::move(label), r.value_or(bench::BenchResult{})};
}

json cpu_only_doc() {
  json d = bench_doc();
  d["gpus"] = json::array();
  d["gpu_status"] = {{"requested", true}, {"available", false}, {"message", "libcuda.so.1 not found: no NVIDIA driver"}};
  d["speedup"] = {{"n", 5000}, {"cpu_fp32_ms", 312.5}, {"gpu_fp32_ms", nullptr}};
  return d;
}

TEST(HtmlEscape, TextCannotBecomeMarkup) {
  const std::string s = escape_html("<script>alert(\"x\")</script> & 'q'");
  EXPECT_EQ(s, "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;");
  EXPECT_EQ(escape_html("七彩虹 iGame GeForce RTX 4090 D"), "七彩虹 iGame GeForce RTX 4090 D");
  EXPECT_EQ(escape_html("a\x01" "b\tc"), "ab\tc");
}

TEST(HtmlEscape, MalformedUtf8IsReplaced) {
  EXPECT_EQ(valid_utf8("GPU\xff\xfe"), "GPU\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(valid_utf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");             // overlong '/'
  EXPECT_EQ(valid_utf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
  EXPECT_EQ(valid_utf8("\xE4\xB8"), "\xEF\xBF\xBD\xEF\xBF\xBD");             // cut short
  EXPECT_EQ(valid_utf8("ü 显卡 🚀"), "ü 显卡 🚀");
}

TEST(HtmlEscape, JsonBlockCannotBeClosedByData) {
  nlohmann::ordered_json v = {{"name", "</script><script>alert(1)</script>"}, {"sep", "a\u2028b"}, {"amp", "x&y"}};
  const std::string s = json_for_script(v);
  EXPECT_EQ(s.find('<'), std::string::npos);
  EXPECT_EQ(s.find('>'), std::string::npos);
  EXPECT_EQ(s.find('&'), std::string::npos);
  EXPECT_EQ(s.find("\xE2\x80\xA8"), std::string::npos);
  EXPECT_EQ(nlohmann::ordered_json::parse(s), v);  // still the same data
  EXPECT_NO_THROW(json_for_script(nlohmann::ordered_json{{"bad", "\xff"}}));
}

TEST(ChartData, CpuGemmHasEachPrecisionSortedAndItsPeakLine) {
  const auto charts = gemm_charts(run_of("run", bench_doc()));
  ASSERT_EQ(charts.size(), 2u);
  const auto& cpu = charts[0];
  EXPECT_EQ(cpu.kind, "gemm");
  ASSERT_FALSE(cpu.empty_note);
  const auto& ds = cpu.config["data"]["datasets"];
  ASSERT_EQ(ds.size(), 4u);  // fp64, fp64 peak, fp32, fp32 peak (precision order)
  EXPECT_EQ(ds[0]["label"], "fp64");
  EXPECT_EQ(ds[2]["label"], "fp32");
  EXPECT_EQ(ds[2]["data"][0]["x"], 512);
  EXPECT_EQ(ds[2]["data"][1]["x"], 5000);
  EXPECT_DOUBLE_EQ(ds[2]["data"][1]["y"].get<double>(), 800.0);
  const auto& peak = ds[3];
  EXPECT_NE(peak["label"].get<std::string>().find("peak"), std::string::npos);
  ASSERT_EQ(peak["data"].size(), 2u);
  EXPECT_DOUBLE_EQ(peak["data"][0]["y"].get<double>(), 1000.0);
  EXPECT_DOUBLE_EQ(peak["data"][1]["y"].get<double>(), 1000.0);
  EXPECT_GE(peak["data"][1]["x"].get<double>(), 5000.0);  // spans every measured size
  EXPECT_EQ(cpu.config["options"]["scales"]["y"]["title"]["text"], "GFLOP/s");
}

TEST(ChartData, GpuGemmUsesDatasheetPeakElseComputedAndSaysWhatWasSkipped) {
  const auto charts = gemm_charts(run_of("run", bench_doc()));
  const auto& gpu = charts[1];
  EXPECT_EQ(gpu.id, "gemm-gpu-0");
  EXPECT_NE(gpu.title.find("RTX 4090"), std::string::npos);
  const auto& ds = gpu.config["data"]["datasets"];
  ASSERT_EQ(ds.size(), 4u);  // fp32 + peak, bf16 + peak; fp8 unsupported is not drawn
  EXPECT_DOUBLE_EQ(ds[1]["data"][0]["y"].get<double>(), 82.6);
  EXPECT_DOUBLE_EQ(ds[3]["data"][0]["y"].get<double>(), 165.2);
  EXPECT_NE(gpu.caption.find("fp8 unsupported"), std::string::npos);
  EXPECT_EQ(gpu.config["options"]["scales"]["y"]["title"]["text"], "TFLOP/s");
}

TEST(ChartData, NoGpuGivesAnEmptyChartThatSaysWhy) {
  const auto charts = gemm_charts(run_of("run", cpu_only_doc()));
  ASSERT_EQ(charts.size(), 2u);
  ASSERT_TRUE(charts[1].empty_note);
  EXPECT_NE(charts[1].empty_note->find("no NVIDIA driver"), std::string::npos);
  EXPECT_TRUE(charts[1].config.is_null());
  const auto sp = speedup_chart(run_of("run", cpu_only_doc()));
  ASSERT_TRUE(sp.empty_note);
  EXPECT_NE(sp.empty_note->find("312.5 ms"), std::string::npos);
}

TEST(ChartData, BandwidthPairsEachMeasurementWithItsLimit) {
  const auto c = bandwidth_chart(run_of("run", bench_doc()));
  const auto& labels = c.config["data"]["labels"];
  const auto& measured = c.config["data"]["datasets"][0]["data"];
  const auto& limit = c.config["data"]["datasets"][1]["data"];
  ASSERT_EQ(labels.size(), 4u);  // CPU copy, CPU triad, GPU d2d, GPU h2d pinned (the failed d2h is left out)
  EXPECT_EQ(measured[0], 50.0);
  EXPECT_TRUE(limit[0].is_null());  // no CPU memory limit known
  EXPECT_EQ(measured[2], 900.0);
  EXPECT_EQ(limit[2], 1008.0);
  EXPECT_NEAR(limit[3].get<double>(), 1.969 * 16, 0.01);  // PCIe gen 4 x16 per direction
  EXPECT_NE(c.caption.find("PCIe gen 4 x16"), std::string::npos);
}

TEST(ChartData, SpeedupShowsTheThreeTimes) {
  const auto c = speedup_chart(run_of("run", bench_doc()));
  ASSERT_FALSE(c.empty_note);
  const auto& data = c.config["data"]["datasets"][0]["data"];
  ASSERT_EQ(data.size(), 3u);
  EXPECT_EQ(data[0], 312.5);
  EXPECT_EQ(data[2], 1.7);
  EXPECT_NE(c.caption.find("95x"), std::string::npos);
}

TEST(ChartData, CompareKeepsOnlyCategoriesSomeRunHas) {
  const auto charts = compare_charts({run_of("desk.json", bench_doc()), run_of("laptop.json", cpu_only_doc())});
  ASSERT_EQ(charts.size(), 3u);
  const auto& gemm = charts[0].config;
  ASSERT_EQ(gemm["data"]["datasets"].size(), 2u);
  EXPECT_EQ(gemm["data"]["datasets"][1]["label"], "laptop.json");
  const auto& labels = gemm["data"]["labels"];
  EXPECT_EQ(labels.size(), 4u);  // CPU fp64, CPU fp32, GPU fp32, GPU bf16
  EXPECT_EQ(labels[3], "GPU bf16");
  EXPECT_DOUBLE_EQ(gemm["data"]["datasets"][0]["data"][1].get<double>(), 0.8);  // CPU 800 GFLOP/s in TFLOP/s
  EXPECT_TRUE(gemm["data"]["datasets"][1]["data"][2].is_null());              // the laptop has no GPU
}

// The charts take the typed result: a file with a wrong-typed field never reaches them (bench_report_test checks
// the reader's messages); what reaches them may still have nothing to draw.
TEST(ChartData, AResultWithNothingMeasuredGivesEmptyCharts) {
  const BenchRun run = run_of("empty", json::parse(R"({"schema": "gpuscout.bench/1", "gpus": [{"index": 0}]})"));
  EXPECT_NO_THROW(gemm_charts(run));
  EXPECT_TRUE(bandwidth_chart(run).empty_note);
  EXPECT_TRUE(speedup_chart(run).empty_note);
  for (const auto& c : compare_charts({run, run})) EXPECT_TRUE(c.empty_note) << c.id;
}

// Labels belong on a category axis: on a linear one Chart.js draws the axes and no bar (seen in the browser test).
void expect_category_index_axis(const ChartSpec& c) {
  if (c.empty_note) return;
  ASSERT_EQ(c.config["type"], "bar") << c.id;
  const std::string index = c.config["options"].value("indexAxis", std::string("x"));
  EXPECT_EQ(c.config["options"]["scales"][index]["type"], "category") << c.id;
  EXPECT_EQ(c.config["data"]["labels"].size(), c.config["data"]["datasets"][0]["data"].size()) << c.id;
}

TEST(ChartData, BarChartsPutTheirLabelsOnACategoryAxis) {
  const BenchRun run = run_of("run", bench_doc());
  expect_category_index_axis(bandwidth_chart(run));
  expect_category_index_axis(speedup_chart(run));
  for (const auto& c : compare_charts({run, run})) expect_category_index_axis(c);
}

Inventory gpu_machine(std::string name, uint64_t memory) {
  Inventory inv;
  inv.gpuscout_version = "test";
  inv.cpu.model = "Test CPU";
  Gpu g;
  g.vendor = "nvidia";
  g.name = std::move(name);
  g.memory_total_bytes = memory;
  inv.gpus.push_back(g);
  return inv;
}

TEST(MemoryPlan, NoGpuSaysSo) {
  Inventory inv;
  const auto plans = build_memory_plans(inv, std::nullopt);
  EXPECT_TRUE(plans.gpus.empty());
  EXPECT_NE(plans.empty_reason.find("No GPU"), std::string::npos);
  EXPECT_TRUE(memory_plan_empty(plans.empty_reason).empty_note);
}

TEST(MemoryPlan, PicksTheLargestCatalogueModelThatRunsInBf16) {
  const uint64_t card = 24 * units::GiB;
  const auto plans = build_memory_plans(gpu_machine("RTX 4090", card), std::nullopt);
  ASSERT_EQ(plans.gpus.size(), 1u);
  const auto& rows = plans.gpus[0].rows;
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_LE(rows[0].breakdown.total_bytes(), card);   // bf16 inference of the chosen model fits
  EXPECT_GT(rows[4].breakdown.total_bytes(), card);   // and its full training does not
  // No larger decoder in the catalogue would have fitted.
  const auto chosen = plan::count_params(plan::find_model(plans.model)->shape).total;
  const auto catalogue = plan::load_catalogue();
  ASSERT_TRUE(catalogue);
  for (const auto& e : *catalogue) {
    if (e.shape.arch != plan::Arch::decoder || plan::count_params(e.shape).total <= chosen) continue;
    plan::Workload w;
    w.dtype = "bf16";
    EXPECT_GT(plan::estimate(e.shape, w)->per_gpu.total_bytes(), card) << e.name;
  }
}

TEST(MemoryPlan, StacksAddUpToTheTotalAndTheCardIsTheLimitLine) {
  const auto plans = build_memory_plans(gpu_machine("RTX 4090", 24 * units::GiB), std::nullopt);
  const auto c = memory_plan_chart(plans.gpus[0], 0);
  const auto& ds = c.config["data"]["datasets"];
  for (size_t row = 0; row < plans.gpus[0].rows.size(); ++row) {
    double sum = 0;
    for (const auto& d : ds) sum += d["data"][row].get<double>();
    EXPECT_NEAR(sum, static_cast<double>(plans.gpus[0].rows[row].breakdown.total_bytes()) / units::GiB, 0.01);
  }
  EXPECT_DOUBLE_EQ(c.config["options"]["plugins"]["gsLimit"]["value"].get<double>(), 24.0);
  EXPECT_TRUE(c.config["options"]["scales"]["x"]["stacked"].get<bool>());
  expect_category_index_axis(c);
}

TEST(MemoryPlan, AUserModelIsUsedAsGiven) {
  const auto shape = plan::find_model("gpt2")->shape;
  const auto plans = build_memory_plans(gpu_machine("T4", 15 * units::GiB), shape);
  ASSERT_EQ(plans.gpus.size(), 1u);
  EXPECT_EQ(plans.model, shape.name);
}

TEST(Advice, EmptyRankingSaysWhy) {
  advise::Advice a;
  EXPECT_TRUE(advice_chart(a).empty_note);
  advise::Advice b;
  advise::Recommendation r;
  r.gpu = &catalog::gpus().front();
  r.price_usd = 500;
  r.score = 42.5;
  r.metric_name = "memory bandwidth GB/s";
  b.recommendations.push_back(r);
  const auto c = advice_chart(b);
  ASSERT_FALSE(c.empty_note);
  EXPECT_EQ(c.config["data"]["datasets"][0]["data"][0], 42.5);
  expect_category_index_axis(c);
}

HtmlInput page_input(Inventory inv, std::optional<json> bench) {
  HtmlInput in;
  in.inventory_source = "test";
  in.verdict.status = "needs-action";
  in.verdict.device = "cpu";
  in.verdict.findings.push_back({"driver-missing", "error", "No <b>driver</b>", "apt install \"nvidia-driver\""});
  if (bench) in.bench = run_of("saved.json", *bench);
  in.memory = build_memory_plans(inv, std::nullopt);
  in.inventory = std::move(inv);
  in.generated_at = "2026-11-29T00:00:00Z";
  in.nonce = "N0nce";
  return in;
}

TEST(HtmlPage, HostileNamesAreEscapedEverywhere) {
  auto inv = gpu_machine("<script>alert(1)</script>", 24 * units::GiB);
  inv.gpus.push_back(inv.gpus[0]);
  inv.gpus[1].name = "七彩虹 iGame RTX 4090 \"D\" 'x'";
  json bench = bench_doc();
  bench["gpus"][0]["name"] = "<img src=x onerror=alert(2)>";
  const std::string page = render_html(page_input(inv, bench));
  EXPECT_EQ(page.find("<script>alert"), std::string::npos);
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(page.find("七彩虹 iGame RTX 4090 &quot;D&quot; &#39;x&#39;"), std::string::npos);
  EXPECT_EQ(page.find("No <b>driver</b>"), std::string::npos);
  // Exactly four script elements: the data block, the error recorder, Chart.js and the page's own code.
  EXPECT_EQ(count(page, "<script"), 4u);
  EXPECT_EQ(count(page, "</script>"), 4u);
  EXPECT_EQ(count(page, "<script nonce=\"N0nce\">"), 3u);
  EXPECT_NE(page.find("script-src 'nonce-N0nce'"), std::string::npos);
}

TEST(HtmlPage, CommandsInFixesAreCodeNotBackticksAndStayEscaped) {
  auto in = page_input(gpu_machine("RTX", 24 * units::GiB), std::nullopt);
  in.verdict.findings.push_back({"torch-missing", "warning", "Run `gpuscout info` to see it",
                                 "Install it: `pip install \"torch<3\"`, then `a` and a lone ` stays"});
  const std::string page = render_html(in);
  EXPECT_NE(page.find("Run <code>gpuscout info</code> to see it"), std::string::npos);
  EXPECT_NE(page.find("Install it: <code>pip install &quot;torch&lt;3&quot;</code>, then <code>a</code> and a lone ` "
                      "stays"),
            std::string::npos);
  EXPECT_NE(page.find("<html lang=\"en\">"), std::string::npos);
  EXPECT_NE(page.find("\"Noto Sans CJK SC\", \"Source Han Sans SC\""), std::string::npos);
}

TEST(HtmlPage, EveryChartHasItsFigureAndDataIsSelfContained) {
  const auto in = page_input(gpu_machine("NVIDIA GeForce RTX 4090", 24 * units::GiB), bench_doc());
  const std::string page = render_html(in);
  const auto charts = report_charts(in);
  size_t drawn = 0;
  for (const auto& c : charts) {
    EXPECT_NE(page.find("id=\"" + c.id + "\""), std::string::npos) << c.id;
    if (!c.empty_note) ++drawn;
  }
  EXPECT_EQ(count(page, "<canvas"), drawn);
  EXPECT_EQ(count(page, "class=\"chart empty\""), charts.size() - drawn);
  EXPECT_NE(page.find(std::string(chartjs_source().substr(0, 40))), std::string::npos);
  EXPECT_EQ(page.find("http://"), std::string::npos);  // nothing to fetch (the footer names the site without a link)
  EXPECT_EQ(page.find("src=\"http"), std::string::npos);
}

TEST(HtmlPage, OddBenchFilesAreRefusedByTheReaderNamingTheField) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"schema": "gpuscout.bench/1", "gpus": "x"})", "field gpus: expected an array, got a string"},
      {R"({"schema": "gpuscout.bench/1", "cpu": 5})", "field cpu: expected an object, got 5"},
      {R"({"schema": "gpuscout.bench/1", "notes": [1, "n"]})", "field notes[0]: expected a string, got 1"},
      {R"({"schema": "gpuscout.bench/1", "gpus": [7]})", "field gpus[0]: expected an object, got 7"},
      {R"({"schema": "gpuscout.bench/1", "cpu": {"gemm": [{"dtype": "fp32", "ok": "yes"}]}})",
       "field cpu.gemm[0].ok: expected true or false, got a string"},
  };
  for (const auto& [text, says] : cases) {
    const auto r = bench::from_json(json::parse(text));
    ASSERT_FALSE(r.has_value()) << text;
    EXPECT_EQ(r.error().message, says);
  }
}

TEST(HtmlPage, EmptyMachineSaysSoInsteadOfDrawingEmptyAxes) {
  Inventory inv;
  inv.gpuscout_version = "test";
  const auto in = page_input(inv, cpu_only_doc());
  const std::string page = render_html(in);
  EXPECT_NE(page.find("No GPU found"), std::string::npos);
  for (const auto& c : report_charts(in))
    if (c.kind == "memory-plan" || c.id == "gemm-gpu" || c.kind == "speedup") EXPECT_TRUE(c.empty_note) << c.id;
  const auto no_bench = page_input(inv, std::nullopt);
  EXPECT_NO_THROW(render_html(no_bench));
}

TEST(ChartJs, EmbeddedLibraryIsWhole) {
  EXPECT_GT(chartjs_source().size(), 100000u);
  EXPECT_NE(chartjs_source().find("Chart.js v" + std::string(chartjs_version())), std::string::npos);
  EXPECT_EQ(chartjs_source().find("</script"), std::string::npos);
}

}  // namespace
}  // namespace gpuscout::report
