#include "report/chart_data.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

#include <fmt/format.h>

#include "core/i18n.hpp"

#include "bench/gpu_bench.hpp"
#include "bench/report.hpp"
#include "core/units.hpp"

namespace gpuscout::report {
namespace {

using bench::BenchResult;
using bench::GpuResult;
using bench::TransferRecord;

constexpr std::string_view kDtypes[] = {"fp64", "fp32", "tf32", "fp16", "bf16", "fp8"};

double round3(double v) { return std::round(v * 1000.0) / 1000.0; }

ChartJson axis(std::string title, std::string type = "linear", bool begin_at_zero = true) {
  ChartJson a = {{"type", type}, {"title", {{"display", true}, {"text", std::move(title)}}}};
  if (type == "linear") a["beginAtZero"] = begin_at_zero;
  return a;
}

ChartJson base_options() {
  return {{"animation", false},
          {"responsive", true},
          {"maintainAspectRatio", false},
          {"plugins", {{"legend", {{"position", "bottom"}}}}}};
}

ChartSpec empty_chart(std::string kind, std::string id, std::string title, std::string why) {
  ChartSpec s;
  s.kind = std::move(kind);
  s.id = std::move(id);
  s.title = std::move(title);
  s.empty_note = std::move(why);
  s.config = nullptr;
  return s;
}

std::string gpu_title(const GpuResult& gpu) {
  return fmt::format("GPU {} {}", gpu.index, gpu.name.empty() ? "(unnamed)" : gpu.name);
}

std::string gpu_missing_reason(const BenchResult& r) {
  if (!r.gpu_status.message.empty()) return trf("No GPU results in this benchmark: {}", r.gpu_status.message);
  if (r.device == "cpu") return tr("No GPU results: this benchmark ran with --device cpu");
  return tr("No GPU results in this benchmark: no GPU was found");
}

/// One GEMM line per precision plus its peak as a dashed horizontal line across the sizes.
ChartJson gemm_config(const std::map<std::string, std::vector<std::pair<double, double>>>& points,
                      const std::map<std::string, double>& peaks, const std::string& unit, const std::string& peak_name) {
  ChartJson datasets = ChartJson::array();
  double x_max = 0;
  for (const auto& [dtype, pts] : points)
    for (const auto& p : pts) x_max = std::max(x_max, p.first);
  x_max = std::ceil(x_max * 1.08);
  for (const auto d : kDtypes) {
    const auto it = points.find(std::string(d));
    if (it == points.end() || it->second.empty()) continue;
    auto pts = it->second;
    std::sort(pts.begin(), pts.end());
    ChartJson data = ChartJson::array();
    for (const auto& [x, y] : pts) data.push_back({{"x", x}, {"y", round3(y)}});
    const std::string color = dtype_color(d);
    datasets.push_back({{"label", std::string(d)}, {"data", data}, {"borderColor", color},
                        {"backgroundColor", color}, {"pointRadius", 4}, {"borderWidth", 2}, {"showLine", true}, {"fill", false}});
    if (const auto pk = peaks.find(std::string(d)); pk != peaks.end()) {
      datasets.push_back({{"label", fmt::format("{} {}", d, peak_name)},
                          {"data", ChartJson::array({{{"x", 0}, {"y", round3(pk->second)}},
                                                     {{"x", x_max}, {"y", round3(pk->second)}}})},
                          {"borderColor", color}, {"backgroundColor", color}, {"borderDash", {6, 4}},
                          {"pointRadius", 0}, {"borderWidth", 1.5}, {"showLine", true}, {"fill", false}});
    }
  }
  ChartJson options = base_options();
  options["scales"] = {{"x", axis(tr("matrix size n (n x n times n x n)"))}, {"y", axis(unit)}};
  options["scales"]["x"]["max"] = x_max;
  return {{"type", "line"}, {"data", {{"datasets", datasets}}}, {"options", options}};
}

std::optional<double> transfer_gbs(const std::optional<TransferRecord>& t) {
  if (!t || t->status != 0) return std::nullopt;
  return t->gbs;
}

/// The PCIe limit per direction: the link seen under load, else the card's and slot's maximum.
std::optional<double> pcie_limit(const GpuResult& gpu, std::string* basis) {
  if (gpu.pcie_expected_gbs) {
    *basis = tr("PCIe link under load");
    return gpu.pcie_expected_gbs;
  }
  const auto gen = gpu.telemetry.pcie_gen_max, width = gpu.telemetry.pcie_width_max;
  if (gen && width) {
    if (auto g = bench::pcie_gbs(*gen, *width)) {
      *basis = trf("PCIe gen {} x{} maximum", *gen, *width);
      return g;
    }
  }
  return std::nullopt;
}

ChartJson json_or_null(const std::optional<double>& v) { return v ? ChartJson(round3(*v)) : ChartJson(nullptr); }

/// Best rate over sizes (and GPUs) of a precision, in TFLOP/s.
std::optional<double> best_gpu_tflops(const BenchResult& r, std::string_view dtype) {
  std::optional<double> best;
  for (const auto& gpu : r.gpus)
    for (const auto& g : gpu.gemm)
      if (bench::dtype_name(g.dtype) == dtype && g.status == 0 && (!best || g.tflops > *best)) best = g.tflops;
  return best;
}
std::optional<double> best_cpu_tflops(const BenchResult& r, std::string_view dtype) {
  std::optional<double> best;
  if (r.cpu)
    for (const auto& g : r.cpu->gemm)
      if (bench::dtype_name(g.run.dtype) == dtype && (!best || g.run.gflops / 1000.0 > *best)) best = g.run.gflops / 1000.0;
  return best;
}
std::optional<double> best_gpu_transfer(const BenchResult& r, std::optional<TransferRecord> GpuResult::*kind) {
  std::optional<double> best;
  for (const auto& gpu : r.gpus)
    if (auto v = transfer_gbs(gpu.*kind); v && (!best || *v > *best)) best = v;
  return best;
}

const char* const kRunColors[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"};

/// A grouped bar chart: one bar per run in each category; categories no run has are dropped.
ChartSpec compare_bar(std::string kind, std::string title, std::string caption, std::string unit,
                      const std::vector<BenchRun>& runs, const std::vector<std::string>& categories,
                      const std::function<std::optional<double>(const BenchResult&, size_t)>& value, bool log_scale) {
  std::vector<size_t> kept;
  for (size_t c = 0; c < categories.size(); ++c)
    for (const auto& r : runs)
      if (value(r.result, c)) {
        kept.push_back(c);
        break;
      }
  if (kept.empty()) return empty_chart(kind, kind, title, tr("None of the compared runs has these measurements"));
  ChartJson labels = ChartJson::array();
  for (size_t c : kept) labels.push_back(categories[c]);
  ChartJson datasets = ChartJson::array();
  for (size_t i = 0; i < runs.size(); ++i) {
    ChartJson data = ChartJson::array();
    for (size_t c : kept) data.push_back(json_or_null(value(runs[i].result, c)));
    const char* color = kRunColors[i % std::size(kRunColors)];
    datasets.push_back({{"label", runs[i].label}, {"data", data}, {"backgroundColor", color}, {"borderColor", color}});
  }
  ChartJson options = base_options();
  options["scales"] = {{"x", axis("", "category")}, {"y", axis(unit, log_scale ? "logarithmic" : "linear")}};
  options["scales"]["x"]["title"]["display"] = false;
  ChartSpec s;
  s.kind = kind;
  s.id = kind;
  s.title = std::move(title);
  s.caption = std::move(caption);
  s.config = {{"type", "bar"}, {"data", {{"labels", labels}, {"datasets", datasets}}}, {"options", options}};
  return s;
}

}  // namespace

std::string dtype_color(std::string_view dtype) {
  // Okabe-Ito: distinguishable with the common colour-vision deficiencies.
  if (dtype == "fp64") return "#CC79A7";
  if (dtype == "fp32") return "#0072B2";
  if (dtype == "tf32") return "#56B4E9";
  if (dtype == "fp16") return "#E69F00";
  if (dtype == "bf16") return "#D55E00";
  if (dtype == "fp8") return "#009E73";
  return "#000000";
}

namespace {

using Points = std::map<std::string, std::vector<std::pair<double, double>>>;

ChartSpec cpu_gemm_chart(const bench::CpuResult& cpu) {
  Points points;
  for (const auto& g : cpu.gemm)
    points[std::string(bench::dtype_name(g.run.dtype))].emplace_back(g.run.n, g.run.gflops);
  std::map<std::string, double> peaks;
  if (cpu.peak_fp32) peaks["fp32"] = cpu.peak_fp32->all_cores_gflops;
  if (cpu.peak_fp64) peaks["fp64"] = cpu.peak_fp64->all_cores_gflops;
  if (points.empty())
    return empty_chart("gemm", "gemm-cpu", tr("CPU matrix multiply"), tr("This benchmark has no CPU GEMM results"));
  ChartSpec s;
  s.kind = "gemm";
  s.id = "gemm-cpu";
  const std::string& model = cpu.facts.model;
  s.title = trf("CPU matrix multiply{}", model.empty() ? "" : ": " + model);
  s.caption = trf("GFLOP/s of the BLAS GEMM ({}, {} threads) at each size; dashed: the measured all-core FMA peak of the "
      "same precision, the most this CPU can do.",
      cpu.blas.name.empty() ? "BLAS" : cpu.blas.name, cpu.threads);
  s.config = gemm_config(points, peaks, "GFLOP/s", tr("peak (measured FMA)"));
  return s;
}

ChartSpec gpu_gemm_chart(const GpuResult& gpu, size_t i) {
  Points points;
  std::map<std::string, double> peaks;
  std::vector<std::string> skipped;
  for (const auto& g : gpu.gemm) {
    const std::string dtype(bench::dtype_name(g.dtype));
    if (g.status != 0) {
      skipped.push_back(fmt::format("{} {}", dtype, bench::status_name(g.status)));
      continue;
    }
    points[dtype].emplace_back(g.n, g.tflops);
    if (g.peak_datasheet_tflops) peaks[dtype] = *g.peak_datasheet_tflops;
    else if (g.peak_computed_tflops) peaks.try_emplace(dtype, *g.peak_computed_tflops);
  }
  std::sort(skipped.begin(), skipped.end());
  skipped.erase(std::unique(skipped.begin(), skipped.end()), skipped.end());
  const std::string id = fmt::format("gemm-gpu-{}", i);
  if (points.empty())
    return empty_chart("gemm", id, trf("{} matrix multiply", gpu_title(gpu)),
                       skipped.empty() ? tr("No GEMM result for this GPU")
                                       : trf("No GEMM ran to completion: {}", fmt::format("{}", fmt::join(skipped, ", "))));
  ChartSpec s;
  s.kind = "gemm";
  s.id = id;
  s.title = trf("{} matrix multiply", gpu_title(gpu));
  s.caption = tr("TFLOP/s of cuBLAS at each size and precision; dashed: the datasheet dense peak of that precision.");
  if (!skipped.empty()) s.caption += trf(" Not drawn: {}.", fmt::format("{}", fmt::join(skipped, ", ")));
  s.config = gemm_config(points, peaks, "TFLOP/s", tr("peak (datasheet)"));
  return s;
}

}  // namespace

std::vector<ChartSpec> gemm_charts(const BenchRun& run) {
  std::vector<ChartSpec> out;
  const BenchResult& r = run.result;
  if (r.cpu) out.push_back(cpu_gemm_chart(*r.cpu));
  if (r.gpus.empty()) {
    out.push_back(empty_chart("gemm", "gemm-gpu", tr("GPU matrix multiply"), gpu_missing_reason(r)));
    return out;
  }
  for (size_t i = 0; i < r.gpus.size(); ++i) out.push_back(gpu_gemm_chart(r.gpus[i], i));
  return out;
}

ChartSpec bandwidth_chart(const BenchRun& run) {
  ChartJson labels = ChartJson::array(), measured = ChartJson::array(), limits = ChartJson::array();
  std::vector<std::string> limit_sources;
  auto add = [&](std::string label, std::optional<double> value, std::optional<double> limit) {
    if (!value) return;
    labels.push_back(std::move(label));
    measured.push_back(round3(*value));
    limits.push_back(json_or_null(limit));
  };
  const BenchResult& r = run.result;
  if (r.cpu && r.cpu->memory) {
    add(tr("CPU memory: copy"), r.cpu->memory->copy_gbs, std::nullopt);
    add(tr("CPU memory: triad"), r.cpu->memory->triad_gbs, std::nullopt);
  }
  for (const auto& gpu : r.gpus) {
    const std::string g = fmt::format("GPU {}", gpu.index);
    const auto& datasheet = gpu.memory_bandwidth_gbs;
    if (datasheet) limit_sources.push_back(trf("{} memory: datasheet", g));
    add(trf("{} memory (device copy)", g), transfer_gbs(gpu.copy), datasheet);
    std::string basis;
    const auto link = pcie_limit(gpu, &basis);
    if (link) limit_sources.push_back(fmt::format("{} transfers: {}", g, basis));
    add(trf("{} host to device, pinned", g), transfer_gbs(gpu.h2d_pinned), link);
    add(trf("{} host to device, pageable", g), transfer_gbs(gpu.h2d_pageable), link);
    add(trf("{} device to host, pinned", g), transfer_gbs(gpu.d2h_pinned), link);
    add(trf("{} device to host, pageable", g), transfer_gbs(gpu.d2h_pageable), link);
  }
  if (labels.empty()) return empty_chart("bandwidth", "bandwidth", tr("Bandwidth"), tr("This benchmark has no bandwidth results"));
  ChartJson options = base_options();
  options["indexAxis"] = "y";
  options["scales"] = {{"x", axis(tr("GB/s (log scale)"), "logarithmic")}, {"y", axis("", "category")}};
  options["scales"]["y"]["title"]["display"] = false;
  ChartSpec s;
  s.kind = "bandwidth";
  s.id = "bandwidth";
  s.title = tr("Bandwidth against its limit");
  s.caption = tr("Measured GB/s beside the limit of the path: the GPU's datasheet memory bandwidth for the device copy "
              "(read + write counted), the PCIe link per direction for host transfers. The CPU's memory limit is not "
              "known to gpuscout, so it has no limit bar.");
  if (!limit_sources.empty()) s.caption += fmt::format(" Limits: {}.", fmt::join(limit_sources, "; "));
  s.height_px = std::max(220, 60 + 34 * static_cast<int>(labels.size()));
  s.config = {{"type", "bar"},
              {"data",
               {{"labels", labels},
                {"datasets",
                 ChartJson::array({{{"label", "measured"}, {"data", measured}, {"backgroundColor", "#0072B2"}},
                                   {{"label", "limit"}, {"data", limits}, {"backgroundColor", "#BBBBBB"}}})}}},
              {"options", options}};
  return s;
}

ChartSpec speedup_chart(const BenchRun& run) {
  const bench::Speedup& sp = run.result.speedup;
  const auto& cpu = sp.cpu_fp32_ms;
  const auto& gpu32 = sp.gpu_fp32_ms;
  const auto& gpu16 = sp.gpu_bf16_ms;
  const std::string title = trf("{0} x {0} fp32 matrix multiply: CPU against GPU", sp.n);
  if (!gpu32 && !gpu16) {
    std::string why = gpu_missing_reason(run.result);
    if (cpu) why += trf(". The CPU took {:.1f} ms.", *cpu);
    return empty_chart("speedup", "speedup", title, why);
  }
  if (!cpu) return empty_chart("speedup", "speedup", title, tr("No CPU fp32 time in this benchmark to compare with"));
  ChartJson labels = ChartJson::array(), data = ChartJson::array(), colors = ChartJson::array();
  labels.push_back(tr("CPU fp32"));
  data.push_back(round3(*cpu));
  colors.push_back("#999999");
  if (gpu32) {
    labels.push_back(tr("GPU fp32"));
    data.push_back(round3(*gpu32));
    colors.push_back(dtype_color("fp32"));
  }
  if (gpu16) {
    labels.push_back(tr("GPU bf16"));
    data.push_back(round3(*gpu16));
    colors.push_back(dtype_color("bf16"));
  }
  ChartJson options = base_options();
  options["plugins"]["legend"]["display"] = false;
  options["scales"] = {{"x", axis("", "category")}, {"y", axis(tr("milliseconds (log scale, lower is faster)"), "logarithmic")}};
  options["scales"]["x"]["title"]["display"] = false;
  ChartSpec s;
  s.kind = "speedup";
  s.id = "speedup";
  s.title = title;
  std::vector<std::string> parts;
  if (const auto& f = sp.fp32_speedup) parts.push_back(trf("fp32 on the GPU is {:.0f}x faster", *f));
  if (const auto& b = sp.bf16_speedup) parts.push_back(trf("bf16 on the GPU {:.0f}x", *b));
  s.caption = trf("Median time of one multiply ({}). {}.", sp.basis.empty() ? std::string(tr("measured")) : sp.basis,
                          parts.empty() ? std::string(tr("No speed-up figure")) : fmt::format("{}", fmt::join(parts, "; ")));
  s.height_px = 260;
  s.config = {{"type", "bar"},
              {"data", {{"labels", labels}, {"datasets", ChartJson::array({{{"label", "ms"}, {"data", data},
                                                                            {"backgroundColor", colors}}})}}},
              {"options", options}};
  return s;
}

std::vector<ChartSpec> compare_charts(const std::vector<BenchRun>& runs) {
  std::vector<ChartSpec> out;
  std::vector<std::string> gemm_labels;
  std::vector<std::pair<bool, std::string>> gemm_keys;  // (gpu?, dtype)
  for (const auto d : {"fp64", "fp32"}) {
    gemm_labels.push_back(fmt::format("CPU {}", d));
    gemm_keys.emplace_back(false, d);
  }
  for (const auto d : kDtypes) {
    gemm_labels.push_back(fmt::format("GPU {}", d));
    gemm_keys.emplace_back(true, std::string(d));
  }
  out.push_back(compare_bar("compare-gemm", tr("Matrix multiply, best size"), tr("TFLOP/s at the fastest size each run measured (CPU GFLOP/s / 1000; for several GPUs, the fastest)."),
                            tr("TFLOP/s (log scale)"), runs, gemm_labels,
                            [&](const BenchResult& r, size_t c) {
                              return gemm_keys[c].first ? best_gpu_tflops(r, gemm_keys[c].second)
                                                        : best_cpu_tflops(r, gemm_keys[c].second);
                            },
                            true));
  const std::vector<std::string> bw_labels = {tr("CPU memory copy"), tr("GPU memory (device copy)"), tr("host to device, pinned"),
                                              tr("device to host, pinned")};
  out.push_back(compare_bar("compare-bandwidth", tr("Bandwidth"), tr("GB/s of each run (for several GPUs, the fastest)."),
                            tr("GB/s (log scale)"), runs, bw_labels,
                            [](const BenchResult& r, size_t c) -> std::optional<double> {
                              switch (c) {
                                case 0:
                                  if (r.cpu && r.cpu->memory) return r.cpu->memory->copy_gbs;
                                  return std::nullopt;
                                case 1: return best_gpu_transfer(r, &GpuResult::copy);
                                case 2: return best_gpu_transfer(r, &GpuResult::h2d_pinned);
                                default: return best_gpu_transfer(r, &GpuResult::d2h_pinned);
                              }
                            },
                            true));
  const std::vector<std::string> t_labels = {tr("CPU fp32"), tr("GPU fp32"), tr("GPU bf16")};
  out.push_back(compare_bar("compare-speedup", tr("5000 x 5000 matrix multiply time"), tr("Milliseconds per multiply, lower is faster."),
                            tr("milliseconds (log scale)"), runs, t_labels,
                            [](const BenchResult& r, size_t c) {
                              const auto& sp = r.speedup;
                              return c == 0 ? sp.cpu_fp32_ms : c == 1 ? sp.gpu_fp32_ms : sp.gpu_bf16_ms;
                            },
                            true));
  return out;
}

ChartSpec memory_plan_chart(const GpuMemoryPlan& plan, int index) {
  struct Term {
    const char* label;
    const char* color;
    uint64_t (*bytes)(const plan::Breakdown&);
  };
  static const Term terms[] = {
      {"weights", "#0072B2", [](const plan::Breakdown& b) { return b.weights_bytes + b.adapters_bytes; }},
      {tr("KV cache"), "#56B4E9", [](const plan::Breakdown& b) { return b.kv_cache_bytes; }},
      {"activations", "#E69F00", [](const plan::Breakdown& b) { return b.activations_bytes; }},
      {"gradients", "#D55E00", [](const plan::Breakdown& b) { return b.gradients_bytes; }},
      {tr("optimizer states"), "#CC79A7",
       [](const plan::Breakdown& b) { return b.optimizer_bytes + b.optimizer_step_bytes; }},
      {tr("overhead (CUDA context, allocator)"), "#999999", [](const plan::Breakdown& b) { return b.overhead_bytes(); }},
      {tr("left free (display, driver)"), "#DDDDDD", [](const plan::Breakdown& b) { return b.kept_free_bytes; }},
  };
  const double gib = static_cast<double>(units::GiB);
  ChartJson labels = ChartJson::array();
  double largest = static_cast<double>(plan.capacity_bytes) / gib;
  for (const auto& r : plan.rows) {
    labels.push_back(r.label);
    largest = std::max(largest, static_cast<double>(r.breakdown.total_bytes()) / gib);
  }
  ChartJson datasets = ChartJson::array();
  for (const auto& t : terms) {
    ChartJson data = ChartJson::array();
    bool any = false;
    for (const auto& r : plan.rows) {
      const uint64_t b = t.bytes(r.breakdown);
      any = any || b > 0;
      data.push_back(round3(static_cast<double>(b) / gib));
    }
    if (any) datasets.push_back({{"label", t.label}, {"data", data}, {"backgroundColor", t.color}});
  }
  ChartJson options = base_options();
  options["indexAxis"] = "y";
  ChartJson x = axis(tr("GiB per GPU"));
  x["stacked"] = true;
  x["max"] = std::ceil(largest * 1.05);
  ChartJson y = axis("", "category");
  y["stacked"] = true;
  y["title"]["display"] = false;
  options["scales"] = {{"x", x}, {"y", y}};
  const double cap = static_cast<double>(plan.capacity_bytes) / gib;
  // Drawn by the page's small limit-line plugin (a Chart.js plugin using the chart's own scale).
  options["plugins"]["gsLimit"] = {{"value", round3(cap)},
                                   {"label", fmt::format("{:.1f} GiB {}", cap, plan.basis.empty() ? tr("usable") : tr(plan.basis))}};
  ChartSpec s;
  s.kind = "memory-plan";
  s.id = fmt::format("memory-plan-{}", index);
  s.title = trf("{} on GPU {} {}", plan.model, index, plan.gpu);
  s.caption = trf("What one GPU must hold for each workload, term by term (`gpuscout fit` conventions); the "
                          "vertical line is the card's {} memory, {:.1f} GiB: a bar past it does not fit.",
                          plan.basis.empty() ? tr("usable") : tr(plan.basis), cap);
  s.height_px = std::max(220, 70 + 40 * static_cast<int>(plan.rows.size()));
  s.config = {{"type", "bar"}, {"data", {{"labels", labels}, {"datasets", datasets}}}, {"options", options}};
  return s;
}

ChartSpec memory_plan_empty(const std::string& why) {
  return empty_chart("memory-plan", "memory-plan", tr("Memory plan"), why);
}

ChartSpec advice_chart(const advise::Advice& advice) {
  const std::string title = tr("Performance per price");
  if (advice.recommendations.empty())
    return empty_chart("advice", "advice", title,
                       tr("No card in the catalogue meets the memory need within the budget: raise the budget or rent "
                       "(see the rental list below)"));
  ChartJson labels = ChartJson::array(), data = ChartJson::array();
  for (const auto& r : advice.recommendations) {
    const auto mem = r.gpu && r.gpu->memory_bytes ? units::format_bytes(*r.gpu->memory_bytes) : std::string("?");
    labels.push_back(fmt::format("{} (${:.0f}, {})", r.gpu ? r.gpu->name : std::string("?"), r.price_usd, mem));
    data.push_back(round3(r.score));
  }
  const std::string metric = advice.recommendations.front().metric_name;
  ChartJson options = base_options();
  options["indexAxis"] = "y";
  options["plugins"]["legend"]["display"] = false;
  options["scales"] = {{"x", axis(trf("{} per 1000 USD", metric))}, {"y", axis("", "category")}};
  options["scales"]["y"]["title"]["display"] = false;
  ChartSpec s;
  s.kind = "advice";
  s.id = "advice";
  s.title = title;
  s.caption = trf("{} per 1000 USD of the best-ranked cards{} with at least {} of memory (catalogue {}).",
                          metric,
                          advice.budget_usd ? trf(" within {:.0f} USD", *advice.budget_usd) : std::string(),
                          units::format_bytes(advice.need_bytes), advice.catalogue_date);
  s.height_px = std::max(200, 60 + 36 * static_cast<int>(labels.size()));
  s.config = {{"type", "bar"},
              {"data", {{"labels", labels},
                        {"datasets", ChartJson::array({{{"label", trf("{} per 1000 USD", metric)}, {"data", data},
                                                        {"backgroundColor", "#009E73"}}})}}},
              {"options", options}};
  return s;
}

}  // namespace gpuscout::report
