#include "report/html.hpp"
#include "report/plan_words.hpp"

#include <fmt/format.h>

#include "core/i18n.hpp"

#include "core/units.hpp"
#include "report/doctor_text.hpp"
#include "report/html_escape.hpp"
#include "report/html_page.hpp"
#include "report/markdown.hpp"
#include "bench/report.hpp"

namespace gpuscout::report {

// code_spans, html_table: html_page.hpp.
std::string code_spans(const std::string& escaped) {
  std::string out;
  size_t at = 0;
  while (at < escaped.size()) {
    const size_t open = escaped.find('`', at);
    const size_t close = open == std::string::npos ? open : escaped.find('`', open + 1);
    if (close == std::string::npos) break;
    out += escaped.substr(at, open - at) + "<code>" + escaped.substr(open + 1, close - open - 1) + "</code>";
    at = close + 1;
  }
  return out + escaped.substr(std::min(at, escaped.size()));
}

std::string html_table(const std::vector<std::string>& head, const std::vector<std::vector<std::string>>& rows,
                       std::string_view css) {
  std::string out =
      fmt::format("<div class=\"scroll\"><table{}>\n<thead><tr>", css.empty() ? "" : fmt::format(" class=\"{}\"", css));
  for (const auto& c : head) out += "<th>" + escape_html(c) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& r : rows) {
    out += "<tr>";
    for (const auto& c : r) out += "<td>" + escape_html(c) + "</td>";
    out += "</tr>\n";
  }
  return out + "</tbody></table></div>\n";
}

