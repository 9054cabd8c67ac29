#include "plan/hf_config.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <initializer_list>
#include <optional>

#include <fmt/format.h>

#include "core/i18n.hpp"
#include "core/json_position.hpp"
#include "core/text.hpp"
#include "core/user_file.hpp"
#include "plan/safetensors.hpp"

namespace gpuscout::plan {
namespace {

using nlohmann::json;

/// A value as it appears in the file, shortened for a message.
std::string shown(const json& v) {
  std::string text = v.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

/// Reads positive integers from a config, recording missing and bad fields.
class Fields {
 public:
  Fields(const json& config, std::string_view source) : config_(config), source_(source) {}

  /// The first of `names` present (and not null); records the first name as missing when none is.
  std::optional<uint64_t> positive(std::initializer_list<const char*> names, bool required) {
    for (const char* name : names) {
      const auto it = config_.find(name);
      if (it == config_.end() || it->is_null()) continue;
      if (it->is_number_unsigned() && it->get<uint64_t>() > 0) return it->get<uint64_t>();
      if (it->is_number_float()) {
        const double v = it->get<double>();
        if (v >= 1 && v < 1e15 && std::floor(v) == v) return static_cast<uint64_t>(v);
      }
      bad_.push_back(trf("{} must be a positive whole number (got {})", name, shown(*it)));
      return std::nullopt;
    }
    if (required) missing_.emplace_back(*names.begin());
    return std::nullopt;
  }
  std::optional<bool> boolean(const char* name) {
    const auto it = config_.find(name);
    if (it == config_.end() || it->is_null()) return std::nullopt;
    if (it->is_boolean()) return it->get<bool>();
    bad_.push_back(trf("{} must be true or false (got {})", name, shown(*it)));
    return std::nullopt;
  }
  std::optional<double> number(const char* name) {
    const auto it = config_.find(name);
    if (it == config_.end() || it->is_null() || !it->is_number()) return std::nullopt;
    return it->get<double>();
  }
  std::optional<std::string> string(const char* name) {
    const auto it = config_.find(name);
    if (it == config_.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
  }
  const std::vector<std::string>& missing() const { return missing_; }
  const std::vector<std::string>& bad() const { return bad_; }

 private:
  const json& config_;
  std::string_view source_;
  std::vector<std::string> missing_;
  std::vector<std::string> bad_;
};

std::optional<std::string> normalise_dtype(std::string_view torch_dtype) {
  if (torch_dtype == "bfloat16") return "bf16";
  if (torch_dtype == "float16") return "fp16";
  if (torch_dtype == "float32") return "fp32";
  return std::nullopt;
}

bool bool_field(const json& o, const char* key) {
  const auto it = o.find(key);
  return it != o.end() && it->is_boolean() && it->get<bool>();
}
std::string string_field(const json& o, const char* key) {
  const auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}
std::optional<double> number_field(const json& o, const char* key) {
  const auto it = o.find(key);
  if (it == o.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

std::optional<Quantization> read_quantization(const json& config, std::vector<std::string>& warnings,
                                              std::string_view source) {
  const auto it = config.find("quantization_config");
  if (it == config.end() || !it->is_object()) return std::nullopt;
  const json& q = *it;
  std::string method = string_field(q, "quant_method");
  if (method.empty() && (q.contains("load_in_4bit") || q.contains("load_in_8bit"))) method = "bitsandbytes";
  Quantization out;
  out.method = method;
  if (method == "bitsandbytes") {
    if (bool_field(q, "load_in_4bit")) out.format = "nf4";  // fp4 has the same footprint
    else if (bool_field(q, "load_in_8bit")) out.format = "int8";
  } else if (method == "gptq" || method == "awq" || method == "aqlm" || method == "hqq" || method == "eetq") {
    const double bits = number_field(q, "bits").value_or(number_field(q, "w_bit").value_or(4));
    out.format = bits <= 4 ? "int4" : "int8";
  } else if (method == "fp8" || method == "fbgemm_fp8") {
    out.format = "fp8";
  } else if (method == "mxfp4") {
    out.format = "mxfp4";
  }
  if (out.format.empty()) {
    warnings.push_back(trf("{}: quantization_config method '{}' is not one we size; give --dtype", source,
                           method.empty() ? tr("(none)") : method));
    return std::nullopt;
  }
  return out;
}

/// Family conventions, as each model_type's modelling code builds its layers.
bool apply_family(ModelShape& s, const std::string& type, Fields& f) {
  const auto tie = f.boolean("tie_word_embeddings");
  if (type == "llama" || type == "mistral" || type == "mixtral" || type == "qwen2" || type == "phi3" ||
      type == "gemma" || type == "gemma2" || type == "gemma3_text" || type == "qwen3" || type == "qwen3_moe" ||
      type == "llama4_text" || type == "deepseek_v2" || type == "deepseek_v3" || type == "gpt_oss") {
    s.arch = Arch::decoder;
    s.norm = Norm::rms;
    s.mlp = Mlp::gated;
    const bool gemma = type == "gemma" || type == "gemma2" || type == "gemma3_text";
    s.tie_word_embeddings = tie.value_or(gemma);
    if (type == "llama" || type == "qwen3" || type == "qwen3_moe") {
      const bool bias = f.boolean("attention_bias").value_or(false);
      s.qkv_bias = s.o_bias = bias;
      s.mlp_bias = f.boolean("mlp_bias").value_or(false);
    }
    if (type == "qwen2") s.qkv_bias = true;
    if (type == "gemma2" || type == "gemma3_text") s.norms_per_layer = 4;
    s.qk_norm = type == "qwen3" || type == "qwen3_moe" || type == "gemma3_text";
    if (type == "gpt_oss") {
      s.qkv_bias = s.o_bias = f.boolean("attention_bias").value_or(true);
      s.mlp_bias = true;  // the experts' gate_up and down biases
      s.router_bias = true;
      s.attention_sinks = true;
    }
    if (type == "deepseek_v3") s.router_bias = f.string("topk_method").value_or("noaux_tc") == "noaux_tc";
    return true;
  }
  if (type == "phi") {
    s.arch = Arch::decoder;
    s.norm = Norm::layer;
    s.norms_per_layer = 1;  // attention and MLP run in parallel off one LayerNorm
    s.qkv_bias = s.o_bias = s.mlp_bias = true;
    s.mlp = Mlp::plain;
    s.lm_head_bias = true;
    s.tie_word_embeddings = tie.value_or(false);
    s.dropout = f.number("resid_pdrop").value_or(0) > 0;
    return true;
  }
  if (type == "gpt2") {
    s.arch = Arch::decoder;
    s.norm = Norm::layer;
    s.qkv_bias = s.o_bias = s.mlp_bias = true;
    s.mlp = Mlp::plain;
    s.tie_word_embeddings = tie.value_or(true);
    s.dropout = f.number("resid_pdrop").value_or(0.1) > 0;
    return true;
  }
  if (type == "bert") {
    s.arch = Arch::encoder;
    s.norm = Norm::layer;
    s.qkv_bias = s.o_bias = s.mlp_bias = true;
    s.mlp = Mlp::plain;
    s.lm_head = false;
    s.final_norm = false;
    s.embedding_norm = true;
    s.pooler = true;
    s.dropout = f.number("hidden_dropout_prob").value_or(0.1) > 0;
    return true;
  }
  if (type == "vit") {
    s.arch = Arch::vit;
    s.norm = Norm::layer;
    s.qkv_bias = f.boolean("qkv_bias").value_or(true);
    s.o_bias = s.mlp_bias = true;
    s.mlp = Mlp::plain;
    s.lm_head = false;
    s.dropout = f.number("hidden_dropout_prob").value_or(0) > 0;
    return true;
  }
  return false;
}

}  // namespace

namespace {
Result<ConfigRead> read_config(const json& config, std::string_view source);
}  // namespace

Result<ConfigRead> shape_from_config(const json& config, std::string_view source) {
  try {
    return read_config(config, source);
  } catch (const json::exception& e) {
    return fail(trf("{}: unexpected value in the config: {}", source, e.what()));
  }
}

namespace {

/// A CNN has no transformer shape: its count and activations are data, so only the catalogue sizes one.
Result<ConfigRead> read_fixed_shape(Fields& f, ConfigRead out, std::string_view source) {
  ModelShape& s = out.shape;
  s.arch = Arch::fixed;
  const auto params = f.positive({"gpuscout_params"}, true);
  const auto act = f.positive({"gpuscout_activation_bytes_per_sample"}, true);
  const auto image = f.positive({"gpuscout_image_size"}, false);
  if (!f.bad().empty() || !f.missing().empty())
    return fail(trf("{}: model_type '{}' is sized only from the built-in catalogue (use --model "
                    "resnet-50, --model unet, or --params)",
                    source, s.model_type));
  s.fixed_params = *params;
  s.activation_bytes_per_sample = *act;
  s.image_size = image.value_or(0);
  return out;
}

/// The size fields as the config spells them, before defaults.
struct RawSizes {
  std::optional<uint64_t> hidden, layers, heads, vocab, inter, kv, head_dim, max_pos, experts, experts_per_tok;
  std::optional<uint64_t> image, patch, channels, labels;  ///< ViT
  std::optional<uint64_t> type_vocab;                      ///< encoders
};

RawSizes read_sizes(Fields& f, const ModelShape& s) {
  RawSizes r;
  r.hidden = f.positive({"hidden_size", "n_embd", "d_model"}, true);
  r.layers = f.positive({"num_hidden_layers", "n_layer", "num_layers"}, true);
  r.heads = f.positive({"num_attention_heads", "n_head"}, true);
  r.vocab = s.arch == Arch::vit ? std::optional<uint64_t>(0) : f.positive({"vocab_size"}, true);
  r.inter = f.positive({"intermediate_size", "n_inner", "ffn_dim"}, s.model_type != "gpt2");
  r.kv = f.positive({"num_key_value_heads", "num_kv_heads"}, false);
  r.head_dim = f.positive({"head_dim"}, false);
  r.max_pos = f.positive({"max_position_embeddings", "n_positions", "n_ctx"}, false);
  r.experts = f.positive({"num_local_experts", "num_experts", "n_routed_experts"}, false);
  r.experts_per_tok = f.positive({"num_experts_per_tok", "experts_per_token"}, false);
  if (s.arch == Arch::vit) {
    r.image = f.positive({"image_size"}, true);
    r.patch = f.positive({"patch_size"}, true);
    r.channels = f.positive({"num_channels"}, false);
    r.labels = f.positive({"num_labels"}, false);
  }
  if (s.arch == Arch::encoder) r.type_vocab = f.positive({"type_vocab_size"}, false);
  return r;
}

/// A known family's config without a field the shape needs.
std::unexpected<Error> lacks_fields(const Fields& f, const ModelShape& s, std::string_view source) {
  return fail(trf("{}: {} config lacks {}; give the size instead with --params (e.g. --params 7B)", source,
                  s.model_type, text::join(f.missing(), ", ")));
}

/// Fails when a field is malformed or a needed one is missing; warns when the family is a guess.
Result<void> check_fields(const Fields& f, bool known, const ModelShape& s, std::string_view source,
                          std::vector<std::string>& warnings) {
  if (!f.bad().empty()) return fail(fmt::format("{}: {}", source, text::join(f.bad(), "; ")));
  const std::string type = s.model_type.empty() ? tr("(none)") : s.model_type;
  if (!f.missing().empty()) {
    if (!known)
      return fail(trf("{}: model_type '{}' is not one gpuscout knows, and the config lacks {} to read it as "
                      "a Llama-style decoder; give the size instead with --params (e.g. --params 7B)",
                      source, type, text::join(f.missing(), ", ")));
    return lacks_fields(f, s, source);
  }
  if (!known)
    warnings.push_back(trf("{}: model_type '{}' is not one gpuscout knows; read as a Llama-style decoder "
                           "(RMSNorm, gated MLP, no biases): counts may be off by a few percent",
                           source, type));
  return {};
}

/// The transformer's sizes with the defaults transformers applies; fails when they contradict each other.
Result<void> apply_sizes(const RawSizes& r, ModelShape& s, std::string_view source) {
  const bool gpt2 = s.model_type == "gpt2";
  s.hidden_size = *r.hidden;
  s.num_layers = *r.layers;
  s.num_heads = *r.heads;
  s.vocab_size = *r.vocab;
  s.intermediate_size = r.inter ? *r.inter : 4 * s.hidden_size;  // gpt2: n_inner null means 4 x n_embd
  s.num_kv_heads = r.kv ? *r.kv : s.num_heads;
  s.head_dim = r.head_dim ? *r.head_dim : s.hidden_size / s.num_heads;
  if (s.head_dim == 0) return fail(trf("{}: hidden size {} is smaller than the {} heads", source, s.hidden_size, s.num_heads));
  if (s.num_kv_heads > s.num_heads || s.num_heads % s.num_kv_heads != 0)
    return fail(trf("{}: {} key/value heads do not divide {} attention heads", source, s.num_kv_heads,
                    s.num_heads));
  s.max_position_embeddings = r.max_pos;
  if (gpt2 || s.arch == Arch::encoder) s.learned_positions = r.max_pos.value_or(gpt2 ? 1024 : 512);
  if (s.arch == Arch::encoder) s.token_types = r.type_vocab.value_or(2);
  if (r.experts && *r.experts > 1) {
    s.num_experts = *r.experts;
    s.experts_per_token = r.experts_per_tok.value_or(2);
    if (s.experts_per_token > s.num_experts)
      return fail(trf("{}: num_experts_per_tok {} is more than the {} experts", source, s.experts_per_token,
                      s.num_experts));
  }
  return {};
}

/// Entries of a config list equal to `value` (layer_types: "sliding_attention"; no_rope_layers: 1).
size_t count_in_list(const json& config, const char* key, const json& value) {
  const auto it = config.find(key);
  if (it == config.end() || !it->is_array()) return 0;
  return static_cast<size_t>(std::count(it->begin(), it->end(), value));
}
bool has_list(const json& config, const char* key) {
  const auto it = config.find(key);
  return it != config.end() && it->is_array() && !it->empty();
}

/// Routed-expert layouts: expert and dense widths, shared experts, dense layers between routed ones.
void apply_moe_layout(const json& config, Fields& f, ModelShape& s) {
  if (s.num_experts == 0) return;
  const uint64_t layers = s.num_layers;
  if (auto moe = f.positive({"moe_intermediate_size"}, false)) {  // DeepSeek, Qwen-MoE
    s.dense_intermediate_size = s.intermediate_size;
    s.intermediate_size = *moe;
  }
  if (auto dense = f.positive({"intermediate_size_mlp"}, false)) s.dense_intermediate_size = *dense;  // Llama 4
  if (auto shared = f.positive({"n_shared_experts"}, false)) s.shared_intermediate_size = *shared * s.intermediate_size;
  if (auto shared = f.positive({"shared_expert_intermediate_size"}, false)) s.shared_intermediate_size = *shared;
  if (s.model_type == "llama4_text") {
    s.shared_intermediate_size = s.intermediate_size;  // one shared expert beside the routed ones
    const uint64_t step = f.positive({"interleave_moe_layer_step"}, false).value_or(1);
    s.dense_layers = layers - layers / step;
  }
  if (auto first = f.positive({"first_k_dense_replace"}, false)) {  // DeepSeek: layer i >= k with i % freq == 0
    const uint64_t freq = f.positive({"moe_layer_freq"}, false).value_or(1);
    uint64_t routed = 0;
    for (uint64_t i = std::min(*first, layers); i < layers; ++i) routed += (i % freq == 0) ? 1 : 0;
    s.dense_layers = layers - routed;
  }
  if (s.model_type == "qwen3_moe" || s.model_type == "qwen2_moe") {  // sparse every step-th layer, listed ones dense
    const uint64_t step = f.positive({"decoder_sparse_step"}, false).value_or(1);
    uint64_t routed = 0;
    const auto only = config.find("mlp_only_layers");
    for (uint64_t i = 0; i < layers; ++i) {
      const bool listed = only != config.end() && only->is_array() && std::count(only->begin(), only->end(), i) > 0;
      routed += (!listed && (i + 1) % step == 0) ? 1 : 0;
    }
    s.dense_layers = layers - routed;
  }
}

/// Which layers attend locally (sliding window, Llama 4's chunks), as each family's modelling code decides.
void apply_local_attention(const json& config, Fields& f, ModelShape& s) {
  const std::string& type = s.model_type;
  const uint64_t layers = s.num_layers;
  std::optional<uint64_t> window = f.positive({"sliding_window"}, false);
  uint64_t local = 0;
  if (type == "llama4_text") {
    window = f.positive({"attention_chunk_size"}, false);
    const uint64_t interval = f.positive({"no_rope_layer_interval"}, false).value_or(4);
    local = has_list(config, "no_rope_layers") ? count_in_list(config, "no_rope_layers", 1) : layers - layers / interval;
  } else if (has_list(config, "layer_types")) {
    local = count_in_list(config, "layer_types", "sliding_attention") +
            count_in_list(config, "layer_types", "chunked_attention");
  } else if (auto pattern = f.positive({"sliding_window_pattern"}, false)) {
    local = layers - layers / *pattern;  // layer i is global when (i + 1) % pattern == 0 (Gemma 3)
  } else if (type == "gemma3_text") {
    local = layers - layers / 6;
  } else if (type == "gemma2" || type == "gpt_oss") {
    local = (layers + 1) / 2;  // even layers slide
  } else if (type == "mistral" || type == "mixtral" || type == "phi3") {
    local = layers;
  } else if ((type == "qwen2" || type == "qwen3" || type == "qwen3_moe") && f.boolean("use_sliding_window").value_or(false)) {
    const uint64_t from = f.positive({"max_window_layers"}, false).value_or(0);
    local = layers > from ? layers - from : 0;
  }
  if (!window || local == 0) return;
  s.sliding_window = *window;
  s.sliding_layers = std::min<uint64_t>(local, layers);
}

/// Multi-head latent attention: present when the config has a KV latent rank.
void apply_mla(Fields& f, ModelShape& s) {
  const auto kv_rank = f.positive({"kv_lora_rank"}, false);
  if (!kv_rank) return;
  ModelShape::Mla m;
  m.kv_lora_rank = *kv_rank;
  m.q_lora_rank = f.positive({"q_lora_rank"}, false).value_or(0);
  m.qk_nope_head_dim = f.positive({"qk_nope_head_dim"}, true).value_or(0);
  m.qk_rope_head_dim = f.positive({"qk_rope_head_dim"}, true).value_or(0);
  m.v_head_dim = f.positive({"v_head_dim"}, true).value_or(0);
  s.mla = m;
  s.head_dim = m.qk_nope_head_dim + m.qk_rope_head_dim;
  s.num_kv_heads = s.num_heads;  // every head gets its own K and V back from the latent
}

/// The architecture beyond the basic sizes; fails on a malformed field.
Result<void> apply_variants(const json& config, Fields& f, ModelShape& s, std::string_view source) {
  apply_moe_layout(config, f, s);
  apply_local_attention(config, f, s);
  apply_mla(f, s);
  if (!f.bad().empty()) return fail(fmt::format("{}: {}", source, text::join(f.bad(), "; ")));
  if (!f.missing().empty()) return lacks_fields(f, s, source);
  return {};
}

Result<void> apply_vit_sizes(const RawSizes& r, const json& config, ModelShape& s, std::string_view source) {
  s.image_size = *r.image;
  s.patch_size = *r.patch;
  s.num_channels = r.channels.value_or(3);
  if (s.patch_size > s.image_size)
    return fail(trf("{}: patch_size {} is larger than image_size {}", source, s.patch_size, s.image_size));
  uint64_t n = r.labels.value_or(0);
  if (n == 0) {
    const auto it = config.find("id2label");
    n = (it != config.end() && it->is_object() && !it->empty()) ? it->size() : 2;  // transformers' default
  }
  s.num_labels = n;
  return {};
}

/// Guards the arithmetic: real models are far below these bounds.
bool sizes_in_range(const ModelShape& s) {
  return s.hidden_size <= (1u << 20) && s.intermediate_size <= (1u << 22) && s.num_layers <= 10000 &&
         s.num_heads <= 65536 && s.head_dim <= 65536 && s.vocab_size <= (1u << 24) && s.num_experts <= 65536 &&
         s.learned_positions <= (1u << 24) && s.image_size <= (1u << 16) && s.dense_intermediate_size <= (1u << 22) &&
         s.shared_intermediate_size <= (1u << 24) && s.sliding_window <= (1u << 30) &&
         (!s.mla || (s.mla->kv_lora_rank <= 65536 && s.mla->q_lora_rank <= 65536 && s.mla->qk_nope_head_dim <= 65536 &&
                     s.mla->qk_rope_head_dim <= 65536 && s.mla->v_head_dim <= 65536));
}

/// A multimodal checkpoint (Gemma 3, Llama 4, Mistral 3) keeps its language model in text_config: that object,
/// with the checkpoint-wide fields it lacks. Its own text_config is dropped, so this nests one level only.
std::optional<json> text_model_config(const json& config) {
  const auto it = config.find("text_config");
  if (it == config.end() || !it->is_object() || config.contains("hidden_size")) return std::nullopt;
  json text = *it;
  text.erase("text_config");
  const auto type = config.find("model_type");
  if (!text.contains("model_type") && type != config.end() && type->is_string())
    text["model_type"] = type->get<std::string>() + "_text";
  for (const char* key : {"_name_or_path", "quantization_config", "torch_dtype", "dtype", "tie_word_embeddings",
                          "vision_config", "gpuscout_default_batch"})
    if (config.contains(key) && !text.contains(key)) text[key] = config[key];
  return text;
}

/// The vision encoder of a multimodal checkpoint counted as a plain ViT (SigLIP-style: no class token, a final
/// LayerNorm) plus a normed linear projector into the language model, exact for Gemma 3's SigLIP; 0 when
/// vision_config lacks a size.
uint64_t vision_encoder_params(const json& config, uint64_t text_hidden) {
  const auto it = config.find("vision_config");
  if (it == config.end() || !it->is_object()) return 0;
  Fields f(*it, "vision_config");
  const auto h = f.positive({"hidden_size"}, false);
  const auto i = f.positive({"intermediate_size"}, false);
  const auto layers = f.positive({"num_hidden_layers"}, false);
  const auto patch = f.positive({"patch_size"}, false);
  const auto image = f.positive({"image_size"}, false);
  const uint64_t channels = f.positive({"num_channels"}, false).value_or(3);
  if (!h || !i || !layers || !patch || !image || !f.bad().empty()) return 0;
  if (*h > 65536 || *i > 262144 || *layers > 1000 || *patch > *image || *image > 65536 || channels > 64) return 0;
  const uint64_t per_layer = 4 * (*h * *h + *h) + 2 * *h * *i + *i + *h + 4 * *h;  // attention, MLP, 2 LayerNorms
  const uint64_t side = *image / *patch;
  const uint64_t embeddings = channels * *patch * *patch * *h + *h + side * side * *h;
  return *layers * per_layer + embeddings + 2 * *h + *h * text_hidden + *h;  // projector and its input norm
}

Result<ConfigRead> read_config(const json& config, std::string_view source) {
  if (!config.is_object()) return fail(trf("{}: a config.json must be a JSON object", source));
  if (auto text = text_model_config(config)) return read_config(*text, source);
  ConfigRead out;
  ModelShape& s = out.shape;
  Fields f(config, source);
  s.source = std::string(source);
  s.model_type = f.string("model_type").value_or("");
  s.name = f.string("_name_or_path").value_or("");
  // The batch a course trains this model with (catalogue rows of vision models); --batch overrides it.
  const auto default_batch = f.positive({"gpuscout_default_batch"}, false);
  if (default_batch && *default_batch > 4096) return fail(trf("{}: gpuscout_default_batch is too large", source));
  s.default_batch = default_batch.value_or(0);
  if (s.model_type == "resnet" || s.model_type == "unet") return read_fixed_shape(f, std::move(out), source);

  const bool known = apply_family(s, s.model_type, f);
  if (!known) {
    // Read it as a Llama-style decoder if it carries the fields that needs.
    s.arch = Arch::decoder;
    s.tie_word_embeddings = f.boolean("tie_word_embeddings").value_or(false);
  }
  const RawSizes raw = read_sizes(f, s);
  if (auto checked = check_fields(f, known, s, source, out.warnings); !checked) return std::unexpected(checked.error());
  if (auto applied = apply_sizes(raw, s, source); !applied) return std::unexpected(applied.error());
  if (auto variants = apply_variants(config, f, s, source); !variants) return std::unexpected(variants.error());
  if (s.arch == Arch::vit) {
    if (auto vit = apply_vit_sizes(raw, config, s, source); !vit) return std::unexpected(vit.error());
  }
  if (!sizes_in_range(s)) return fail(trf("{}: sizes out of range for a real model", source));

  s.quantization = read_quantization(config, out.warnings, source);
  if (config.contains("vision_config")) {
    s.vision_params = vision_encoder_params(config, s.hidden_size);
    if (!s.vision_params)
      out.warnings.push_back(trf("{}: the vision encoder is not counted: vision_config lacks its sizes", source));
    else if (s.model_type != "gemma3_text")
      out.warnings.push_back(trf("{}: the vision encoder is counted as a plain ViT from vision_config ({} "
                                 "parameters, approximate)",
                                 source, s.vision_params));
  }
  if (auto d = f.string("torch_dtype"); d) s.torch_dtype = normalise_dtype(*d);
  else if (auto d2 = f.string("dtype"); d2) s.torch_dtype = normalise_dtype(*d2);
  return out;
}
}  // namespace

Result<ConfigRead> parse_hf_config(std::string_view text, std::string_view source) {
  // "SOURCE: line L column C: not valid JSON ..." or "... nested more than 128 levels deep ..."
  auto config = core::parse_json(text);
  if (!config) return fail(fmt::format("{}: {}", source, config.error().message));
  return shape_from_config(*config, source);
}

namespace {

// The folder's *.safetensors files, sorted, so the first bad one named is always the same. Only
// error_code calls: a link loop or a vanished entry is an error naming the file, never an exception.
Result<std::vector<std::string>> list_shards(const std::string& folder) {
  namespace fs = std::filesystem;
  std::vector<std::string> shards;
  std::error_code ec;
  fs::directory_iterator it(folder, ec);
  for (const fs::directory_iterator end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".safetensors") shards.push_back(it->path().string());
  if (ec) return fail(trf("{}: cannot list the folder: {}", folder, ec.message()));
  std::sort(shards.begin(), shards.end());
  for (const auto& shard : shards) {
    const auto status = fs::status(shard, ec);  // follows links: a Hugging Face snapshot links to its blobs
    if (ec) return fail(trf("{}: cannot be read: {}", shard, ec.message()));
    if (!fs::is_regular_file(status))
      return fail(trf("{}: not a regular file, so its tensor sizes cannot be read", shard));
  }
  return shards;
}

Result<TensorTotals> sum_shards(const std::vector<std::string>& shards) {
  TensorTotals all;
  for (const auto& shard : shards) {
    auto t = read_safetensors_header(shard);
    if (!t) return std::unexpected(t.error());
    all.tensors += t->tensors;
    all.elements += t->elements;
    all.bytes += t->bytes;
    for (const auto& [k, v] : t->bytes_by_dtype) all.bytes_by_dtype[k] += v;
  }
  return all;
}

// Exact bytes from the checkpoint: every *.safetensors header, else the index's total_size.
Result<void> read_checkpoint_bytes(const std::string& folder, ModelShape& shape) {
  namespace fs = std::filesystem;
  auto shards = list_shards(folder);
  if (!shards) return std::unexpected(shards.error());
  if (!shards->empty()) {
    auto all = sum_shards(*shards);
    if (!all) return std::unexpected(all.error());
    shape.checkpoint_bytes = all->bytes;
    if (all->bytes_by_dtype.size() == 1) {
      const std::string d = all->bytes_by_dtype.begin()->first;
      if (d == "BF16") shape.checkpoint_dtype = "bf16";
      else if (d == "F16") shape.checkpoint_dtype = "fp16";
      else if (d == "F32") shape.checkpoint_dtype = "fp32";
      if (shape.checkpoint_dtype) shape.checkpoint_params = all->elements;
    }
    return {};
  }
  std::error_code ec;
  const auto index = (fs::path(folder) / "model.safetensors.index.json").string();
  if (!fs::exists(fs::symlink_status(index, ec))) return {};
  auto text = core::read_user_file(index, 64ULL << 20);
  if (!text) return std::unexpected(text.error());
  auto total = parse_safetensors_index(*text, index);
  if (!total) return std::unexpected(total.error());
  shape.checkpoint_bytes = *total;
  return {};
}

}  // namespace

Result<ConfigRead> load_hf_config(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const bool folder = fs::is_directory(path, ec);
  const std::string config_path = folder ? (fs::path(path) / "config.json").string() : path;
  if (!fs::exists(fs::symlink_status(config_path, ec)))
    return fail(folder ? trf("{}: the folder has no config.json", path)
                       : trf("{}: no such file", path));
  auto text = core::read_user_file(config_path, 16ULL << 20);
  if (!text) return std::unexpected(text.error());
  auto read = parse_hf_config(*text, config_path);
  if (!read) return read;
  if (read->shape.name.empty()) {
    // "models/llama/" names the model "llama", not "".
    const fs::path p = fs::path(path).lexically_normal();
    read->shape.name = folder ? (p.has_filename() ? p : p.parent_path()).filename().string() : config_path;
  }
  if (!folder) return read;
  if (auto bytes = read_checkpoint_bytes(path, read->shape); !bytes) return std::unexpected(bytes.error());
  return read;
}

}  // namespace gpuscout::plan
