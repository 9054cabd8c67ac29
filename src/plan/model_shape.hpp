#pragma once
/// A model's architecture as the memory model needs it, and exact parameter counting.
/// Shapes come from three places that all end in the same struct: a Hugging Face config.json
/// (plan/hf_config.hpp), a row of the built-in catalogue data/models.csv (plan/catalogue.hpp, which goes
/// through the same config reader), or `--params 7B` (generic_shape(): a Llama-style scaling family).
/// Counts are plain numbers of parameters (not bytes); bytes are decided later by the workload's format.
#include <cstdint>
#include <optional>
#include <string>

namespace gpuscout::plan {

enum class Arch {
  decoder,  ///< causal LM: llama, mistral, mixtral, qwen2, gemma, gemma2, phi, phi3, gpt2
  encoder,  ///< BERT-style encoder (AutoModel: no LM head, a pooler)
  vit,      ///< vision transformer with a classification head
  fixed,    ///< no transformer shape (ResNet-50): the parameter count and per-sample activations are data
};
enum class Norm { rms, layer };  ///< RMSNorm: a weight per channel; LayerNorm: weight and bias
enum class Mlp { gated, plain }; ///< gated: gate/up/down (SwiGLU, GeGLU); plain: fc1/fc2 with an activation

/// Quantisation declared by a checkpoint (config.json `quantization_config`).
struct Quantization {
  std::string method;  ///< "bitsandbytes", "gptq", "awq", "fp8", ...
  std::string format;  ///< our weight format name: "nf4", "int4", "int8", "fp8"
};

struct ModelShape {
  std::string name;        ///< "llama-3-8b", a config path, or "generic 7B"
  std::string model_type;  ///< Hugging Face model_type ("llama"); "generic" for --params
  Arch arch = Arch::decoder;
  uint64_t hidden_size = 0;
  uint64_t intermediate_size = 0;  ///< per expert for MoE
  uint64_t num_layers = 0;
  uint64_t num_heads = 0;
  uint64_t num_kv_heads = 0;  ///< grouped-query attention: fewer K/V heads than query heads
  uint64_t head_dim = 0;
  uint64_t vocab_size = 0;
  bool tie_word_embeddings = false;
  std::optional<uint64_t> max_position_embeddings;
  uint64_t num_experts = 0;        ///< routed experts; 0 for a dense model
  uint64_t experts_per_token = 0;  ///< active experts (top-k routing)

  // Mixture-of-experts layouts beyond Mixtral's (every layer routed, no shared expert).
  uint64_t dense_layers = 0;              ///< layers with a dense MLP instead of experts (DeepSeek's first 3)
  uint64_t dense_intermediate_size = 0;   ///< their MLP width
  uint64_t shared_intermediate_size = 0;  ///< always-active shared experts of a routed layer, widths summed
  bool router_bias = false;               ///< gpt-oss's router bias, DeepSeek-V3's score-correction bias

  // Attention variants.
  struct Mla {  ///< multi-head latent attention (DeepSeek-V2/V3): K and V expand from one cached latent
    uint64_t q_lora_rank = 0;  ///< 0: a plain q_proj (V2-Lite)
    uint64_t kv_lora_rank = 0;
    uint64_t qk_nope_head_dim = 0;
    uint64_t qk_rope_head_dim = 0;
    uint64_t v_head_dim = 0;
  };
  std::optional<Mla> mla;
  uint64_t sliding_window = 0;   ///< tokens a local layer attends to (sliding window or Llama 4's chunk); 0: none
  uint64_t sliding_layers = 0;   ///< how many layers are local (Gemma 3: 5 of 6; gpt-oss: every other)
  bool qk_norm = false;          ///< RMSNorm of each head's q and k (Qwen3, Gemma 3): head_dim weights each
  bool attention_sinks = false;  ///< gpt-oss: one learned sink logit per head
  uint64_t vision_params = 0;    ///< a multimodal checkpoint's vision encoder and projector (kept 16-bit)

