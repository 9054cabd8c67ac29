#pragma once
/// Precisions the benchmarks know, by the names users type (--dtype fp32,bf16).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscout::bench {

enum class Dtype { fp64, fp32, tf32, fp16, bf16, fp8 };

std::string_view dtype_name(Dtype d);
std::optional<Dtype> parse_dtype(std::string_view name);  ///< "fp32", "float32", "bf16", "bfloat16", ...
/// "fp32,bf16" -> list; throws UsageError naming the unknown entry and the known ones.
std::vector<Dtype> parse_dtype_list(std::string_view list);
/// Largest accepted max|C - ref| / sum|A||B| over sampled entries, by precision.
double rel_error_bound(Dtype d);

}  // namespace gpuscout::bench
