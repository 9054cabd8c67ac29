#include "bench/report.hpp"

#include "bench/nvml_sampler.hpp"

#include <map>
#include <tuple>

#include <fmt/format.h>

#include "core/i18n.hpp"

#include "core/text.hpp"
#include "core/units.hpp"

namespace gpuscout::bench {
namespace {

using OJ = nlohmann::ordered_json;

template <typename T>
OJ opt(const std::optional<T>& v) {
  return v ? OJ(*v) : OJ(nullptr);
}

OJ measurement_json(const Measurement& m) {
  OJ j;
  j["warmups"] = m.warmups;
  j["first_call_s"] = m.first_call_s;
  j["repeats"] = m.samples_s.size();
  j["seconds_median"] = m.stats.median_s;
  j["seconds_min"] = m.stats.min_s;
  j["seconds_max"] = m.stats.max_s;
  j["spread_pct"] = m.stats.spread_pct;
  j["samples_s"] = m.samples_s;
  return j;
}

OJ torch_case_json(const TorchCase& c) {
  OJ j;
  j["device"] = c.device;
  j["dtype"] = dtype_name(c.dtype);
  j["n"] = c.n;
  j["gflops"] = c.gflops;
  j["rel_error"] = opt(c.rel_error);
  j["rel_error_bound"] = rel_error_bound(c.dtype);
  j["ok"] = c.ok;
  j["error"] = c.error;
  j["skipped"] = c.skipped;
  j["native_gflops"] = opt(c.native_gflops);
  j["peak_gflops"] = opt(c.peak_gflops);
  j["of_native"] = opt(c.of_native);
  j["of_peak"] = opt(c.of_peak);
  j["measurement"] = measurement_json(c.m);
  return j;
}

OJ peak_json(const PeakResult& p) {
  OJ j;
  j["isa"] = isa_name(p.isa);
  j["threads"] = p.threads;
  j["single_core_gflops"] = p.single_core_gflops;
  j["all_cores_gflops"] = p.all_cores_gflops;
  j["computed_gflops"] = opt(p.computed_gflops);
  j["computed_from"] = p.computed_from;
  OJ per = OJ::object();
  for (const auto& i : p.per_isa) per[std::string(isa_name(i.isa))] = i.single_core_gflops;
  j["single_core_gflops_by_isa"] = per;
  j["all_cores"] = measurement_json(p.all_cores);
  return j;
}

OJ transfer_json(const std::optional<TransferRecord>& t) {
  if (!t) return nullptr;
  OJ j;
  j["status"] = status_name(t->status);
  j["size_bytes"] = t->size_bytes;
  j["gbs"] = t->gbs;
  j["verified"] = t->verified;
  j["note"] = t->note;
  j["measurement"] = measurement_json(t->m);
  return j;
}

OJ gbs_or_null(const std::optional<TransferRecord>& t) {
  return t && t->status == 0 ? OJ(t->gbs) : OJ(nullptr);
}

std::string fmt_opt(const std::optional<double>& v, const char* f) {
  return v ? fmt::format(fmt::runtime(f), *v) : std::string("-");
}

OJ cpu_gemm_json(const CpuGemmRecord& g) {
  OJ e;
  e["dtype"] = dtype_name(g.run.dtype);
  e["n"] = g.run.n;
  e["gflops"] = g.run.gflops;
  e["seconds_median"] = g.run.m.stats.median_s;
  e["rel_error"] = g.run.rel_error;
  e["rel_error_bound"] = rel_error_bound(g.run.dtype);
  e["checked"] = g.run.checked;
  e["ok"] = g.run.ok;
  e["efficiency"] = opt(g.efficiency);
  e["measurement"] = measurement_json(g.run.m);
  return e;
}

OJ cpu_json(const CpuResult& c) {
  OJ cj;
  cj["model"] = c.facts.model;
  cj["threads"] = c.threads;
  cj["physical_cores"] = c.facts.physical_cores;
  cj["logical_cpus"] = c.facts.logical_cpus;
  cj["clock_mhz"] = opt(c.facts.max_mhz);
  cj["clock_source"] = c.facts.clock_source;
  OJ isas = OJ::array();
  for (Isa i : c.facts.isas) isas.push_back(isa_name(i));
  cj["isas"] = isas;
  cj["blas"] = {{"name", c.blas.name}, {"config", c.blas.config}, {"corename", c.blas.corename},
                {"bf16", c.blas.has_bf16}, {"threads", c.threads}};
  if (c.kernel_rerun) {
    OJ rerun_gemm = OJ::array();
    for (const auto& g : c.kernel_rerun->gemm) rerun_gemm.push_back(cpu_gemm_json(g));
    cj["kernel_rerun"] = {{"coretype", c.kernel_rerun->coretype}, {"corename", c.kernel_rerun->corename},
                          {"gemm", rerun_gemm}, {"error", c.kernel_rerun->error}};
  } else {
    cj["kernel_rerun"] = nullptr;
  }
  cj["peak_gflops"] = {{"fp32", c.peak_fp32 ? OJ(c.peak_fp32->all_cores_gflops) : OJ(nullptr)},
                       {"fp64", c.peak_fp64 ? OJ(c.peak_fp64->all_cores_gflops) : OJ(nullptr)}};
  OJ peak;
  peak["fp32"] = c.peak_fp32 ? peak_json(*c.peak_fp32) : OJ(nullptr);
  peak["fp64"] = c.peak_fp64 ? peak_json(*c.peak_fp64) : OJ(nullptr);
  cj["peak"] = peak;
  OJ gemm = OJ::array();
  for (const auto& g : c.gemm) gemm.push_back(cpu_gemm_json(g));
  cj["gemm"] = gemm;
  if (c.memory) {
    cj["memory_gbs"] = {{"copy", c.memory->copy_gbs}, {"triad", c.memory->triad_gbs}};
    cj["memory"] = {{"array_bytes", c.memory->array_bytes}, {"threads", c.memory->threads},
                    {"verified", c.memory->verified}, {"copy", measurement_json(c.memory->copy)},
                    {"triad", measurement_json(c.memory->triad)}};
  } else {
    cj["memory_gbs"] = nullptr;
  }
  cj["notes"] = c.notes;
  return cj;
}

OJ gpu_gemm_json(const GpuGemmRecord& e) {
  OJ ej;
  ej["dtype"] = dtype_name(e.dtype);
  ej["n"] = e.n;
  ej["status"] = status_name(e.status);
  ej["tflops"] = e.tflops;
  ej["seconds_median"] = e.m.stats.median_s;
  ej["rel_error"] = e.rel_error;
  ej["rel_error_bound"] = rel_error_bound(e.dtype);
  ej["checked"] = e.checked;
  ej["ok"] = e.ok;
  ej["peak_datasheet_tflops"] = opt(e.peak_datasheet_tflops);
  ej["peak_computed_tflops"] = opt(e.peak_computed_tflops);
  ej["efficiency"] = opt(e.efficiency);
  ej["sm_clock_mhz_median"] = opt(e.sm_clock_mhz_median);
  ej["note"] = e.note;
  ej["measurement"] = measurement_json(e.m);
  return ej;
}

OJ gpu_telemetry_json(const GpuTelemetry& t) {
  return {{"samples", t.samples},
          {"sm_clock_mhz_min", opt(t.sm_clock_mhz_min)},
          {"sm_clock_mhz_max", opt(t.sm_clock_mhz_max)},
          {"power_w_max", opt(t.power_w_max)},
          {"power_method", t.power_method.empty() ? OJ(nullptr) : OJ(t.power_method)},
          {"power_limit_w", opt(t.power_limit_w)},
          {"temperature_c_max", opt(t.temperature_c_max)},
          {"throttle_reasons", throttle_reason_names(t.throttle_reasons)}};
}

OJ gpu_json(const GpuResult& g) {
  OJ gj;
  gj["index"] = g.index;
  gj["name"] = g.name;
  gj["pci_bus_id"] = g.pci_bus_id;
  gj["compute_capability"] = g.compute_capability;
  gj["sm_count"] = g.sm_count;
  gj["clock_sm_mhz_max"] = g.clock_sm_mhz_max;
  gj["memory_total_bytes"] = g.memory_total_bytes;
  gj["memory_free_bytes"] = g.memory_free_bytes;
  gj["l2_bytes"] = g.l2_bytes;
  gj["versions"] = {{"driver_cuda", g.driver_cuda_version}, {"runtime", g.runtime_version}, {"cublas", g.cublas_version}};
  gj["catalog_name"] = opt(g.catalog_name);
  OJ gemm = OJ::array();
  for (const auto& e : g.gemm) gemm.push_back(gpu_gemm_json(e));
  gj["gemm"] = gemm;
  gj["copy_gbs"] = gbs_or_null(g.copy);
  gj["memory_bandwidth_gbs_datasheet"] = opt(g.memory_bandwidth_gbs);
  gj["h2d_gbs"] = {{"pinned", gbs_or_null(g.h2d_pinned)}, {"pageable", gbs_or_null(g.h2d_pageable)}};
  gj["d2h_gbs"] = {{"pinned", gbs_or_null(g.d2h_pinned)}, {"pageable", gbs_or_null(g.d2h_pageable)}};
  gj["transfers"] = {{"d2d", transfer_json(g.copy)},           {"h2d_pinned", transfer_json(g.h2d_pinned)},
                     {"h2d_pageable", transfer_json(g.h2d_pageable)}, {"d2h_pinned", transfer_json(g.d2h_pinned)},
                     {"d2h_pageable", transfer_json(g.d2h_pageable)}};
  const auto& t = g.telemetry;
  gj["pcie"] = {{"gen_under_load", opt(t.pcie_gen_under_load)}, {"width_under_load", opt(t.pcie_width_under_load)},
                {"gen_max", opt(t.pcie_gen_max)},     {"gpu_gen_max", opt(t.pcie_gpu_gen_max)},
                {"width_max", opt(t.pcie_width_max)}, {"expected_gbs", opt(g.pcie_expected_gbs)},
                {"below_max", g.pcie_below_max}};
  gj["throttled"] = g.throttled;
  gj["power_capped"] = g.power_capped;
  gj["host_cpus_bound"] = g.host_cpus_bound;
  gj["telemetry"] = gpu_telemetry_json(t);
  gj["notes"] = g.notes;
  return gj;
}

OJ speedup_json(const Speedup& s) {
  return {{"n", s.n},
          {"cpu_fp32_ms", opt(s.cpu_fp32_ms)},
          {"gpu_fp32_ms", opt(s.gpu_fp32_ms)},
          {"gpu_bf16_ms", opt(s.gpu_bf16_ms)},
          {"fp32", opt(s.fp32_speedup)},
          {"bf16_vs_cpu_fp32", opt(s.bf16_speedup)},
          {"eight_cpu_hours_in_gpu_minutes", opt(s.eight_hours_minutes)},
          {"transfer_ms", opt(s.transfer_ms)},
          {"gpu_fp32_with_transfers_ms", opt(s.gpu_fp32_with_transfers_ms)},
          {"fp32_with_transfers", opt(s.fp32_with_transfers_speedup)},
          {"estimate_gpu", opt(s.estimate_gpu)},
          {"estimate_gpu_fp32_ms", opt(s.estimate_gpu_fp32_ms)},
          {"estimate_fp32_speedup", opt(s.estimate_fp32_speedup)},
          {"basis", s.basis},
          {"cpu_openblas_coretype", s.cpu_coretype}};
}

using Lines = std::string;
void line(Lines& o, const std::string& s) { o += s + "\n"; }

void cpu_text(const CpuResult& c, Lines& o) {
  line(o, "");
  // OpenBLAS names the kernels it picked for this CPU (openblas_get_corename): "core Cooperlake".
  line(o, trf("CPU  {}  ({} cores used, {} logical CPUs; {}{})", c.facts.model.empty() ? "?" : c.facts.model,
              c.threads, c.facts.logical_cpus, c.blas.name,
              c.blas.corename.empty() ? std::string() : " " + trf("core {}", c.blas.corename)));
  for (const auto* p : {&c.peak_fp32, &c.peak_fp64}) {
    if (!*p) continue;
    const auto& pk = **p;
    line(o, trf("  FMA peak {}: {:.1f} GFLOP/s all cores, {:.1f} one core ({}); computed {} GFLOP/s",
                        pk.precision == Precision::fp32 ? "fp32" : "fp64", pk.all_cores_gflops, pk.single_core_gflops,
                        isa_name(pk.isa), fmt_opt(pk.computed_gflops, "{:.1f}")));
  }
  if (c.peak_fp32 && c.peak_fp32->computed_gflops) line(o, trf("    computed from {}", c.peak_fp32->computed_from));
  line(o, tr("  GEMM        n     GFLOP/s   median      spread  first call  vs peak  check"));
  for (const auto& g : c.gemm) {
    line(o, fmt::format("  {:<5} {:>6}  {:>9.1f}  {:>9.2f} ms  {:>5.1f}%  {:>8.2f} ms  {:>7}  {} ({:.1e})",
                        dtype_name(g.run.dtype), g.run.n, g.run.gflops, g.run.m.stats.median_s * 1e3,
                        g.run.m.stats.spread_pct, g.run.m.first_call_s * 1e3,
                        g.efficiency ? fmt::format("{:.0f}%", *g.efficiency * 100) : "-", g.run.ok ? tr("ok") : tr("WRONG"),
                        g.run.rel_error));
  }
  if (c.kernel_rerun)
    for (const auto& g : c.kernel_rerun->gemm)
      line(o, fmt::format("  {:<5} {:>6}  {:>9.1f}  {:>9.2f} ms  {:>5.1f}%  {:>8.2f} ms  {:>7}  {} ({:.1e})  {}",
                          dtype_name(g.run.dtype), g.run.n, g.run.gflops, g.run.m.stats.median_s * 1e3,
                          g.run.m.stats.spread_pct, g.run.m.first_call_s * 1e3,
                          g.efficiency ? fmt::format("{:.0f}%", *g.efficiency * 100) : "-",
                          g.run.ok ? tr("ok") : tr("WRONG"), g.run.rel_error,
                          "OPENBLAS_CORETYPE=" + c.kernel_rerun->coretype));
  if (c.memory)
    line(o, trf("  memory: copy {:.1f} GB/s, triad {:.1f} GB/s ({} arrays, {} threads)", c.memory->copy_gbs,
                        c.memory->triad_gbs, units::format_bytes(c.memory->array_bytes), c.memory->threads));
  for (const auto& n : c.notes) line(o, "  note: " + n);
}

std::string gbs_text(const std::optional<TransferRecord>& t) {
  return t && t->status == 0 ? fmt::format("{:.1f}", t->gbs) : std::string("-");
}

void gpu_text(const GpuResult& g, Lines& o) {
  line(o, trf("GPU {}  {}  (cc {}, {} SMs, {} {}, CUDA driver {}, cuBLAS {})", g.index, g.name,
                      g.compute_capability, g.sm_count, g.pci_bus_id, units::format_bytes(g.memory_total_bytes),
                      g.driver_cuda_version, g.cublas_version));
  line(o, tr("  GEMM        n     TFLOP/s   median     spread  first call  datasheet  computed  eff.  check"));
  for (const auto& e : g.gemm) {
    if (e.status != 0) {
      line(o, fmt::format("  {:<5} {:>6}  {}", dtype_name(e.dtype), e.n, e.note.empty() ? tr("not run") : e.note));
      continue;
    }
    line(o, fmt::format("  {:<5} {:>6}  {:>9.1f}  {:>8.3f} ms  {:>5.1f}%  {:>8.1f} ms  {:>9}  {:>8}  {:>4}  {}{}",
                        dtype_name(e.dtype), e.n, e.tflops, e.m.stats.median_s * 1e3, e.m.stats.spread_pct,
                        e.m.first_call_s * 1e3, fmt_opt(e.peak_datasheet_tflops, "{:.1f}"),
                        fmt_opt(e.peak_computed_tflops, "{:.1f}"),
                        e.efficiency ? fmt::format("{:.0f}%", *e.efficiency * 100) : "-", e.ok ? tr("ok") : tr("WRONG"),
                        e.note.empty() ? "" : "  (" + e.note + ")"));
  }
  line(o, trf("  device copy {} GB/s (read+write; datasheet {} GB/s)", gbs_text(g.copy),
                      fmt_opt(g.memory_bandwidth_gbs, "{:.0f}")));
  line(o, trf("  host->device {} GB/s pinned, {} pageable; device->host {} pinned, {} pageable",
                      gbs_text(g.h2d_pinned), gbs_text(g.h2d_pageable), gbs_text(g.d2h_pinned),
                      gbs_text(g.d2h_pageable)));
  const auto& t = g.telemetry;
  if (t.pcie_gen_under_load)
    line(o, trf("  PCIe under load: gen {} x{} (max gen {} x{}), ~{} GB/s per direction",
                        *t.pcie_gen_under_load, t.pcie_width_under_load.value_or(0),
                        t.pcie_gpu_gen_max.value_or(t.pcie_gen_max.value_or(0)), t.pcie_width_max.value_or(0),
                        fmt_opt(g.pcie_expected_gbs, "{:.1f}")));
  if (t.samples > 0)
    line(o, trf("  during GEMM: SM clock {}-{} MHz, power max {} W (limit {}), temperature max {} C{}",
                        t.sm_clock_mhz_min.value_or(0), t.sm_clock_mhz_max.value_or(0),
                        fmt_opt(t.power_w_max, "{:.0f}"), fmt_opt(t.power_limit_w, "{:.0f}"),
                        t.temperature_c_max.value_or(0),
                        g.throttled ? ", THROTTLED" : (g.power_capped ? tr(", at the power limit") : "")));
  for (const auto& n : g.notes) line(o, "  note: " + n);
}

void estimate_text(const Speedup& s, Lines& o) {
  if (!s.estimate_gpu_fp32_ms) return;
  line(o, trf("No GPU measured. Estimate: on a {} (the free GPU of Colab and Kaggle) the {} x {} fp32 matmul "
                      "takes at least {:.1f} ms at its datasheet peak{}; a real run is somewhat slower.",
                      s.estimate_gpu.value_or("GPU"), s.n, s.n, *s.estimate_gpu_fp32_ms,
                      s.estimate_fp32_speedup ? trf(", about {:.0f} x this CPU", *s.estimate_fp32_speedup)
                                              : std::string()));
}

void speedup_text(const Speedup& s, Lines& o) {
  if (!s.cpu_fp32_ms && !s.gpu_fp32_ms) return estimate_text(s, o);
  line(o, "");
  std::string sum = trf("{0} x {0} fp32 matmul: CPU {1} ms, GPU {2}", s.n, fmt_opt(s.cpu_fp32_ms, "{:.1f}"),
                                s.gpu_fp32_ms ? fmt::format("{:.2f} ms", *s.gpu_fp32_ms) : tr("not measured"));
  if (s.fp32_speedup) sum += fmt::format(", speed-up {:.0f} x", *s.fp32_speedup);
  if (s.bf16_speedup) sum += trf("; at bf16 the GPU does {:.0f} x", *s.bf16_speedup);
  line(o, sum + " (" + s.basis + ")");
  if (s.gpu_fp32_with_transfers_ms)
    line(o, trf("With the copies to the GPU and back ({:.1f} ms for the three matrices), the GPU takes {:.1f} ms{}",
                        s.transfer_ms.value_or(0), *s.gpu_fp32_with_transfers_ms,
                        s.fp32_with_transfers_speedup ? fmt::format(": speed-up {:.0f} x", *s.fp32_with_transfers_speedup)
                                                      : std::string()));
  if (s.eight_hours_minutes)
    line(o, trf("For GEMM-bound work, a job that takes 8 hours on this CPU takes about {} on the GPU.",
                        *s.eight_hours_minutes < 1.5 ? fmt::format("{:.0f} seconds", *s.eight_hours_minutes * 60)
                                                     : fmt::format("{:.0f} minutes", *s.eight_hours_minutes)));
  estimate_text(s, o);
}

}  // namespace

nlohmann::ordered_json torch_json(const TorchBench& t) {
  OJ j;
  j["python"] = t.python;
  j["version"] = opt(t.version);
  j["cuda"] = opt(t.cuda);
  j["debug"] = opt(t.debug);
  j["num_threads"] = opt(t.num_threads);
  j["usable_cpus"] = opt(t.usable_cpus);
  j["blas"] = opt(t.blas);
  j["cpu_capability"] = opt(t.cpu_capability);
  j["allow_tf32_default"] = opt(t.allow_tf32_default);
  j["seconds"] = t.seconds;
  j["timed_out"] = t.timed_out;
  j["error"] = t.error;
  OJ cases = OJ::array();
  for (const auto& c : t.cases) cases.push_back(torch_case_json(c));
  j["cases"] = cases;
  OJ findings = OJ::array();
  for (const auto& f : t.findings)
    findings.push_back({{"code", f.code}, {"severity", f.severity}, {"message", f.message}, {"fix", f.fix}});
  j["findings"] = findings;
  return j;
}

OJ nccl_json(const NcclResult& n) {
  OJ sizes = OJ::array();
  for (const auto& s : n.sizes)
    sizes.push_back({{"status", status_name(s.status)}, {"size_bytes", s.size_bytes}, {"algbw_gbs", s.algbw_gbs},
                     {"busbw_gbs", s.busbw_gbs}, {"verified", s.verified}, {"measurement", measurement_json(s.m)},
                     {"note", s.note}});
  return {{"ranks", n.ranks}, {"nccl_version", n.nccl_version}, {"status", n.status}, {"sizes", sizes},
          {"notes", n.notes}};
}

void nccl_text(const NcclResult& n, Lines& o) {
  if (!n.status.empty()) {
    line(o, trf("NCCL all-reduce  {}", n.status));
    return;
  }
  line(o, trf("NCCL {} all-reduce over {} GPUs (float32 sum; bus bandwidth as nccl-tests defines it)", n.nccl_version,
              n.ranks));
  line(o, tr("  size        median   algbw GB/s  busbw GB/s  check"));
  for (const auto& s : n.sizes) {
    if (s.status != 0) {
      line(o, fmt::format("  {:>4} MiB  {}", s.size_bytes >> 20, s.note.empty() ? tr("not run") : s.note));
      continue;
    }
    line(o, fmt::format("  {:>4} MiB  {:>8.3f} ms  {:>10.1f}  {:>10.1f}  {}{}", s.size_bytes >> 20,
                        s.m.stats.median_s * 1e3, s.algbw_gbs, s.busbw_gbs, s.verified ? "ok" : "WRONG",
                        s.note.empty() ? "" : "  (" + s.note + ")"));
  }
  for (const auto& note : n.notes) line(o, "  note: " + note);
}

nlohmann::ordered_json to_json(const BenchResult& r) {
  OJ j;
  j["schema"] = r.schema;
  j["gpuscout_version"] = r.gpuscout_version;
  j["collected_at"] = r.collected_at;
  j["mode"] = r.mode;
  j["device"] = r.device;
  j["cpu"] = r.cpu ? cpu_json(*r.cpu) : OJ(nullptr);
  j["gpu_status"] = {{"requested", r.gpu_status.requested}, {"available", r.gpu_status.available},
                     {"plugin", opt(r.gpu_status.plugin_path)}, {"plugin_version", r.gpu_status.plugin_version},
                     {"message", r.gpu_status.message}};
  OJ gpus = OJ::array();
  for (const auto& g : r.gpus) gpus.push_back(gpu_json(g));
  j["gpus"] = gpus;
  j["speedup"] = speedup_json(r.speedup);
  j["torch"] = r.torch ? torch_json(*r.torch) : OJ(nullptr);
  // Only with --nccl: a saved file from before the step reads back as written.
  if (r.nccl) j["nccl"] = nccl_json(*r.nccl);
  j["notes"] = r.notes;
  return j;
}

std::string render_text(const BenchResult& r) {
  std::string o;
  line(o, trf("gpuscout bench ({}), {}", r.mode, r.collected_at));
  if (r.cpu) cpu_text(*r.cpu, o);
  line(o, "");
  if (r.gpu_status.requested && !r.gpu_status.available) line(o, "GPU  " + r.gpu_status.message);
  for (const auto& g : r.gpus) gpu_text(g, o);
  if (r.nccl) nccl_text(*r.nccl, o);
  speedup_text(r.speedup, o);
  if (r.torch) torch_text(*r.torch, o);
  for (const auto& n : r.notes)
    if (n.rfind("GPU: ", 0) != 0) line(o, "note: " + n);
  return o;
}

namespace {
using Figures = std::vector<std::tuple<std::string, std::string, double>>;

void cpu_figures(const CpuResult& c, Figures& out) {
  for (const auto* p : {&c.peak_fp32, &c.peak_fp64})
    if (*p) out.emplace_back(fmt::format("CPU FMA peak {}", (*p)->precision == Precision::fp32 ? "fp32" : "fp64"),
                             "GFLOP/s", (*p)->all_cores_gflops);
  for (const auto& g : c.gemm)
    out.emplace_back(fmt::format("CPU GEMM {} n={}", dtype_name(g.run.dtype), g.run.n), "GFLOP/s", g.run.gflops);
  if (c.memory) {
    out.emplace_back(N_("CPU memory copy"), "GB/s", c.memory->copy_gbs);
    out.emplace_back(N_("CPU memory triad"), "GB/s", c.memory->triad_gbs);
  }
}

void torch_figures(const TorchBench& t, Figures& out) {
  for (const auto& c : t.cases)
    if (c.ok)
      out.emplace_back(fmt::format("PyTorch {} {} n={}", c.device, dtype_name(c.dtype), c.n), "GFLOP/s", c.gflops);
}

void gpu_figures(const GpuResult& g, Figures& out) {
  const std::string p = fmt::format("GPU {}", g.index);
  for (const auto& e : g.gemm)
    if (e.status == 0) out.emplace_back(fmt::format("{} GEMM {} n={}", p, dtype_name(e.dtype), e.n), "TFLOP/s", e.tflops);
  auto transfer = [&](const std::optional<TransferRecord>& t, const std::string& label) {
    if (t && t->status == 0) out.emplace_back(label, "GB/s", t->gbs);
  };
  transfer(g.copy, p + " device copy");
  transfer(g.h2d_pinned, p + " host->device pinned");
  transfer(g.h2d_pageable, p + " host->device pageable");
  transfer(g.d2h_pinned, p + " device->host pinned");
  transfer(g.d2h_pageable, p + " device->host pageable");
}

// The figures worth comparing as label -> (value, unit), in document order.
Figures figures(const BenchResult& r) {
  Figures out;
  if (r.cpu) cpu_figures(*r.cpu, out);
  for (const auto& g : r.gpus) gpu_figures(g, out);
  if (r.torch) torch_figures(*r.torch, out);
  return out;
}

std::string machine_name(const BenchResult& r) {
  std::vector<std::string> parts;
  if (r.cpu) parts.push_back(r.cpu->facts.model);
  for (const auto& g : r.gpus) parts.push_back(g.name);
  return text::join(parts, " + ");
}
}  // namespace

nlohmann::ordered_json compare_json(const BenchResult& a, const BenchResult& b, const std::string& name_a,
                                    const std::string& name_b) {
  OJ j;
  j["schema"] = "gpuscout.bench-compare/1";
  j["a"] = {{"file", name_a}, {"machine", machine_name(a)}, {"collected_at", a.collected_at}};
  j["b"] = {{"file", name_b}, {"machine", machine_name(b)}, {"collected_at", b.collected_at}};
  const auto fa = figures(a), fb = figures(b);
  std::map<std::string, double> bmap;
  for (const auto& [label, unit, v] : fb) bmap[label] = v;
  OJ rows = OJ::array();
  std::map<std::string, bool> seen;
  for (const auto& [label, unit, v] : fa) {
    OJ row{{"label", label}, {"unit", unit}, {"a", v}};
    auto it = bmap.find(label);
    row["b"] = it != bmap.end() ? OJ(it->second) : OJ(nullptr);
    row["ratio_b_over_a"] = it != bmap.end() && v > 0 ? OJ(it->second / v) : OJ(nullptr);
    rows.push_back(row);
    seen[label] = true;
  }
  for (const auto& [label, unit, v] : fb)
    if (!seen.count(label)) rows.push_back({{"label", label}, {"unit", unit}, {"a", nullptr}, {"b", v}, {"ratio_b_over_a", nullptr}});
  j["rows"] = rows;
  return j;
}

std::string render_compare(const nlohmann::ordered_json& c) {
  std::string o;
  o += fmt::format("A: {} ({}, {})\n", c["a"]["machine"].get<std::string>(), c["a"]["file"].get<std::string>(),
                   c["a"]["collected_at"].get<std::string>());
  o += fmt::format("B: {} ({}, {})\n\n", c["b"]["machine"].get<std::string>(), c["b"]["file"].get<std::string>(),
                   c["b"]["collected_at"].get<std::string>());
  o += fmt::format("{:<34} {:>12} {:>12} {:>9}\n", "", "A", "B", "B / A");
  for (const auto& row : c["rows"]) {
    auto cell = [](const OJ& v) { return v.is_number() ? fmt::format("{:.1f}", v.get<double>()) : std::string("-"); };
    const std::string ratio = row["ratio_b_over_a"].is_number() ? fmt::format("{:.2f} x", row["ratio_b_over_a"].get<double>()) : "-";
    const std::string label = row["label"].get<std::string>();
    o += fmt::format("{:<34} {:>12} {:>12} {:>9}  {}\n", tr(label), cell(row["a"]), cell(row["b"]),
                     ratio, row["unit"].get<std::string>());
  }
  return o;
}

}  // namespace gpuscout::bench
