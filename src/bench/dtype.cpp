#include "bench/dtype.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/i18n.hpp"
#include "core/text.hpp"

namespace gpuscout::bench {

std::string_view dtype_name(Dtype d) {
  switch (d) {
    case Dtype::fp64: return "fp64";
    case Dtype::fp32: return "fp32";
    case Dtype::tf32: return "tf32";
    case Dtype::fp16: return "fp16";
    case Dtype::bf16: return "bf16";
    case Dtype::fp8: return "fp8";
  }
  return "?";
}

std::optional<Dtype> parse_dtype(std::string_view name) {
  const std::string n = text::to_lower(text::trim(name));
  if (n == "fp64" || n == "float64" || n == "double" || n == "f64") return Dtype::fp64;
  if (n == "fp32" || n == "float32" || n == "float" || n == "f32") return Dtype::fp32;
  if (n == "tf32") return Dtype::tf32;
  if (n == "fp16" || n == "float16" || n == "half" || n == "f16") return Dtype::fp16;
  if (n == "bf16" || n == "bfloat16") return Dtype::bf16;
  if (n == "fp8" || n == "e4m3" || n == "fp8e4m3" || n == "float8") return Dtype::fp8;
  return std::nullopt;
}

std::vector<Dtype> parse_dtype_list(std::string_view list) {
  std::vector<Dtype> out;
  for (auto part : text::split(list, ',')) {
    if (text::trim(part).empty()) continue;
    auto d = parse_dtype(part);
    if (!d)
      throw UsageError(trf("--dtype: unknown precision '{}' (known: fp64, fp32, tf32, fp16, bf16, fp8)",
                           text::trim(part)));
    bool seen = false;
    for (Dtype e : out) seen = seen || e == *d;
    if (!seen) out.push_back(*d);
  }
  if (out.empty()) throw UsageError(tr("--dtype: empty list (known: fp64, fp32, tf32, fp16, bf16, fp8)"));
  return out;
}

double rel_error_bound(Dtype d) {
  switch (d) {
    case Dtype::fp64: return 1e-12;
    case Dtype::fp32: return 1e-5;
    case Dtype::tf32: return 2e-3;   // inputs rounded to 10 mantissa bits
    case Dtype::fp16: return 1e-2;   // fp16 output rounding
    case Dtype::bf16: return 2e-2;   // bf16 output rounding (8 mantissa bits)
    case Dtype::fp8: return 3e-2;    // e4m3 inputs are exact in the reference; bf16 output rounding
  }
  return 1e-2;
}

}  // namespace gpuscout::bench
