#pragma once
/// Reads a Hugging Face `config.json` into a ModelShape.
/// Families: llama, mistral, mixtral, qwen2, gemma, gemma2, phi, phi3, gpt2, bert, vit (and, from the
/// catalogue only, "resnet" with a fixed count). A model_type we do not know is read as a Llama-style
/// decoder when every field that needs is present (with a warning), else the error lists the missing
/// fields and says that --params works.
/// Errors: "PATH:LINE:COLUMN: not valid JSON: ..." for malformed text, "PATH: <field> ..." for bad values.
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/json.hpp"
#include "plan/model_shape.hpp"

namespace gpuscout::plan {

/// Warnings the reader raised (unknown model_type read as llama-like, unknown quantisation method).
struct ConfigRead {
  ModelShape shape;
  std::vector<std::string> warnings;
};

/// Pure: config.json text in, shape out. `source` names the text in messages.
Result<ConfigRead> parse_hf_config(std::string_view text, std::string_view source);
/// The same from an already parsed JSON object (the catalogue builds one per data row).
Result<ConfigRead> shape_from_config(const nlohmann::json& config, std::string_view source);

/// I/O shell: PATH is a config.json, or a model folder holding config.json and optionally
/// *.safetensors files (their headers give exact tensor bytes) or model.safetensors.index.json
/// (its metadata.total_size).
Result<ConfigRead> load_hf_config(const std::string& path);

}  // namespace gpuscout::plan