namespace {

using nlohmann::json;

std::string h(std::string_view text) { return escape_html(text); }

std::string text_or(const std::optional<std::string>& v, std::string_view fallback = tr("not found")) {
  return v && !v->empty() ? *v : std::string(fallback);
}
std::string bytes_or_unknown(const std::optional<uint64_t>& v) { return v ? units::format_bytes(*v) : std::string(tr("unknown")); }

std::string fixed(const std::optional<double>& v, int digits, std::string_view suffix = "") {
  return v ? fmt::format("{:.{}f}{}", *v, digits, suffix) : std::string("–");
}

/// A two-column table of label/value rows (both escaped).
std::string kv_table(const std::vector<std::pair<std::string, std::string>>& rows) {
  std::string out = "<table class=\"kv\">\n";
  for (const auto& [k, v] : rows) out += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", h(k), h(v));
  return out + "</table>\n";
}

std::string figure(const ChartSpec& s) {
  if (s.empty_note)
    return fmt::format("<figure class=\"chart empty\" data-chart=\"{}\" id=\"{}\"><figcaption><strong>{}</strong>"
                       "</figcaption><p class=\"empty-note\">{}</p></figure>\n",
                       h(s.kind), h(s.id), h(s.title), h(*s.empty_note));
  return fmt::format("<figure class=\"chart\" data-chart=\"{}\" id=\"{}\"><figcaption><strong>{}</strong> {}"
                     "</figcaption><div class=\"canvas-box\" style=\"height:{}px\"><canvas role=\"img\" "
                     "aria-label=\"{}\"></canvas></div></figure>\n",
                     h(s.kind), h(s.id), h(s.title), h(s.caption), s.height_px, h(s.title));
}

std::string notes_list(const std::vector<std::string>& notes, std::string_view css = "notes") {
  if (notes.empty()) return {};
  std::string out = fmt::format("<ul class=\"{}\">\n", css);
  for (const auto& n : notes) out += "<li>" + h(n) + "</li>\n";
  return out + "</ul>\n";
}

// ---- sections ----------------------------------------------------------------------------------------------

std::string verdict_section(const diagnose::Verdict& v) {
  const std::string status_css = v.status == "ready" ? "ok" : v.status == "cpu-only" ? "warn" : "bad";
  std::string out = tr("<section id=\"verdict\">\n<h2>Verdict</h2>\n");
  out += fmt::format("<p class=\"status {}\">{}</p>\n", status_css, h(status_word(v.status)));
  out += trf("<p>A training script should use <code>{}</code>.</p>\n", h(v.device));
  if (steps_to_take(v.plan) > 0) {
    out += std::string(tr("<h3>Steps</h3>\n")) + "<ol class=\"plan\">\n";
    for (const auto& s : v.plan.steps) {
      out += "<li>" + code_spans(h(s.action));
      if (const auto needs = step_needs(s); !needs.empty()) out += " " + h(needs);
      if (!s.command.empty()) out += "<pre><code>" + h(s.command) + "</code></pre>";
      out += "</li>\n";
    }
    out += "</ol>\n";
  } else if (v.torch_fits) out += tr("<p>PyTorch for this machine: the installed one fits, nothing to install.</p>\n");
  if (v.findings.empty()) {
    out += tr("<p>No problem found.</p>\n");
  } else {
    out += tr("<table class=\"findings\"><thead><tr><th>severity</th><th>code</th><th>what is wrong</th><th>fix</th>"
           "</tr></thead><tbody>\n");
    for (const auto& f : v.findings)
      out += fmt::format("<tr class=\"{0}\"><td>{4}</td><td><code>{1}</code></td><td>{2}</td><td>{3}</td></tr>\n",
                         h(f.severity), h(f.code), code_spans(h(f.message)), code_spans(h(f.fix)),
                         h(severity_word(f.severity)));
    out += "</tbody></table>\n";
  }
  return out + "</section>\n";
}

std::string machine_section(const Inventory& inv, const std::string& source) {
  std::vector<std::pair<std::string, std::string>> rows;
  rows.emplace_back(tr("inventory"), inv.collected_at ? trf("{}, collected {}", source, *inv.collected_at) : source);
  rows.emplace_back("OS", trf("{}, kernel {}", text_or(inv.os.pretty_name, tr("unknown")), text_or(inv.os.kernel, tr("unknown"))));
  rows.emplace_back(tr("platform"), platform_word(inv.platform.kind) + (inv.platform.cloud ? " (" + *inv.platform.cloud + ")" : ""));
  rows.emplace_back("CPU", trf("{} ({}), {} cores, {} logical CPUs", text_or(inv.cpu.model, tr("unknown")), inv.cpu.arch,
                                       inv.cpu.physical_cores ? std::to_string(*inv.cpu.physical_cores) : "?",
                                       inv.cpu.logical_cpus ? std::to_string(*inv.cpu.logical_cpus) : "?"));
  rows.emplace_back(tr("RAM"), trf("{} total, {} available", bytes_or_unknown(inv.memory.total_bytes),
                                       bytes_or_unknown(inv.memory.available_bytes)));
  rows.emplace_back(tr("NVIDIA driver"), inv.nvidia.driver_version
                                         ? trf("{} (supports CUDA {})", *inv.nvidia.driver_version,
                                                       text_or(inv.nvidia.cuda_driver_version, "?"))
                                         : std::string(tr("not found")));
  rows.emplace_back(tr("CUDA toolkit"), inv.toolkit.nvcc_version ? "nvcc " + *inv.toolkit.nvcc_version : tr("not found"));
  std::string torch = tr("not installed");
  if (!inv.python.probed) torch = tr("not probed");
  else if (inv.torch)
    torch = fmt::format("{} ({}), torch.cuda.is_available() = {}", inv.torch->version,
                        inv.torch->cuda ? "CUDA " + *inv.torch->cuda
                                        : inv.torch->hip ? "ROCm " + *inv.torch->hip : std::string(tr("CPU build")),
                        inv.torch->cuda_available ? "True" : "False");
  rows.emplace_back("Python", inv.python.probed ? text_or(inv.python.version) : std::string(tr("not probed")));
  rows.emplace_back("PyTorch", torch);
  if (!inv.torch)
    for (const auto& other : inv.python.others) rows.emplace_back(tr("PyTorch in another Python"), other_python(other));
  std::string out = tr("<section id=\"machine\">\n<h2>This machine</h2>\n") + kv_table(rows);
  if (inv.gpus.empty()) {
    out += tr("<p class=\"empty-note\">No GPU found: no PCI display device and no driver reported one.</p>\n");
  } else {
    std::vector<std::vector<std::string>> g;
    for (const auto& gpu : inv.gpus)
      g.push_back({std::to_string(gpu.index), gpu.name, gpu.vendor, text_or(gpu.compute_capability, "–"),
                   bytes_or_unknown(gpu.memory_total_bytes), gpu.memory_free_bytes ? units::format_bytes(*gpu.memory_free_bytes) : "–",
                   text_or(gpu.kernel_driver, tr("none")), text_or(gpu.pci_bus_id, "–")});
    out += "<h3>GPUs</h3>\n" + html_table({"#", tr("name"), tr("vendor"), tr("compute capability"), tr("memory"), tr("free"), tr("kernel driver"), tr("PCI bus")}, g);
  }
  out += tr("<details><summary>Everything gpuscout found</summary>\n<pre>") + h(render_inventory_text(inv, TextStyle{})) +
         "</pre></details>\n";
  return out + "</section>\n";
}

std::string percent(const std::optional<double>& fraction) {
  return fraction ? fmt::format("{:.0f}%", *fraction * 100) : "–";
}

std::string bench_tables(const BenchRun& run) {
  std::string out;
  const bench::BenchResult& r = run.result;
  std::vector<std::vector<std::string>> rows;
  if (r.cpu)
    for (const auto& g : r.cpu->gemm)
      rows.push_back({"CPU", std::string(bench::dtype_name(g.run.dtype)), std::to_string(g.run.n),
                      fixed(g.run.gflops, 1, " GFLOP/s"), percent(g.efficiency), g.run.ok ? "ok" : tr("WRONG")});
  for (const auto& gpu : r.gpus)
    for (const auto& g : gpu.gemm) {
      const bool ran = g.status == 0;
      rows.push_back({fmt::format("GPU {}", gpu.index), std::string(bench::dtype_name(g.dtype)), std::to_string(g.n),
                      ran ? fixed(g.tflops, 1, " TFLOP/s") : std::string(bench::status_name(g.status)),
                      percent(g.efficiency), !ran ? "–" : g.ok ? "ok" : tr("WRONG")});
    }
  if (!rows.empty())
    out += tr("<details><summary>GEMM figures</summary>\n") +
           html_table({tr("device"), tr("precision"), "n", tr("rate"), tr("of peak"), tr("check")}, rows, "numbers") + "</details>\n";
  std::vector<std::string> notes = r.notes;
  if (r.cpu)
    for (const auto& n : r.cpu->notes) notes.push_back("CPU: " + n);
  for (const auto& gpu : r.gpus)
    for (const auto& n : gpu.notes) notes.push_back(fmt::format("GPU {}: {}", gpu.index, n));
  return out + notes_list(notes);
}

std::string memory_section(const MemoryPlans& m, const std::vector<ChartSpec>& charts) {
  std::string out = tr("<section id=\"memory\">\n<h2>How big a model fits</h2>\n");
  if (m.gpus.empty()) {
    for (const auto& c : charts) out += figure(c);
    return out + "</section>\n";
  }
  std::vector<std::vector<std::string>> rows;
  auto count = [](uint64_t n) { return n == 0 ? std::string(tr("none")) : units::format_count(n); };
  for (size_t i = 0; i < m.gpus.size() && i < m.largest.size(); ++i) {
    const auto& t = m.largest[i];
    rows.push_back({fmt::format("{} ({} {})", m.gpus[i].gpu, units::format_bytes(t.capacity_bytes), tr(m.gpus[i].basis)),
                    count(t.infer_fp16), count(t.infer_int8), count(t.infer_int4), count(t.qlora), count(t.lora),
                    count(t.train)});
  }
  out += tr("<p>Largest model (parameters) that fits one GPU, at the default context and batch 1:</p>\n") +
         html_table({"GPU", tr("inference 16-bit"), tr("inference int8"), tr("inference int4"), "QLoRA", "LoRA", tr("full training")}, rows,
               "numbers");
  out += trf("<p>Bars below: <strong>{}</strong> ({}).</p>\n", h(m.model), h(m.model_reason));
  for (const auto& c : charts) out += figure(c);
  return out + "</section>\n";
}

std::string advice_section(const HtmlInput& in, const std::vector<ChartSpec>& charts) {
  std::string out = tr("<section id=\"advice\">\n<h2>What to buy or rent</h2>\n");
  if (!in.advice) return out + "<p class=\"empty-note\">" + h(in.advice_error) + "</p>\n</section>\n";
  const auto& a = *in.advice;
  out += trf("<p>Goal <strong><code>{}</code></strong>, memory need {} ({}){}; catalogue {}, rental prices {}.</p>\n",
                     h(advise::name(a.goal)), h(units::format_bytes(a.need_bytes)), h(a.need_basis),
                     a.budget_usd ? h(trf(", budget {:.0f} USD", *a.budget_usd)) : std::string(tr(", no budget given")),
                     h(a.catalogue_date), h(a.prices_date));
  for (const auto& c : charts) out += figure(c);
  std::vector<std::vector<std::string>> rows;
  for (const auto& r : a.recommendations)
    rows.push_back({r.gpu ? r.gpu->name : "?", r.gpu && r.gpu->memory_bytes ? units::format_bytes(*r.gpu->memory_bytes) : "?",
                    fmt::format("{:.0f} USD", r.price_usd), r.price_basis, fmt::format("{:.1f}", r.metric),
                    fmt::format("{:.1f}", r.score)});
  if (!rows.empty())
    out += html_table({tr("card"), tr("memory"), tr("price"), tr("price basis"), a.recommendations.front().metric_name, tr("per 1000 USD")}, rows,
                 "numbers");
  std::vector<std::vector<std::string>> rent;
  for (size_t i = 0; i < a.rent.size() && i < 8; ++i)
    rent.push_back({a.rent[i].platform, a.rent[i].offer, a.rent[i].gpu,
                    a.rent[i].usd_per_hour == 0 ? trc("price", "free") : fmt::format("{:.2f} USD/h", a.rent[i].usd_per_hour)});
  if (!rent.empty()) out += tr("<h3>Rent instead</h3>\n") + html_table({tr("platform"), tr("offer"), "GPU", tr("price")}, rent, "numbers");
  if (!a.break_even_text.empty()) out += "<p>" + h(a.break_even_text) + "</p>\n";
  out += notes_list(a.notes);
  out += notes_list(a.warnings, "warnings");
  return out + "</section>\n";
}

constexpr std::string_view kStyle = R"CSS(
:root { --fg:#1b1b1b; --muted:#5a5a5a; --line:#d8d8d8; --ok:#1a7f37; --warn:#9a6700; --bad:#cf222e; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC", "Source Han Sans SC",
       "PingFang SC", "Microsoft YaHei", sans-serif;
       color: var(--fg); margin: 0 auto; max-width: 1100px; padding: 1.2rem 1.5rem 3rem; }
h1 { margin: 0 0 .2rem; font-size: 1.7rem; } h2 { border-bottom: 2px solid var(--line); padding-bottom: .2rem; margin-top: 2.2rem; }
.meta, figcaption, .notes { color: var(--muted); }
nav a { margin-right: 1rem; }
table { border-collapse: collapse; margin: .6rem 0 1rem; width: 100%; }
.scroll { overflow-x: auto; max-width: 100%; }
table.findings { table-layout: fixed; }
table.findings td, table.kv td { overflow-wrap: anywhere; }
table.findings th:nth-child(1) { width: 5.5rem; } table.findings th:nth-child(2) { width: 9rem; }
@media (max-width: 600px) { body { padding: .8rem .7rem 2rem; } table.kv th { width: 6.5rem; }
  table.findings, table.findings tbody, table.findings tr, table.findings td { display: block; width: 100%; }
  table.findings thead { display: none; } table.findings tr { border-bottom: 1px solid var(--line); padding: .3rem 0; }
  table.findings td { border: 0; padding: .1rem .3rem; } nav a { display: inline-block; margin-bottom: .3rem; } }
th, td { border-bottom: 1px solid var(--line); padding: .28rem .5rem; text-align: left; vertical-align: top; }
table.kv th { width: 11rem; color: var(--muted); font-weight: 600; }
table.numbers td { font-variant-numeric: tabular-nums; }
.status { display: inline-block; font-weight: 700; font-size: 1.15rem; padding: .15rem .7rem; border-radius: 4px; color: #fff; }
.status.ok { background: var(--ok); } .status.warn { background: var(--warn); } .status.bad { background: var(--bad); }
tr.error td:first-child { color: var(--bad); font-weight: 700; } tr.warning td:first-child { color: var(--warn); font-weight: 700; }
code { background: #f3f3f3; padding: .05rem .3rem; border-radius: 3px; word-break: break-all; }
table.findings td:nth-child(2) code { word-break: break-all; }
pre { background: #f6f6f6; padding: .8rem; overflow-x: auto; font-size: .85rem; }
figure.chart { margin: 1rem 0 1.6rem; break-inside: avoid; page-break-inside: avoid; }
.canvas-box { position: relative; width: 100%; }
.empty-note { border: 1px dashed var(--line); padding: .8rem 1rem; color: var(--muted); }
.chart-error { color: var(--bad); }
ul.warnings li { color: var(--warn); }
footer { margin-top: 3rem; color: var(--muted); font-size: .85rem; }
@media print {
  body { max-width: none; padding: 0; font-size: 11pt; }
  nav, .noprint { display: none; }
  details > summary { display: none; }
  section { break-before: auto; }
  a { color: inherit; text-decoration: none; }
}
)CSS";

// Runs before Chart.js, so an error anywhere on the page is recorded for the browser test.
constexpr std::string_view kErrorRecorder =
    "window.gpuscoutReport = { done: false, charts: 0, errors: [] };\n"
    "window.addEventListener('error', function (e) { window.gpuscoutReport.errors.push(String(e.message)); });\n";

// Draws every chart from the JSON block, and records what happened in window.gpuscoutReport (the browser test
// reads it). The one plugin draws a limit line (a card's memory) on a horizontal scale with the chart's own scale.
constexpr std::string_view kScript = R"JS(
(function () {
  'use strict';
  var state = window.gpuscoutReport;
  var limitLine = {
    id: 'gsLimit',
    afterDatasetsDraw: function (chart, args, opts) {
      if (!opts || typeof opts.value !== 'number' || !chart.scales.x) return;
      var area = chart.chartArea, x = chart.scales.x.getPixelForValue(opts.value), ctx = chart.ctx;
      if (x < area.left || x > area.right) return;
      ctx.save();
      ctx.strokeStyle = '#cf222e'; ctx.lineWidth = 2; ctx.setLineDash([6, 4]);
      ctx.beginPath(); ctx.moveTo(x, area.top); ctx.lineTo(x, area.bottom); ctx.stroke();
      ctx.setLineDash([]); ctx.fillStyle = '#cf222e'; ctx.font = '12px sans-serif';
      var right = x > area.right - 160;
      ctx.textAlign = right ? 'right' : 'left';
      ctx.fillText(String(opts.label || ''), x + (right ? -5 : 5), area.top + 12);
      ctx.restore();
    }
  };
  try {
    Chart.register(limitLine);
    Chart.defaults.devicePixelRatio = Math.max(window.devicePixelRatio || 1, 2);
    var specs = JSON.parse(document.getElementById('gs-charts').textContent);
    specs.forEach(function (spec) {
      var figure = document.getElementById(spec.id);
      if (!figure || !spec.config) return;
      var canvas = figure.querySelector('canvas');
      try {
        new Chart(canvas, spec.config);
        state.charts += 1;
      } catch (e) {
        state.errors.push(spec.id + ': ' + e.message);
        var p = document.createElement('p');
        p.className = 'chart-error';
        p.textContent = 'This chart could not be drawn: ' + e.message;
        figure.appendChild(p);
      }
    });
    window.addEventListener('beforeprint', function () {
      Object.keys(Chart.instances).forEach(function (k) { Chart.instances[k].resize(); });
    });
  } catch (e) {
    state.errors.push(String(e.message));
  }
  state.done = true;
})();
)JS";

}  // namespace

std::vector<ChartSpec> report_charts(const HtmlInput& in) {
  std::vector<ChartSpec> out;
  if (in.bench) {
    for (auto& c : gemm_charts(*in.bench)) out.push_back(std::move(c));
    out.push_back(bandwidth_chart(*in.bench));
    out.push_back(speedup_chart(*in.bench));
  }
  if (!in.compare.empty())
    for (auto& c : compare_charts(in.compare)) out.push_back(std::move(c));
  if (in.memory.gpus.empty()) {
    out.push_back(memory_plan_empty(in.memory.empty_reason));
  } else {
    for (size_t i = 0; i < in.memory.gpus.size(); ++i) out.push_back(memory_plan_chart(in.memory.gpus[i], static_cast<int>(i)));
  }
  if (in.advice) out.push_back(advice_chart(*in.advice));
  return out;
}

namespace {

std::vector<ChartSpec> charts_of_kinds(const std::vector<ChartSpec>& charts,
                                       std::initializer_list<std::string_view> kinds) {
  std::vector<ChartSpec> out;
  for (const auto& c : charts)
    for (auto k : kinds)
      if (c.kind == k) out.push_back(c);
  return out;
}

std::string page_head(const HtmlInput& in) {
  std::string title = tr("gpuscout report");
  if (in.inventory.cpu.model) title += ": " + *in.inventory.cpu.model;
  if (!in.inventory.gpus.empty()) title += ", " + in.inventory.gpus.front().name;
  std::string page = html_page_start(title, in.inventory.gpuscout_version, in.nonce);
  page += tr("<header>\n<h1>gpuscout report</h1>\n");
  page += trf("<p class=\"meta\">Generated {} by gpuscout {}. {}.</p>\n", h(in.generated_at),
                      h(in.inventory.gpuscout_version), h(in.inventory_source));
  page += tr("<nav class=\"noprint\"><a href=\"#verdict\">Verdict</a><a href=\"#machine\">Machine</a>"
          "<a href=\"#bench\">Benchmark</a>");
  if (!in.compare.empty()) page += "<a href=\"#compare\">Comparison</a>";
  page += tr("<a href=\"#memory\">Model size</a><a href=\"#advice\">Buy or rent</a></nav>\n</header>\n");
  return page;
}

std::string bench_section(const HtmlInput& in, const std::vector<ChartSpec>& charts) {
  std::string page = tr("<section id=\"bench\">\n<h2>How fast is it</h2>\n");
  if (in.bench) {
    page += "<p class=\"meta\">" + h(in.bench_source) + "</p>\n";
    for (const auto& c : charts) page += figure(c);
    page += bench_tables(*in.bench);
  } else {
    page += "<p class=\"empty-note\">" + h(in.bench_source) + "</p>\n";
  }
  return page + "</section>\n";
}

std::string compare_section(const HtmlInput& in, const std::vector<ChartSpec>& charts) {
  if (in.compare.empty()) return {};
  std::string page = tr("<section id=\"compare\">\n<h2>Saved runs side by side</h2>\n");
  std::vector<std::vector<std::string>> rows;
  for (const auto& r : in.compare) {
    std::vector<std::string> gpus;
    for (const auto& g : r.result.gpus) gpus.push_back(g.name);
    const std::string cpu = r.result.cpu ? r.result.cpu->facts.model : std::string();
    rows.push_back({r.label, r.result.collected_at, cpu.empty() ? "–" : cpu,
                    gpus.empty() ? tr("no GPU") : fmt::format("{}", fmt::join(gpus, ", "))});
  }
  page += html_table({tr("run"), tr("collected"), "CPU", "GPUs"}, rows);
  for (const auto& c : charts) page += figure(c);
  return page + "</section>\n";
}

/// The footer, the chart specs as data, and the scripts (each carrying the page's nonce).
std::string page_tail(const HtmlInput& in, const std::vector<ChartSpec>& charts) {
  std::string page = trf("<footer>Charts drawn with Chart.js {} (MIT License, https://www.chartjs.org), embedded in this "
      "file: the page loads nothing from the network. Figures come from gpuscout's probes, its "
      "benchmark and its dated data tables; see the gpuscout documentation for each method.</footer>\n",
      h(chartjs_version()));
  ChartJson specs = ChartJson::array();
  for (const auto& c : charts) {
    if (c.empty_note) continue;
    specs.push_back({{"id", c.id}, {"kind", c.kind}, {"config", c.config}});
  }
  page += "<script type=\"application/json\" id=\"gs-charts\">" + json_for_script(specs) + "</script>\n";
  page += fmt::format("<script nonce=\"{}\">\n{}</script>\n", in.nonce, kErrorRecorder);
  page += fmt::format("<script nonce=\"{}\">\n", in.nonce);
  page += chartjs_source();
  page += "\n</script>\n";
  page += fmt::format("<script nonce=\"{}\">{}</script>\n", in.nonce, kScript);
  page += "</body>\n</html>\n";
  return page;
}

}  // namespace

std::string html_page_start(std::string_view title, std::string_view version, std::string_view nonce) {
  std::string page = fmt::format("<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n", i18n::html_lang());
  page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  // No network, and only scripts carrying this page's nonce run (none without one): an injected <script> could
  // not, even if escaping ever failed.
  const std::string scripts = nonce.empty() ? std::string() : fmt::format(" script-src 'nonce-{}';", nonce);
  page += fmt::format("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';{} style-src "
                      "'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'\">\n",
                      scripts);
  page += "<meta name=\"generator\" content=\"gpuscout " + escape_html(version) + "\">\n";
  page += "<title>" + escape_html(title) + "</title>\n<style>" + std::string(kStyle) + "</style>\n</head>\n<body>\n";
  return page;
}

std::string render_html(const HtmlInput& in) {
  const auto charts = report_charts(in);
  std::string page;
  page.reserve(chartjs_source().size() + 64 * 1024);
  page += page_head(in);
  page += verdict_section(in.verdict);
  page += machine_section(in.inventory, in.inventory_source);
  page += bench_section(in, charts_of_kinds(charts, {"gemm", "speedup", "bandwidth"}));
  page += compare_section(in, charts_of_kinds(charts, {"compare-gemm", "compare-bandwidth", "compare-speedup"}));
  page += memory_section(in.memory, charts_of_kinds(charts, {"memory-plan"}));
  page += advice_section(in, charts_of_kinds(charts, {"advice"}));
  page += page_tail(in, charts);
  return page;
}

}  // namespace gpuscout::report
