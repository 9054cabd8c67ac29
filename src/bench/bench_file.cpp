// The one reader of saved bench files (`bench --save`, the last-bench state): bench --compare and report --bench and
// --compare all go through it. A saved file is another person's, or an old or damaged one: every field is checked for
// its type and range as it is read, and the first wrong one is named with its path ("gpus[0].gemm[2].tflops"). A
// field that is absent takes its default (files from older versions lack some); a wrong one is an error, never a gap
// that a chart would silently skip.
#include <cmath>
#include <limits>
#include <tuple>

#include <fmt/format.h>

#include "bench/nvml_sampler.hpp"
#include "bench/report.hpp"
#include "core/json_position.hpp"
#include "core/text.hpp"
#include "core/user_file.hpp"

namespace gpuscout::bench {
namespace {

using nlohmann::json;

struct FieldError {
  std::string message;
};

std::string_view kind_of(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "true or false";
    case json::value_t::string: return "a string";
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    case json::value_t::number_float: return "a fractional number";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return "a whole number";
    default: return "something else";
  }
}

[[noreturn]] void wrong_at(const std::string& path, std::string_view expected, const json& v) {
  throw FieldError{fmt::format("field {}: expected {}, got {}", path.empty() ? "(the document)" : path, expected,
                               v.is_number() ? v.dump() : std::string(kind_of(v)))};
}

/// One JSON object being read, with its path from the document's root for the error message.
class Obj {
 public:
  Obj(const json& j, std::string path) : j_(j), path_(std::move(path)) {
    if (!j_.is_object()) wrong("", "an object", j_);
  }

  std::string at(std::string_view key) const { return path_.empty() ? std::string(key) : path_ + "." + std::string(key); }
  [[noreturn]] void wrong(std::string_view key, std::string_view expected, const json& v) const {
    wrong_at(key.empty() ? path_ : at(key), expected, v);
  }
  /// The value under key; nullptr when the key is absent (or null, where `null_is_absent`).
  const json* find(std::string_view key, bool null_is_absent = false) const {
    const auto it = j_.find(key);
    if (it == j_.end() || (null_is_absent && it->is_null())) return nullptr;
    return &*it;
  }

  std::string str(std::string_view key) const {
    const json* v = find(key);
    if (!v) return {};
    if (!v->is_string()) wrong(key, "a string", *v);
    return text::clean_utf8(v->get_ref<const std::string&>());
  }
  std::optional<std::string> opt_str(std::string_view key) const {
    if (!find(key, true)) return std::nullopt;
    return str(key);
  }
  bool flag(std::string_view key) const {
    const json* v = find(key);
    if (!v) return false;
    if (!v->is_boolean()) wrong(key, "true or false", *v);
    return v->get<bool>();
  }
  /// Every rate, time, ratio and power in a bench file is a finite number, never below zero.
  double num(std::string_view key) const { return opt_num(key).value_or(0.0); }
  std::optional<double> opt_num(std::string_view key) const {
    const json* v = find(key, true);
    if (!v) return std::nullopt;
    if (!v->is_number()) wrong(key, "a number", *v);
    const double d = v->get<double>();
    if (!std::isfinite(d) || d < 0) wrong(key, "a number not below 0", *v);
    return d;
  }
  /// Counts, sizes, clocks and indexes: whole numbers from 0 to `max`.
  uint64_t whole(std::string_view key, uint64_t max = std::numeric_limits<uint64_t>::max()) const {
    const json* v = find(key, true);
    if (!v) return 0;
    if (!v->is_number_unsigned() && !(v->is_number_integer() && v->get<int64_t>() >= 0))
      wrong(key, "a whole number not below 0", *v);
    const auto n = v->get<uint64_t>();
    if (n > max) wrong(key, fmt::format("a whole number at most {}", max), *v);
    return n;
  }
  int integer(std::string_view key) const {
    return static_cast<int>(whole(key, static_cast<uint64_t>(std::numeric_limits<int>::max())));
  }
  std::optional<int> opt_int(std::string_view key) const {
    if (!find(key, true)) return std::nullopt;
    return integer(key);
  }
  /// The object under key; nullopt when absent or null.
  std::optional<Obj> obj(std::string_view key) const {
    const json* v = find(key, true);
    if (!v) return std::nullopt;
    if (!v->is_object()) wrong(key, "an object", *v);
    return Obj(*v, at(key));
  }
  /// Each element of the array under key (absent: none), read by `read(element_json, element_path)`.
  template <typename F>
  void each(std::string_view key, F read) const {
    const json* v = find(key, true);
    if (!v) return;
    if (!v->is_array()) wrong(key, "an array", *v);
    for (size_t i = 0; i < v->size(); ++i) read((*v)[i], fmt::format("{}[{}]", at(key), i));
  }
  std::vector<std::string> strings(std::string_view key) const {
    std::vector<std::string> out;
    each(key, [&](const json& e, const std::string& path) {
      if (!e.is_string()) wrong_at(path, "a string", e);
      out.push_back(text::clean_utf8(e.get_ref<const std::string&>()));
    });
    return out;
  }
  /// A name from a closed list (a precision, an instruction set), turned into its value by `parse`.
  template <typename T, typename Parse>
  T named(std::string_view key, T fallback, std::string_view what, Parse parse) const {
    if (!find(key, true)) return fallback;
    const std::string name = str(key);
    const std::optional<T> value = parse(name);
    if (!value) throw FieldError{fmt::format("field {}: '{}' is not a known {}", at(key), name, what)};
    return *value;
  }

