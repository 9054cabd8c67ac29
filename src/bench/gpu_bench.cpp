#include "bench/gpu_bench.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

#include <fmt/format.h>

#include "bench/gpu_plugin.hpp"
#include "bench/nvml_sampler.hpp"
#include "core/text.hpp"
#include "os/library.hpp"

namespace gpuscout::bench {
namespace {

int should_stop_callback() { return stop_requested() ? 1 : 0; }

Measurement from_samples(double first_call_s, int n_samples, const double* samples, int warmups) {
  Measurement m;
  m.first_call_s = first_call_s;
  m.warmups = warmups;
  const int n = std::clamp(n_samples, 0, GPUSCOUT_PLUGIN_MAX_SAMPLES);
  m.samples_s.assign(samples, samples + n);
  m.stats = summarize(m.samples_s);
  return m;
}

std::string text_of(const char* buffer, size_t size) { return std::string(buffer, strnlen(buffer, size)); }

std::string cuda_version(int v) { return v > 0 ? fmt::format("{}.{}", v / 1000, (v % 1000) / 10) : ""; }

}  // namespace

std::optional<double> datasheet_tflops(const catalog::GpuSpec& spec, Dtype d) {
  auto positive = [](std::optional<double> v) { return v && *v > 0 ? v : std::nullopt; };
  switch (d) {
    case Dtype::fp32: return positive(spec.fp32_tflops);
    case Dtype::tf32: {
      const auto bf16 = positive(spec.bf16_tensor_tflops);
      return bf16 ? std::optional<double>(*bf16 / 2) : std::nullopt;
    }
    case Dtype::fp16: return positive(spec.fp16_tensor_tflops);
    case Dtype::bf16: return positive(spec.bf16_tensor_tflops);
    case Dtype::fp8: return positive(spec.fp8_tensor_tflops);
    case Dtype::fp64: return std::nullopt;
  }
  return std::nullopt;
}

std::optional<double> pcie_gbs(int gen, int width) {
  // Per lane and direction after line coding: 2.5/5 GT/s with 8b/10b, then 128b/130b from gen 3.
  static const double per_lane[] = {0, 0.25, 0.5, 0.985, 1.969, 3.938, 7.563};
  if (gen < 1 || gen > 6 || width < 1) return std::nullopt;
  return per_lane[gen] * width;
}

namespace {

// What the catalogue row lends this device, and the note when it lends nothing.
void note_datasheet(GpuResult& gpu, const std::optional<catalog::GpuMatch>& match) {
  if (!match) {
    gpu.notes.push_back(fmt::format("'{}' is not in the GPU catalogue (data/gpus.csv): its datasheet peak is unknown, "
                                    "so no efficiency against it is shown", gpu.name));
    return;
  }
  gpu.catalog_name = match->spec->name;
  if (match->mig_profile) {
    gpu.notes.push_back(fmt::format("this is a MIG slice{} of a {}: the datasheet peak and bandwidth are the whole "
                                    "card's, so they are not compared; efficiency is against the slice's own SMs "
                                    "x clock",
                                    match->mig_profile->empty() ? "" : " (" + *match->mig_profile + ")",
                                    match->spec->name));
    return;
  }
  if (match->spec->memory_bandwidth_gbs && *match->spec->memory_bandwidth_gbs > 0)
    gpu.memory_bandwidth_gbs = match->spec->memory_bandwidth_gbs;
}

}  // namespace

void interpret_gpu(GpuResult& gpu, const std::optional<catalog::GpuMatch>& match) {
  note_datasheet(gpu, match);
  const catalog::GpuSpec* spec = match ? match->spec : nullptr;
  const bool whole_card = match && !match->mig_profile;
  for (auto& g : gpu.gemm) {
    if (g.status != GPUSCOUT_OK) continue;
    const auto datasheet = spec ? datasheet_tflops(*spec, g.dtype) : std::nullopt;
    if (whole_card) g.peak_datasheet_tflops = datasheet;
    // SMs x clock x per-SM rate, the per-SM rate taken from the datasheet row (peak / (SMs x boost clock)). This
    // holds for a MIG slice too: sm_count is the slice's own.
    if (datasheet && spec->sms && *spec->sms > 0 && spec->boost_clock_mhz && *spec->boost_clock_mhz > 0 &&
        gpu.sm_count > 0) {
      const double per_sm_clock = *datasheet / (*spec->sms * static_cast<double>(*spec->boost_clock_mhz));
      const int clock = g.sm_clock_mhz_median.value_or(gpu.clock_sm_mhz_max);
      if (clock > 0) g.peak_computed_tflops = per_sm_clock * gpu.sm_count * clock;
    }
    const auto peak = g.peak_datasheet_tflops ? g.peak_datasheet_tflops : g.peak_computed_tflops;
    if (peak && *peak > 0) g.efficiency = g.tflops / *peak;
  }
  const auto& t = gpu.telemetry;
  gpu.throttled = (t.throttle_reasons & kThrottleLossMask) != 0;
  if (gpu.throttled)
    gpu.notes.push_back("clocks were limited during the run: " +
                        text::join(throttle_reason_names(t.throttle_reasons & kThrottleLossMask), ", "));
  if (t.pcie_gen_under_load && t.pcie_width_under_load) {
    gpu.pcie_expected_gbs = pcie_gbs(*t.pcie_gen_under_load, *t.pcie_width_under_load);
    const int gen_max = t.pcie_gpu_gen_max.value_or(t.pcie_gen_max.value_or(0));
    const bool gen_low = gen_max > 0 && *t.pcie_gen_under_load < gen_max;
    const bool width_low = t.pcie_width_max && *t.pcie_width_under_load < *t.pcie_width_max;
    gpu.pcie_below_max = gen_low || width_low;
    if (gpu.pcie_below_max)
      gpu.notes.push_back(fmt::format("PCIe link under load is gen {} x{}, below the card's gen {} x{}: "
                                      "host transfers are limited (a x16 card in a x4 slot, a riser, BIOS setting)",
                                      *t.pcie_gen_under_load, *t.pcie_width_under_load, gen_max,
                                      t.pcie_width_max.value_or(0)));
  }
}

GpuSection run_gpus(const GpuPlan& plan) {
  GpuSection section;
  section.status.requested = true;
  const char* env = std::getenv("GPUSCOUT_CUDA_PLUGIN");
  const std::optional<std::string> env_path = env && *env ? std::optional<std::string>(env) : std::nullopt;
  if (!env_path) {
    // Without a driver there is no point loading cuBLAS (hundreds of MB): say so in one line.
    const char* cuda_env = std::getenv("GPUSCOUT_CUDA_LIBRARY");
    auto driver = os::SharedLibrary::open(cuda_env && *cuda_env ? cuda_env : "libcuda.so.1");
    if (!driver) {
      section.status.message = "no NVIDIA driver: libcuda.so.1 cannot be loaded, GPU benchmarks skipped";
      return section;
    }
  }
  std::optional<CudaPlugin> plugin;
  std::vector<std::string> tried;
  for (const auto& path : plugin_candidates(env_path, executable_dir(), plan.plugin_install_dir)) {
    tried.push_back(path);
    if (!env_path && access(path.c_str(), F_OK) != 0) continue;
    auto loaded = CudaPlugin::load(path);
    if (!loaded) {
      section.status.plugin_path = path;
      section.status.message = loaded.error().message;
      return section;
    }
    plugin.emplace(std::move(*loaded));
    break;
  }
  if (!plugin) {
    section.status.message = "the CUDA benchmark plugin is not installed (" + std::string(kCudaPluginFile) +
                             " not found in: " + text::join(tried, ", ") +
                             "); build gpuscout with the CUDA toolkit to get it";
    return section;
  }
  section.status.plugin_path = plugin->path();
  section.status.plugin_version = plugin->version();
  if (auto ok = plugin->init(should_stop_callback); !ok) {
    section.status.message = "CUDA is not usable: " + ok.error().message;
    return section;
  }
  const auto& api = plugin->api();
  const int count = api.device_count();
  if (count <= 0) {
    section.status.message = "CUDA reports no device";
    return section;
  }
  section.status.available = true;
  gpuscout_method method{plan.method.warmup, plan.method.min_repeats,
                         std::min(plan.method.max_repeats, GPUSCOUT_PLUGIN_MAX_SAMPLES), plan.method.budget_s};
  for (int dev = 0; dev < count; ++dev) {
    throw_if_stopped();
    GpuResult gpu;
    gpu.index = dev;
    gpuscout_device_info info{};
    char err[GPUSCOUT_PLUGIN_TEXT] = {};
    if (api.device_info(dev, &info, err, sizeof err) != GPUSCOUT_OK) {
      gpu.notes.push_back("device information failed: " + text_of(err, sizeof err));
      section.gpus.push_back(std::move(gpu));
      continue;
    }
    gpu.name = text_of(info.name, sizeof info.name);
    gpu.pci_bus_id = text::to_lower(text_of(info.pci_bus_id, sizeof info.pci_bus_id));
    gpu.compute_capability = fmt::format("{}.{}", info.cc_major, info.cc_minor);
    gpu.sm_count = info.sm_count;
    gpu.clock_sm_mhz_max = info.clock_sm_mhz_max;
    gpu.memory_total_bytes = info.memory_total_bytes;
    gpu.memory_free_bytes = info.memory_free_bytes;
    gpu.l2_bytes = info.l2_bytes;
    gpu.driver_cuda_version = cuda_version(info.driver_version);
    gpu.runtime_version = cuda_version(info.runtime_version);
    gpu.cublas_version = info.cublas_version > 0 ? fmt::format("{}.{}.{}", info.cublas_version / 10000,
                                                               (info.cublas_version / 100) % 100,
                                                               info.cublas_version % 100)
                                                 : "";
    std::string nvml_error;
    auto sampler = NvmlSampler::open(gpu.pci_bus_id, nvml_error);
    if (!sampler) gpu.notes.push_back(nvml_error);
    std::vector<std::string> phases{"idle"};
    auto phase = [&](std::string name) {
      phases.push_back(std::move(name));
      if (sampler) sampler->set_phase(static_cast<int>(phases.size() - 1));
      return static_cast<int>(phases.size() - 1);
    };
    if (sampler) sampler->start();
    std::vector<int> gemm_phase;
    for (const auto& [dtype, n] : plan.gemms) {
      throw_if_stopped();
      int plugin_dtype = -1;
      switch (dtype) {
        case Dtype::fp32: plugin_dtype = GPUSCOUT_DTYPE_FP32; break;
        case Dtype::tf32: plugin_dtype = GPUSCOUT_DTYPE_TF32; break;
        case Dtype::fp16: plugin_dtype = GPUSCOUT_DTYPE_FP16; break;
        case Dtype::bf16: plugin_dtype = GPUSCOUT_DTYPE_BF16; break;
        case Dtype::fp8: plugin_dtype = GPUSCOUT_DTYPE_FP8; break;
        case Dtype::fp64: break;
      }
      if (plugin_dtype < 0) continue;  // no GPU GEMM in this precision (fp64): run() notes it
      if (plan.progress) plan.progress(fmt::format("GPU {} GEMM {} n={}", dev, dtype_name(dtype), n));
      gemm_phase.push_back(phase(fmt::format("gemm {} {}", dtype_name(dtype), n)));
      GpuGemmRecord rec;
      rec.dtype = dtype;
      gpuscout_gemm_result out{};
      rec.status = api.gemm(dev, plugin_dtype, n, &method, &out);
      if (rec.status == GPUSCOUT_STOPPED) throw Interrupted{};
      rec.n = out.n > 0 ? out.n : n;
      rec.note = text_of(out.note, sizeof out.note);
      if (rec.status != GPUSCOUT_OK) {
        const std::string why = text_of(out.error, sizeof out.error);
        if (!why.empty()) rec.note = rec.note.empty() ? why : rec.note + "; " + why;
      } else {
        rec.m = from_samples(out.first_call_s, out.n_samples, out.samples_s, method.warmup);
        const double flops = 2.0 * rec.n * static_cast<double>(rec.n) * rec.n;
        rec.tflops = rec.m.stats.median_s > 0 ? flops / rec.m.stats.median_s / 1e12 : 0;
        rec.rel_error = out.rel_error;
        rec.checked = out.checked;
        rec.ok = out.checked > 0 && out.rel_error <= rel_error_bound(dtype);
        if (!rec.ok)
          gpu.notes.push_back(fmt::format("GEMM {} n={} gave a WRONG result: relative error {:.2e} above {:.0e}",
                                          dtype_name(dtype), rec.n, out.rel_error, rel_error_bound(dtype)));
      }
      gpu.gemm.push_back(std::move(rec));
    }
    struct Copy {
      int kind;
      const char* name;
      std::optional<TransferRecord> GpuResult::*field;
    };
    const Copy copies[] = {{GPUSCOUT_COPY_D2D, "d2d", &GpuResult::copy},
                           {GPUSCOUT_COPY_H2D_PINNED, "h2d_pinned", &GpuResult::h2d_pinned},
                           {GPUSCOUT_COPY_H2D_PAGEABLE, "h2d_pageable", &GpuResult::h2d_pageable},
                           {GPUSCOUT_COPY_D2H_PINNED, "d2h_pinned", &GpuResult::d2h_pinned},
                           {GPUSCOUT_COPY_D2H_PAGEABLE, "d2h_pageable", &GpuResult::d2h_pageable}};
    std::vector<int> transfer_phase;
    for (const auto& c : copies) {
      throw_if_stopped();
      if (plan.progress) plan.progress(fmt::format("GPU {} copy {}", dev, c.name));
      const int ph = phase(c.name);
      if (c.kind != GPUSCOUT_COPY_D2D) transfer_phase.push_back(ph);
      // Device copies: several times L2 so the cache cannot serve them.
      const uint64_t bytes =
          c.kind == GPUSCOUT_COPY_D2D ? std::max<uint64_t>(plan.transfer_bytes, 8 * info.l2_bytes) : plan.transfer_bytes;
      gpuscout_copy_result out{};
      TransferRecord rec;
      rec.kind = c.name;
      rec.status = api.copy(dev, c.kind, bytes, &method, &out);
      if (rec.status == GPUSCOUT_STOPPED) throw Interrupted{};
      rec.size_bytes = out.size_bytes;
      rec.note = text_of(out.note, sizeof out.note);
      if (rec.status == GPUSCOUT_OK) {
        rec.m = from_samples(out.first_call_s, out.n_samples, out.samples_s, method.warmup);
        const double moved = static_cast<double>(out.size_bytes) * (c.kind == GPUSCOUT_COPY_D2D ? 2.0 : 1.0);
        rec.gbs = rec.m.stats.median_s > 0 ? moved / rec.m.stats.median_s / 1e9 : 0;
        rec.verified = out.verified != 0;
        if (!rec.verified) gpu.notes.push_back(fmt::format("copy {}: destination did not match the source", c.name));
      } else {
        const std::string why = text_of(out.error, sizeof out.error);
        if (!why.empty()) rec.note = rec.note.empty() ? why : rec.note + "; " + why;
      }
      gpu.*(c.field) = std::move(rec);
    }
    phase("done");
    if (sampler) {
      sampler->stop();
      const auto samples = sampler->samples();
      auto& t = gpu.telemetry;
      t.samples = static_cast<int>(samples.size());
      const auto& lm = sampler->link_max();
      t.pcie_gen_max = lm.gen_max;
      t.pcie_gpu_gen_max = lm.gpu_gen_max;
      t.pcie_width_max = lm.width_max;
      if (lm.power_limit_mw) t.power_limit_w = *lm.power_limit_mw / 1000.0;
      auto in = [](const std::vector<int>& v, int p) { return std::find(v.begin(), v.end(), p) != v.end(); };
      for (const auto& s : samples) {
        const bool gemm = in(gemm_phase, s.phase), transfer = in(transfer_phase, s.phase);
        if (s.power_mw) t.power_w_max = std::max(t.power_w_max.value_or(0), *s.power_mw / 1000.0);
        if (s.temperature_c) t.temperature_c_max = std::max(t.temperature_c_max.value_or(-300), *s.temperature_c);
        if (gemm && s.sm_clock_mhz) {
          t.sm_clock_mhz_min = std::min(t.sm_clock_mhz_min.value_or(1 << 30), *s.sm_clock_mhz);
          t.sm_clock_mhz_max = std::max(t.sm_clock_mhz_max.value_or(0), *s.sm_clock_mhz);
        }
        if (gemm && s.throttle_reasons) t.throttle_reasons |= *s.throttle_reasons;
        if (transfer && s.pcie_gen) t.pcie_gen_under_load = std::max(t.pcie_gen_under_load.value_or(0), *s.pcie_gen);
        if (transfer && s.pcie_width)
          t.pcie_width_under_load = std::max(t.pcie_width_under_load.value_or(0), *s.pcie_width);
      }
      for (size_t i = 0; i < gpu.gemm.size() && i < gemm_phase.size(); ++i) {
        std::vector<double> clocks;
        for (const auto& s : samples)
          if (s.phase == gemm_phase[i] && s.sm_clock_mhz) clocks.push_back(*s.sm_clock_mhz);
        if (!clocks.empty()) gpu.gemm[i].sm_clock_mhz_median = static_cast<int>(summarize(clocks).median_s);
      }
    }
    interpret_gpu(gpu, catalog::match_gpu({.name = gpu.name,
                                           .memory_bytes = gpu.memory_total_bytes ? std::optional(gpu.memory_total_bytes)
                                                                                  : std::nullopt}));
    section.gpus.push_back(std::move(gpu));
  }
  return section;
}

}  // namespace gpuscout::bench