  // Family conventions (set from model_type, as the Hugging Face modelling code does).
  Norm norm = Norm::rms;
  uint64_t norms_per_layer = 2;  ///< llama 2, phi 1 (parallel block), gemma2 4
  bool final_norm = true;
  bool qkv_bias = false;
  bool o_bias = false;
  bool mlp_bias = false;
  bool lm_head = true;       ///< a vocab projection (untied unless tie_word_embeddings)
  bool lm_head_bias = false; ///< phi
  Mlp mlp = Mlp::gated;
  uint64_t learned_positions = 0;  ///< rows of a learned position table (gpt2 1024, bert 512)
  uint64_t token_types = 0;        ///< bert's segment embeddings
  bool embedding_norm = false;     ///< bert: LayerNorm after the embeddings
  bool pooler = false;             ///< bert: hidden x hidden dense + bias
  bool dropout = false;            ///< training stores dropout masks (gpt2, bert, vit)

  // Vision transformer (arch == vit).
  uint64_t image_size = 0;
  uint64_t patch_size = 0;
  uint64_t num_channels = 0;
  uint64_t num_labels = 0;

  uint64_t default_batch = 0;  ///< the batch a course uses for this model (vision models); 0 = none (1)

  // Fixed shapes (arch == fixed; image_size is the size their activation figure is for) and exact figures read
  // from checkpoint files.
  uint64_t fixed_params = 0;
  uint64_t activation_bytes_per_sample = 0;  ///< arch == fixed: stored activations per sample, 16-bit AMP
  std::optional<uint64_t> params_override;   ///< --params: the count the user asked for
  std::optional<uint64_t> checkpoint_bytes;  ///< sum of tensor bytes in the safetensors files
  std::optional<uint64_t> checkpoint_params; ///< sum of tensor elements in the safetensors files
  std::optional<std::string> checkpoint_dtype;  ///< "bf16" when every tensor has that dtype
  std::optional<Quantization> quantization;
  std::optional<std::string> torch_dtype;  ///< config.json torch_dtype, normalised ("bf16")
  std::string source;  ///< where the numbers came from (catalogue source, file path)
};

/// Parameter counts split the way quantisation treats them.
struct ParamCounts {
  uint64_t total = 0;
  uint64_t active = 0;       ///< per token (MoE: only the routed experts); == total for dense models
  uint64_t linear = 0;       ///< weight matrices inside the blocks: what int8/int4/nf4 shrink
  uint64_t expert_linear = 0;  ///< the routed experts' share of `linear` (all MXFP4 shrinks)
  uint64_t embedding = 0;    ///< token/position tables, the LM head or classifier: kept 16-bit
  uint64_t other = 0;        ///< norms, biases, pooler, patch embedding: kept 16-bit
  uint64_t per_layer = 0;    ///< one block, all experts
};

/// Exact count from the shape (see docs/fit.md for the per-family conventions).
ParamCounts count_params(const ModelShape& shape);

/// Widths of one token's attention projections in one layer, as the modelling code builds them.
struct AttentionWidths {
  uint64_t q = 0;    ///< queries (heads x head_dim; MLA: heads x (nope + rope))
  uint64_t k = 0;    ///< keys as attention uses them (after MLA's expansion)
  uint64_t v = 0;    ///< values
  uint64_t out = 0;  ///< the output projection's input (heads x value width)
};
AttentionWidths attention_widths(const ModelShape& shape);

/// MLP width one token goes through per layer, averaged over the layers: the routed experts it picks, the shared
/// experts, and the dense layers of a MoE model.
double active_mlp_width(const ModelShape& shape);

/// Elements the KV cache holds for `batch` sequences of `context_tokens`: keys and values of every layer, one
/// latent per token for MLA, at most the window's tokens for sliding-window (local) layers.
double kv_cache_elements(const ModelShape& shape, uint64_t context_tokens, uint64_t batch);

/// Tokens one sample puts through the blocks: the context for text, patches + 1 for a ViT.
uint64_t tokens_per_sample(const ModelShape& shape, uint64_t context_tokens);

/// A Llama-style decoder with about `params` parameters: head_dim 128, grouped-query attention with
/// 8 KV heads, SwiGLU MLP 3.5 x hidden (the Llama-3 ratio), vocabulary 32000, untied, hidden/layers
/// near 128 (as Llama-2 7B and 13B). params_override holds `params`, so totals are exactly what was asked.
ModelShape generic_shape(uint64_t params);

}  // namespace gpuscout::plan
