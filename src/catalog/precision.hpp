#pragma once
/// Which number formats a GPU runs natively, from data/precision.csv: NVIDIA by compute capability, AMD and Intel
/// by architecture name (as data/gpus.csv and the probes write it). The one place that knows it: fit, advise and
/// the report ask here before they pick bf16 or fp16.
#include <optional>
#include <string>
#include <string_view>

namespace gpuscout::catalog {

/// yes: native (tensor/matrix cores where the card has them); slow: runs, far below the fp32 rate (fp16 on
/// Kepler, Maxwell before sm_53 and most Pascal GeForce cards); no: not in hardware; unknown: no sourced fact.
enum class Support { unknown, no, slow, yes };
std::string_view name(Support s);

struct Precision {
  Support fp32 = Support::unknown, tf32 = Support::unknown, fp16 = Support::unknown, bf16 = Support::unknown,
          fp8 = Support::unknown, fp4 = Support::unknown;
  std::string architecture;  ///< "Turing"
  std::string basis;         ///< what the row was found by: "sm_75 (Turing)", "CDNA 3"
};

struct PrecisionQuery {
  std::string_view vendor{};        ///< "nvidia", "amd", "intel"
  std::string_view compute_capability{};  ///< "7.5" (NVIDIA); "" when unknown
  std::string_view architecture{};  ///< "RDNA 3", "Xe-HPG (Alchemist)" (AMD, Intel)
};

/// The formats of a device; nullopt when the table has no row for it (unknown vendor, capability or architecture).
std::optional<Precision> precision_for(const PrecisionQuery& query);

/// Errors met reading data/precision.csv (empty when it loaded).
std::string precision_load_error();

}  // namespace gpuscout::catalog
