#include "bench/gpu_bench.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "bench/gpu_plugin.hpp"
#include "bench/nvml_sampler.hpp"
#include "core/i18n.hpp"
#include "core/text.hpp"

namespace gpuscout::bench {

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

std::string share_text(double share, int of) {
  return fmt::format("{}/{}", static_cast<int>(share * of + 0.5), of);
}

// What the catalogue row lends this device, and the note when it lends nothing.
void note_datasheet(GpuResult& gpu, const std::optional<catalog::GpuMatch>& match) {
  if (!match) {
    gpu.notes.push_back(trf("'{}' is not in the GPU catalogue (data/gpus.csv): its datasheet peak is unknown, "
                            "so no efficiency against it is shown", gpu.name));
    return;
  }
  gpu.catalog_name = match->spec->name;
  const auto bandwidth = match->spec->memory_bandwidth_gbs;
  if (!match->mig_profile) {
    if (bandwidth && *bandwidth > 0) gpu.memory_bandwidth_gbs = bandwidth;
    return;
  }
  const std::string profile = match->mig_profile->empty() ? "" : " (" + *match->mig_profile + ")";
  if (!match->mig_compute_share) {
    gpu.notes.push_back(trf("this is a MIG slice{} of a {} whose size is not named: its share of the card's "
                            "datasheet is unknown; efficiency is against the slice's own SMs x clock",
                            profile, match->spec->name));
    return;
  }
  if (match->mig_memory_share && bandwidth && *bandwidth > 0)
    gpu.memory_bandwidth_gbs = *bandwidth * *match->mig_memory_share;
  const std::string compute = share_text(*match->mig_compute_share, catalog::mig_card_slices(*match->spec));
  if (match->mig_memory_share)
    gpu.notes.push_back(trf("this is a MIG slice{} of a {}: it is compared with its share of the card ({} of the "
                            "compute, {} of the memory bandwidth)",
                            profile, match->spec->name, compute, share_text(*match->mig_memory_share, 8)));
  else
    gpu.notes.push_back(trf("this is a MIG slice{} of a {}: it is compared with its share of the card ({} of the "
                            "compute)", profile, match->spec->name, compute));
}

// SMs x clock x per-SM rate, the per-SM rate taken from the datasheet row (peak / (SMs x boost clock)). This holds
// for a MIG slice too: sm_count is the slice's own.
std::optional<double> computed_peak(const GpuResult& gpu, const GpuGemmRecord& g, const catalog::GpuSpec& spec,
                                    double datasheet) {
  if (!spec.sms || *spec.sms <= 0 || !spec.boost_clock_mhz || *spec.boost_clock_mhz <= 0 || gpu.sm_count <= 0)
    return std::nullopt;
  const double per_sm_clock = datasheet / (*spec.sms * static_cast<double>(*spec.boost_clock_mhz));
  const int clock = g.sm_clock_mhz_median.value_or(gpu.clock_sm_mhz_max);
  if (clock <= 0) return std::nullopt;
  return per_sm_clock * gpu.sm_count * clock;
}

void interpret_gemms(GpuResult& gpu, const std::optional<catalog::GpuMatch>& match) {
  const catalog::GpuSpec* spec = match ? match->spec : nullptr;
  const bool mig = match && match->mig_profile;
  for (auto& g : gpu.gemm) {
    if (g.status != GPUSCOUT_OK) continue;
    const auto datasheet = spec ? datasheet_tflops(*spec, g.dtype) : std::nullopt;
    if (!datasheet) continue;
    // A slice is compared with its share of the card, never with the whole card.
    if (!mig) g.peak_datasheet_tflops = datasheet;
    else if (match->mig_compute_share) g.peak_datasheet_tflops = *datasheet * *match->mig_compute_share;
    g.peak_computed_tflops = computed_peak(gpu, g, *spec, *datasheet);
    // A slice's own SMs say more than its nominal share (a 1g slice of an H200 has 16 of the 132 SMs).
    const auto peak = mig && g.peak_computed_tflops ? g.peak_computed_tflops
                                                    : (g.peak_datasheet_tflops ? g.peak_datasheet_tflops
                                                                               : g.peak_computed_tflops);
    if (peak && *peak > 0) g.efficiency = g.tflops / *peak;
  }
}

void interpret_clocks(GpuResult& gpu) {
  const auto& t = gpu.telemetry;
  gpu.throttled = (t.throttle_reasons & kThrottleLossMask) != 0;
  gpu.power_capped = (t.throttle_reasons & vendor::nvml::kReasonSwPowerCap) != 0;
  if (gpu.throttled)
    gpu.notes.push_back(trf("clocks were slowed during the run: {} (check cooling and power delivery)",
                            text::join(throttle_reason_names(t.throttle_reasons & kThrottleLossMask), ", ")));
  else if (gpu.power_capped)
    gpu.notes.push_back(tr("the GPU ran at its power limit during the GEMMs: normal under full load (clocks are "
                           "lowered to stay within the limit), not a fault"));
}

}  // namespace

void interpret_gpu(GpuResult& gpu, const std::optional<catalog::GpuMatch>& match) {
  note_datasheet(gpu, match);
  interpret_gemms(gpu, match);
  interpret_clocks(gpu);
  const auto& t = gpu.telemetry;
  if (t.pcie_gen_under_load && t.pcie_width_under_load) {
    gpu.pcie_expected_gbs = pcie_gbs(*t.pcie_gen_under_load, *t.pcie_width_under_load);
    const int gen_max = t.pcie_gpu_gen_max.value_or(t.pcie_gen_max.value_or(0));
    const bool gen_low = gen_max > 0 && *t.pcie_gen_under_load < gen_max;
    const bool width_low = t.pcie_width_max && *t.pcie_width_under_load < *t.pcie_width_max;
    gpu.pcie_below_max = gen_low || width_low;
    if (gpu.pcie_below_max)
      gpu.notes.push_back(trf("PCIe link under load is gen {} x{}, below the card's gen {} x{}: "
                              "host transfers are limited (a x16 card in a x4 slot, a riser, BIOS setting)",
                              *t.pcie_gen_under_load, *t.pcie_width_under_load, gen_max,
                              t.pcie_width_max.value_or(0)));
  }
}

}  // namespace gpuscout::bench
