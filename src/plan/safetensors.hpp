#pragma once
/// safetensors checkpoints: exact tensor bytes without reading the weights.
/// A .safetensors file starts with an 8-byte little-endian header length N, then N bytes of JSON:
/// {"__metadata__": {...}, "<tensor>": {"dtype": "BF16", "shape": [4096, 4096], "data_offsets": [b, e]}}.
/// A sharded checkpoint's model.safetensors.index.json carries {"metadata": {"total_size": BYTES}}.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace gpuscout::plan {

struct TensorTotals {
  uint64_t tensors = 0;
  uint64_t elements = 0;  ///< parameters (packed 4-bit tensors count their bytes, not their weights)
  uint64_t bytes = 0;
  std::map<std::string, uint64_t> bytes_by_dtype;  ///< "BF16" -> bytes
};

/// Bytes per element of a safetensors dtype name ("BF16" 2, "F32" 4, "U8" 1, "F8_E4M3" 1); 0 if unknown.
uint64_t safetensors_dtype_bytes(std::string_view dtype);

/// Pure: the JSON header text (without the 8-byte length) in, totals out.
Result<TensorTotals> parse_safetensors_header(std::string_view header_json, std::string_view source);
/// Pure: the first bytes of a file (at least 8 + N) in, totals out; checks the length prefix.
Result<TensorTotals> parse_safetensors_prefix(std::string_view file_prefix, std::string_view source);
/// Pure: model.safetensors.index.json text in, metadata.total_size out.
Result<uint64_t> parse_safetensors_index(std::string_view text, std::string_view source);

/// I/O shell: reads the header of one .safetensors file (at most 100 MiB of header).
Result<TensorTotals> read_safetensors_header(const std::string& path);

}  // namespace gpuscout::plan
