#include "plan/safetensors.hpp"

#include <limits>

#include <fmt/format.h>

#include "core/i18n.hpp"
#include "core/json.hpp"
#include "core/json_position.hpp"
#include "core/user_file.hpp"

namespace gpuscout::plan {
namespace {

constexpr uint64_t kMaxHeaderBytes = 100ULL << 20;  // the format's own limit is 100 MB

bool mul_overflows(uint64_t a, uint64_t b) { return a != 0 && b > std::numeric_limits<uint64_t>::max() / a; }

// The header length: the first 8 bytes, little-endian (the caller checks there are 8).
uint64_t header_length(std::string_view prefix) {
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(prefix[static_cast<size_t>(i)]);
  return n;
}

}  // namespace

uint64_t safetensors_dtype_bytes(std::string_view d) {
  if (d == "F64" || d == "I64" || d == "U64") return 8;
  if (d == "F32" || d == "I32" || d == "U32") return 4;
  if (d == "F16" || d == "BF16" || d == "I16" || d == "U16") return 2;
  if (d == "I8" || d == "U8" || d == "BOOL" || d == "F8_E4M3" || d == "F8_E5M2" || d == "F8_E8M0") return 1;
  return 0;
}

Result<TensorTotals> parse_safetensors_header(std::string_view header_json, std::string_view source) {
  auto parsed = core::parse_json(header_json);
  if (!parsed) return fail(fmt::format("{}: {}", source, parsed.error().message));
  const nlohmann::json doc = std::move(*parsed);
  if (!doc.is_object()) return fail(trf("{}: the safetensors header is not a JSON object", source));
  TensorTotals totals;
  for (const auto& [name, tensor] : doc.items()) {
    if (name == "__metadata__") continue;
    if (!tensor.is_object() || !tensor.contains("dtype") || !tensor["dtype"].is_string() ||
        !tensor.contains("shape") || !tensor["shape"].is_array())
      return fail(trf("{}: tensor '{}' has no dtype or shape", source, name));
    const std::string dtype = tensor["dtype"].get<std::string>();
    const uint64_t width = safetensors_dtype_bytes(dtype);
    if (width == 0) return fail(trf("{}: tensor '{}' has an unknown dtype '{}'", source, name, dtype));
    uint64_t elements = 1;
    for (const auto& dim : tensor["shape"]) {
      if (!dim.is_number_unsigned()) return fail(trf("{}: tensor '{}' has a bad shape", source, name));
      const uint64_t d = dim.get<uint64_t>();
      if (mul_overflows(elements, d)) return fail(trf("{}: tensor '{}' is impossibly large", source, name));
      elements *= d;
    }
    if (mul_overflows(elements, width)) return fail(trf("{}: tensor '{}' is impossibly large", source, name));
    const uint64_t bytes = elements * width;
    if (totals.bytes > std::numeric_limits<uint64_t>::max() - bytes)
      return fail(trf("{}: tensor sizes overflow", source));
    ++totals.tensors;
    totals.elements += elements;
    totals.bytes += bytes;
    totals.bytes_by_dtype[dtype] += bytes;
  }
  return totals;
}

Result<TensorTotals> parse_safetensors_prefix(std::string_view prefix, std::string_view source) {
  if (prefix.size() < 8) return fail(trf("{}: too short to be a safetensors file", source));
  const uint64_t n = header_length(prefix);
  if (n == 0 || n > kMaxHeaderBytes) return fail(trf("{}: bad safetensors header length {}", source, n));
  if (prefix.size() - 8 < n) return fail(trf("{}: truncated safetensors header", source));
  return parse_safetensors_header(prefix.substr(8, n), source);
}

Result<uint64_t> parse_safetensors_index(std::string_view text, std::string_view source) {
  auto parsed = core::parse_json(text);
  if (!parsed) return fail(fmt::format("{}: {}", source, parsed.error().message));
  const nlohmann::json doc = std::move(*parsed);
  if (!doc.is_object()) return fail(trf("{}: not a JSON object", source));
  const auto meta = doc.find("metadata");
  if (meta == doc.end() || !meta->is_object() || !meta->contains("total_size"))
    return fail(trf("{}: no metadata.total_size", source));
  const auto& size = (*meta)["total_size"];
  if (size.is_number_unsigned() && size.get<uint64_t>() > 0) return size.get<uint64_t>();
  if (size.is_number_float() && size.get<double>() >= 1 && size.get<double>() < 1.8e19)
    return static_cast<uint64_t>(size.get<double>());
  return fail(trf("{}: metadata.total_size is not a positive number", source));
}

Result<TensorTotals> read_safetensors_header(const std::string& path) {
  // Only the header: the weights behind it may be many gigabytes.
  auto length = core::read_user_file_prefix(path, 8);
  if (!length) return std::unexpected(length.error());
  if (length->size() < 8) return fail(trf("{}: too short to be a safetensors file", path));
  const uint64_t n = header_length(*length);
  if (n == 0 || n > kMaxHeaderBytes) return fail(trf("{}: bad safetensors header length {}", path, n));
  auto prefix = core::read_user_file_prefix(path, 8 + n);
  if (!prefix) return std::unexpected(prefix.error());
  return parse_safetensors_prefix(*prefix, path);
}

}  // namespace gpuscout::plan
