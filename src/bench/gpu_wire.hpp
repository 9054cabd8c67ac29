#pragma once
/// The GPU results as they travel from the bench child process to the parent: every field of the in-memory
/// types, losslessly (the probes ship Inventory parts between processes the same way). This is not the saved
/// bench format (docs/bench.md, report.cpp's to_json): both ends are this same binary.
#include <string>

#include "bench/gpu_bench.hpp"
#include "bench/result.hpp"
#include "core/error.hpp"
#include "core/json_position.hpp"
#include "core/json.hpp"

namespace gpuscout::bench {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Stats, median_s, min_s, max_s, spread_pct)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Measurement, first_call_s, warmups, samples_s, stats)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(GpuGemmRecord, dtype, n, status, m, tflops, rel_error, checked, ok,
                                                peak_datasheet_tflops, peak_computed_tflops, efficiency,
                                                sm_clock_mhz_median, note)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TransferRecord, kind, status, size_bytes, m, gbs, verified, note)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(GpuTelemetry, samples, sm_clock_mhz_min, sm_clock_mhz_max, power_w_max,
                                                power_method, power_limit_w, temperature_c_max, throttle_reasons,
                                                pcie_gen_under_load, pcie_width_under_load, pcie_gen_max,
                                                pcie_gpu_gen_max, pcie_width_max)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(GpuResult, index, name, pci_bus_id, compute_capability, sm_count,
                                                clock_sm_mhz_max, memory_total_bytes, memory_free_bytes, l2_bytes,
                                                driver_cuda_version, runtime_version, cublas_version, catalog_name,
                                                memory_bandwidth_gbs, gemm, copy, h2d_pinned, h2d_pageable,
                                                d2h_pinned, d2h_pageable, pcie_expected_gbs, pcie_below_max,
                                                telemetry, throttled, power_capped, host_cpus_bound, notes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(AllReduceRecord, status, size_bytes, m, algbw_gbs, busbw_gbs, verified,
                                                note)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(NcclResult, ranks, nccl_version, status, sizes, notes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(GpuStatus, requested, available, plugin_path, plugin_version, message)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(GpuSection, status, gpus, nccl)

/// One line of JSON. A driver's or plugin's text that is not valid UTF-8 comes out with U+FFFD in place of the
/// bad bytes instead of an exception.
inline std::string gpu_section_to_wire(const GpuSection& section) {
  return nlohmann::json(section).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}
/// The parent's side; the error says what was wrong with the child's answer.
inline Result<GpuSection> gpu_section_from_wire(const std::string& text) {
  auto doc = core::parse_json(text);
  if (!doc) return fail("the GPU benchmark's answer is unreadable: " + doc.error().message);
  try {
    return doc->get<GpuSection>();
  } catch (const nlohmann::json::exception& e) {
    return fail(std::string("the GPU benchmark's answer is unreadable: ") + e.what());
  }
}

}  // namespace gpuscout::bench