 private:
  const json& j_;
  std::string path_;
};

std::optional<Dtype> dtype_of(std::string_view name) { return parse_dtype(name); }

std::optional<Isa> isa_of(std::string_view name) {
  for (Isa i : {Isa::scalar, Isa::sse2, Isa::avx2_fma, Isa::avx512f})
    if (isa_name(i) == name) return i;
  return std::nullopt;
}

std::optional<int> status_of(std::string_view name) {
  for (int s : {0, 1, 2})
    if (status_name(s) == name) return s;
  return std::nullopt;
}

/// The inverse of throttle_reason_names, one bit at a time, so the names stay written in one place.
std::optional<uint64_t> throttle_bit(std::string_view name) {
  for (int b = 0; b < 64; ++b) {
    const auto names = throttle_reason_names(uint64_t{1} << b);
    if (names.size() == 1 && names.front() == name) return uint64_t{1} << b;
  }
  return std::nullopt;
}

Measurement read_measurement(const std::optional<Obj>& o) {
  Measurement m;
  if (!o) return m;
  m.warmups = o->integer("warmups");
  m.first_call_s = o->num("first_call_s");
  o->each("samples_s", [&](const json& e, const std::string& path) {
    if (!e.is_number() || !std::isfinite(e.get<double>()) || e.get<double>() < 0)
      wrong_at(path, "a number not below 0", e);
    m.samples_s.push_back(e.get<double>());
  });
  m.stats.median_s = o->num("seconds_median");
  m.stats.min_s = o->num("seconds_min");
  m.stats.max_s = o->num("seconds_max");
  m.stats.spread_pct = o->num("spread_pct");
  return m;
}

std::optional<PeakResult> read_peak(const Obj& peaks, std::string_view key, Precision precision) {
  const auto o = peaks.obj(key);
  if (!o) return std::nullopt;
  PeakResult p;
  p.precision = precision;
  p.isa = o->named("isa", Isa::scalar, "instruction set", isa_of);
  p.threads = o->integer("threads");
  p.single_core_gflops = o->num("single_core_gflops");
  p.all_cores_gflops = o->num("all_cores_gflops");
  p.computed_gflops = o->opt_num("computed_gflops");
  p.computed_from = o->str("computed_from");
  if (const auto per = o->obj("single_core_gflops_by_isa")) {
    for (Isa i : {Isa::scalar, Isa::sse2, Isa::avx2_fma, Isa::avx512f})
      if (const auto v = per->opt_num(isa_name(i))) p.per_isa.push_back({i, *v});
  }
  p.all_cores = read_measurement(o->obj("all_cores"));
  return p;
}

CpuGemmRecord read_cpu_gemm(const Obj& o) {
  CpuGemmRecord g;
  g.run.dtype = o.named("dtype", Dtype::fp32, "precision", dtype_of);
  g.run.n = o.integer("n");
  g.run.gflops = o.num("gflops");
  g.run.rel_error = o.num("rel_error");
  g.run.checked = o.integer("checked");
  g.run.ok = o.flag("ok");
  g.efficiency = o.opt_num("efficiency");
  g.run.m = read_measurement(o.obj("measurement"));
  if (!o.obj("measurement")) g.run.m.stats.median_s = o.num("seconds_median");
  return g;
}

void read_cpu_memory(const Obj& cpu, CpuResult& c) {
  const auto gbs = cpu.obj("memory_gbs");
  if (!gbs) return;
  MemoryRun m;
  m.copy_gbs = gbs->num("copy");
  m.triad_gbs = gbs->num("triad");
  if (const auto detail = cpu.obj("memory")) {
    m.array_bytes = detail->whole("array_bytes");
    m.threads = detail->integer("threads");
    m.verified = detail->flag("verified");
    m.copy = read_measurement(detail->obj("copy"));
    m.triad = read_measurement(detail->obj("triad"));
  }
  c.memory = m;
}

CpuResult read_cpu(const Obj& o) {
  CpuResult c;
  c.facts.model = o.str("model");
  c.threads = o.integer("threads");
  c.facts.physical_cores = o.integer("physical_cores");
  c.facts.logical_cpus = o.integer("logical_cpus");
  c.facts.max_mhz = o.opt_num("clock_mhz");
  c.facts.clock_source = o.str("clock_source");
  o.each("isas", [&](const json& e, const std::string& path) {
    const auto isa = e.is_string() ? isa_of(e.get_ref<const std::string&>()) : std::nullopt;
    if (!isa) wrong_at(path, "the name of an instruction set", e);
    c.facts.isas.push_back(*isa);
  });
  if (const auto blas = o.obj("blas")) {
    c.blas.name = blas->opt_str("name").value_or(c.blas.name);
    c.blas.config = blas->str("config");
    c.blas.corename = blas->str("corename");
    c.blas.has_bf16 = blas->flag("bf16");
  }
  if (const auto rerun = o.obj("kernel_rerun")) {
    KernelRerun k;
    k.coretype = rerun->str("coretype");
    k.corename = rerun->str("corename");
    k.error = rerun->str("error");
    rerun->each("gemm", [&](const json& e, const std::string& path) { k.gemm.push_back(read_cpu_gemm(Obj(e, path))); });
    c.kernel_rerun = std::move(k);
  }
  if (const auto peak = o.obj("peak")) {
    c.peak_fp32 = read_peak(*peak, "fp32", Precision::fp32);
    c.peak_fp64 = read_peak(*peak, "fp64", Precision::fp64);
  }
  if (const auto summary = o.obj("peak_gflops")) {  // a file with the summary only (docs/bench.md lists both)
    for (auto [peak, key, precision] : {std::tuple{&c.peak_fp32, "fp32", Precision::fp32},
                                        std::tuple{&c.peak_fp64, "fp64", Precision::fp64}}) {
      const auto v = summary->opt_num(key);
      if (*peak || !v) continue;
      *peak = PeakResult{};
      (*peak)->precision = precision;
      (*peak)->all_cores_gflops = *v;
    }
  }
  o.each("gemm", [&](const json& e, const std::string& path) { c.gemm.push_back(read_cpu_gemm(Obj(e, path))); });
  read_cpu_memory(o, c);
  c.notes = o.strings("notes");
  return c;
}

GpuGemmRecord read_gpu_gemm(const Obj& o) {
  GpuGemmRecord g;
  g.dtype = o.named("dtype", Dtype::fp32, "precision", dtype_of);
  g.n = o.integer("n");
  g.status = o.named("status", 0, "status (ok, unsupported or failed)", status_of);
  g.tflops = o.num("tflops");
  g.rel_error = o.num("rel_error");
  g.checked = o.integer("checked");
  g.ok = o.flag("ok");
  g.peak_datasheet_tflops = o.opt_num("peak_datasheet_tflops");
  g.peak_computed_tflops = o.opt_num("peak_computed_tflops");
  g.efficiency = o.opt_num("efficiency");
  g.sm_clock_mhz_median = o.opt_int("sm_clock_mhz_median");
  g.note = o.str("note");
  g.m = read_measurement(o.obj("measurement"));
  if (!o.obj("measurement")) g.m.stats.median_s = o.num("seconds_median");
  return g;
}

std::optional<TransferRecord> read_transfer(const std::optional<Obj>& transfers, std::string_view kind) {
  const auto o = transfers ? transfers->obj(kind) : std::nullopt;
  if (!o) return std::nullopt;
  TransferRecord t;
  t.kind = std::string(kind);
  t.status = o->named("status", 0, "status (ok, unsupported or failed)", status_of);
  t.size_bytes = o->whole("size_bytes");
  t.gbs = o->num("gbs");
  t.verified = o->flag("verified");
  t.note = o->str("note");
  t.m = read_measurement(o->obj("measurement"));
  return t;
}

/// The transfers in detail, else the summary figures (copy_gbs, h2d_gbs and d2h_gbs, both in docs/bench.md).
void read_transfers(const Obj& o, GpuResult& g) {
  const auto transfers = o.obj("transfers");
  const auto h2d = o.obj("h2d_gbs"), d2h = o.obj("d2h_gbs");
  const auto summary = [](std::optional<double> gbs, std::string_view kind) -> std::optional<TransferRecord> {
    if (!gbs) return std::nullopt;
    TransferRecord t;
    t.kind = std::string(kind);
    t.gbs = *gbs;
    return t;
  };
  g.copy = read_transfer(transfers, "d2d");
  if (!g.copy) g.copy = summary(o.opt_num("copy_gbs"), "d2d");
  const std::tuple<std::optional<TransferRecord>*, const char*, const std::optional<Obj>*, const char*> rest[] = {
      {&g.h2d_pinned, "h2d_pinned", &h2d, "pinned"},
      {&g.h2d_pageable, "h2d_pageable", &h2d, "pageable"},
      {&g.d2h_pinned, "d2h_pinned", &d2h, "pinned"},
      {&g.d2h_pageable, "d2h_pageable", &d2h, "pageable"}};
  for (const auto& [record, kind, parent, key] : rest) {
    *record = read_transfer(transfers, kind);
    if (!*record && *parent) *record = summary((*parent)->opt_num(key), kind);
  }
}

void read_gpu_telemetry(const Obj& o, GpuResult& g) {
  if (const auto pcie = o.obj("pcie")) {
    g.telemetry.pcie_gen_under_load = pcie->opt_int("gen_under_load");
    g.telemetry.pcie_width_under_load = pcie->opt_int("width_under_load");
    g.telemetry.pcie_gen_max = pcie->opt_int("gen_max");
    g.telemetry.pcie_gpu_gen_max = pcie->opt_int("gpu_gen_max");
    g.telemetry.pcie_width_max = pcie->opt_int("width_max");
    g.pcie_expected_gbs = pcie->opt_num("expected_gbs");
    g.pcie_below_max = pcie->flag("below_max");
  }
  g.throttled = o.flag("throttled");
  g.power_capped = o.flag("power_capped");
  g.host_cpus_bound = o.flag("host_cpus_bound");
  const auto t = o.obj("telemetry");
  if (!t) return;
  auto& tel = g.telemetry;
  tel.samples = t->integer("samples");
  tel.sm_clock_mhz_min = t->opt_int("sm_clock_mhz_min");
  tel.sm_clock_mhz_max = t->opt_int("sm_clock_mhz_max");
  tel.power_w_max = t->opt_num("power_w_max");
  tel.power_method = t->opt_str("power_method").value_or("");
  if (!tel.power_method.empty() && tel.power_method != "instant" && tel.power_method != "one-second average")
    throw FieldError{fmt::format("field {}: '{}' is not a power method", t->at("power_method"), tel.power_method)};
  tel.power_limit_w = t->opt_num("power_limit_w");
  tel.temperature_c_max = t->opt_int("temperature_c_max");
  for (const auto& name : t->strings("throttle_reasons")) {
    const auto bit = throttle_bit(name);
    if (!bit) throw FieldError{fmt::format("field {}: '{}' is not a known throttle reason", t->at("throttle_reasons"), name)};
    tel.throttle_reasons |= *bit;
  }
}

GpuResult read_gpu(const Obj& o) {
  GpuResult g;
  g.index = o.integer("index");
  g.name = o.str("name");
  g.pci_bus_id = o.str("pci_bus_id");
  g.compute_capability = o.str("compute_capability");
  g.sm_count = o.integer("sm_count");
  g.clock_sm_mhz_max = o.integer("clock_sm_mhz_max");
  g.memory_total_bytes = o.whole("memory_total_bytes");
  g.memory_free_bytes = o.whole("memory_free_bytes");
  g.l2_bytes = o.whole("l2_bytes");
  if (const auto v = o.obj("versions")) {
    g.driver_cuda_version = v->str("driver_cuda");
    g.runtime_version = v->str("runtime");
    g.cublas_version = v->str("cublas");
  }
  g.catalog_name = o.opt_str("catalog_name");
  o.each("gemm", [&](const json& e, const std::string& path) { g.gemm.push_back(read_gpu_gemm(Obj(e, path))); });
  g.memory_bandwidth_gbs = o.opt_num("memory_bandwidth_gbs_datasheet");
  read_transfers(o, g);
  read_gpu_telemetry(o, g);
  g.notes = o.strings("notes");
  return g;
}

Speedup read_speedup(const std::optional<Obj>& o) {
  Speedup s;
  if (!o) return s;
  if (o->find("n", true)) s.n = o->integer("n");
  s.cpu_fp32_ms = o->opt_num("cpu_fp32_ms");
  s.gpu_fp32_ms = o->opt_num("gpu_fp32_ms");
  s.gpu_bf16_ms = o->opt_num("gpu_bf16_ms");
  s.fp32_speedup = o->opt_num("fp32");
  s.bf16_speedup = o->opt_num("bf16_vs_cpu_fp32");
  s.eight_hours_minutes = o->opt_num("eight_cpu_hours_in_gpu_minutes");
  s.transfer_ms = o->opt_num("transfer_ms");
  s.gpu_fp32_with_transfers_ms = o->opt_num("gpu_fp32_with_transfers_ms");
  s.fp32_with_transfers_speedup = o->opt_num("fp32_with_transfers");
  s.estimate_gpu = o->opt_str("estimate_gpu");
  s.estimate_gpu_fp32_ms = o->opt_num("estimate_gpu_fp32_ms");
  s.estimate_fp32_speedup = o->opt_num("estimate_fp32_speedup");
  s.basis = o->str("basis");
  s.cpu_coretype = o->str("cpu_openblas_coretype");
  return s;
}

TorchCase read_torch_case(const Obj& o) {
  TorchCase c;
  c.device = o.str("device");
  if (!is_torch_device(c.device))
    throw FieldError{fmt::format("field {}: '{}' is not a device (cpu or cuda:N)", o.at("device"), c.device)};
  c.dtype = o.named("dtype", Dtype::fp32, "precision", dtype_of);
  c.n = o.integer("n");
  c.gflops = o.num("gflops");
  c.rel_error = o.opt_num("rel_error");
  c.ok = o.flag("ok");
  c.error = o.str("error");
  c.skipped = o.str("skipped");
  c.native_gflops = o.opt_num("native_gflops");
  c.peak_gflops = o.opt_num("peak_gflops");
  c.of_native = o.opt_num("of_native");
  c.of_peak = o.opt_num("of_peak");
  c.m = read_measurement(o.obj("measurement"));
  return c;
}

std::optional<bool> opt_flag(const Obj& o, std::string_view key) {
  if (!o.find(key, true)) return std::nullopt;
  return o.flag(key);
}

NcclResult read_nccl(const Obj& o) {
  NcclResult n;
  n.ranks = o.integer("ranks");
  n.nccl_version = o.str("nccl_version");
  n.status = o.str("status");
  o.each("sizes", [&](const json& e, const std::string& path) {
    const Obj s(e, path);
    AllReduceRecord rec;
    rec.status = s.named("status", 0, "status (ok, unsupported or failed)", status_of);
    rec.size_bytes = s.whole("size_bytes");
    rec.algbw_gbs = s.num("algbw_gbs");
    rec.busbw_gbs = s.num("busbw_gbs");
    rec.verified = s.flag("verified");
    rec.note = s.str("note");
    rec.m = read_measurement(s.obj("measurement"));
    n.sizes.push_back(std::move(rec));
  });
  n.notes = o.strings("notes");
  return n;
}

TorchBench read_torch(const Obj& o) {
  TorchBench t;
  t.python = o.str("python");
  t.version = o.opt_str("version");
  t.cuda = o.opt_str("cuda");
  t.debug = opt_flag(o, "debug");
  t.num_threads = o.opt_int("num_threads");
  t.usable_cpus = o.opt_int("usable_cpus");
  t.blas = o.opt_str("blas");
  t.cpu_capability = o.opt_str("cpu_capability");
  t.allow_tf32_default = opt_flag(o, "allow_tf32_default");
  t.seconds = o.num("seconds");
  t.timed_out = o.flag("timed_out");
  t.error = o.str("error");
  o.each("cases", [&](const json& e, const std::string& path) { t.cases.push_back(read_torch_case(Obj(e, path))); });
  o.each("findings", [&](const json& e, const std::string& path) {
    const Obj f(e, path);
    t.findings.push_back({f.str("code"), f.str("severity"), f.str("message"), f.str("fix")});
  });
  return t;
}

BenchResult read_document(const Obj& o) {
  BenchResult r;
  r.schema = o.str("schema");
  r.gpuscout_version = o.str("gpuscout_version");
  r.collected_at = o.str("collected_at");
  r.mode = o.opt_str("mode").value_or(r.mode);
  r.device = o.opt_str("device").value_or(r.device);
  if (const auto cpu = o.obj("cpu")) r.cpu = read_cpu(*cpu);
  if (const auto s = o.obj("gpu_status")) {
    r.gpu_status.requested = s->flag("requested");
    r.gpu_status.available = s->flag("available");
    r.gpu_status.plugin_path = s->opt_str("plugin");
    r.gpu_status.plugin_version = s->str("plugin_version");
    r.gpu_status.message = s->str("message");
  }
  o.each("gpus", [&](const json& e, const std::string& path) { r.gpus.push_back(read_gpu(Obj(e, path))); });
  r.speedup = read_speedup(o.obj("speedup"));
  if (const auto torch = o.obj("torch")) r.torch = read_torch(*torch);
  if (const auto nccl = o.obj("nccl")) r.nccl = read_nccl(*nccl);
  r.notes = o.strings("notes");
  return r;
}

}  // namespace

std::string_view status_name(int status) {
  return status == 0 ? "ok" : status == 1 ? "unsupported" : "failed";
}

Result<BenchResult> from_json(const nlohmann::json& doc) {
  const auto found = doc.is_object() ? doc.find("schema") : doc.end();
  const json* schema = found != doc.end() ? &*found : nullptr;
  if (!schema || !schema->is_string() || schema->get_ref<const std::string&>().rfind("gpuscout.bench/", 0) != 0)
    return fail("not a `gpuscout bench --json` file (no \"schema\": \"gpuscout.bench/1\")");
  if (*schema != kBenchSchema)
    return fail(fmt::format("schema {} is not supported (this gpuscout reads {})", schema->get<std::string>(),
                            kBenchSchema));
  try {
    return read_document(Obj(doc, ""));
  } catch (const FieldError& e) {
    return fail(e.message);
  }
}

Result<BenchResult> load_bench_file(const std::string& path) {
  auto read = core::read_user_file(path);
  if (!read) return fail(read.error().message);
  const std::string content = std::move(*read);
  if (text::trim(content).empty()) return fail(fmt::format("{}: the file is empty", path));
  auto doc = core::parse_json(content);  // "line L column C: not valid JSON ...", a number like 1e999 too
  if (!doc) return fail(fmt::format("{}: {}", path, doc.error().message));
  auto result = from_json(*doc);
  if (!result) return fail(fmt::format("{}: {}", path, result.error().message));
  return result;
}

}  // namespace gpuscout::bench
