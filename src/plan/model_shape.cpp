#include "plan/model_shape.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "core/i18n.hpp"

namespace gpuscout::plan {
namespace {

uint64_t norm_params(const ModelShape& s) { return s.norm == Norm::layer ? 2 * s.hidden_size : s.hidden_size; }

struct MlpCount {
  uint64_t linear = 0;
  uint64_t bias = 0;
};

MlpCount one_expert_mlp(const ModelShape& s, uint64_t width) {
  const uint64_t h = s.hidden_size;
  const uint64_t i = width;
  if (s.mlp == Mlp::gated) return {3 * h * i, s.mlp_bias ? 2 * i + h : 0};
  return {2 * h * i, s.mlp_bias ? i + h : 0};
}

/// Attention's weight matrices and its small tensors (biases, norms, sinks) in one layer.
MlpCount attention_params(const ModelShape& s) {
  const uint64_t h = s.hidden_size;
  MlpCount c;
  if (s.mla) {
    const auto& m = *s.mla;
    const uint64_t q_width = s.num_heads * (m.qk_nope_head_dim + m.qk_rope_head_dim);
    c.linear = m.q_lora_rank ? h * m.q_lora_rank + m.q_lora_rank * q_width : h * q_width;  // q_a/q_b or q_proj
    c.linear += h * (m.kv_lora_rank + m.qk_rope_head_dim);                                  // kv_a_proj_with_mqa
    c.linear += m.kv_lora_rank * s.num_heads * (m.qk_nope_head_dim + m.v_head_dim);          // kv_b_proj
    c.linear += s.num_heads * m.v_head_dim * h;                                              // o_proj
    c.bias = m.q_lora_rank + m.kv_lora_rank;  // q_a_layernorm, kv_a_layernorm (RMSNorm)
  } else {
    const AttentionWidths a = attention_widths(s);
    c.linear = h * a.q + h * a.k + h * a.v + a.out * h;
    if (s.qkv_bias) c.bias += a.q + a.k + a.v;
    if (s.o_bias) c.bias += h;
  }
  if (s.qk_norm) c.bias += 2 * s.head_dim;
  if (s.attention_sinks) c.bias += s.num_heads;
  return c;
}

uint64_t moe_layers(const ModelShape& s) {
  if (s.num_experts == 0) return 0;
  return s.num_layers > s.dense_layers ? s.num_layers - s.dense_layers : 0;
}

uint64_t dense_width(const ModelShape& s) {
  return s.dense_intermediate_size ? s.dense_intermediate_size : s.intermediate_size;
}

}  // namespace

AttentionWidths attention_widths(const ModelShape& s) {
  if (s.mla) {
    const auto& m = *s.mla;
    const uint64_t qk = s.num_heads * (m.qk_nope_head_dim + m.qk_rope_head_dim);
    return {qk, qk, s.num_heads * m.v_head_dim, s.num_heads * m.v_head_dim};
  }
  const uint64_t hq = s.num_heads * s.head_dim;
  const uint64_t hkv = s.num_kv_heads * s.head_dim;
  return {hq, hkv, hkv, hq};
}

double active_mlp_width(const ModelShape& s) {
  if (s.num_experts == 0 || s.num_layers == 0) return double(s.intermediate_size);
  const double routed = double(moe_layers(s));
  const double dense = double(s.num_layers) - routed;
  const double k = double(std::max<uint64_t>(s.experts_per_token, 1));
  const double per_routed = k * double(s.intermediate_size) + double(s.shared_intermediate_size);
  return (routed * per_routed + dense * double(dense_width(s))) / double(s.num_layers);
}

double kv_cache_elements(const ModelShape& s, uint64_t context_tokens, uint64_t batch) {
  const double per_token_layer = s.mla ? double(s.mla->kv_lora_rank + s.mla->qk_rope_head_dim)
                                       : 2.0 * double(s.num_kv_heads) * double(s.head_dim);
  const uint64_t local = std::min(s.sliding_layers, s.num_layers);
  const uint64_t window = s.sliding_window ? std::min(s.sliding_window, context_tokens) : context_tokens;
  const double tokens = double(s.num_layers - local) * double(context_tokens) + double(local) * double(window);
  return per_token_layer * tokens * double(batch);
}

ParamCounts count_params(const ModelShape& s) {
  ParamCounts c;
  if (s.arch == Arch::fixed) {
    c.total = c.active = c.other = s.fixed_params;
    return c;
  }
  const uint64_t h = s.hidden_size;
  const MlpCount attention = attention_params(s);
  const uint64_t norms = s.norms_per_layer * norm_params(s);

  // A dense layer (every layer of a dense model) and, for MoE, a routed layer: experts, router, shared experts.
  const MlpCount dense_mlp = one_expert_mlp(s, dense_width(s));
  const uint64_t dense_linear = attention.linear + dense_mlp.linear;
  const uint64_t dense_other = attention.bias + norms + dense_mlp.bias;
  const uint64_t routed = moe_layers(s);
  const uint64_t dense = s.num_layers - routed;
  const MlpCount expert = one_expert_mlp(s, s.intermediate_size);
  uint64_t moe_linear = 0, moe_other = 0, experts_linear = 0;
  if (routed > 0) {
    experts_linear = s.num_experts * expert.linear;
    moe_linear = attention.linear + experts_linear + h * s.num_experts;  // the router
    moe_linear += one_expert_mlp(s, s.shared_intermediate_size).linear;
    moe_other = attention.bias + norms + s.num_experts * expert.bias + (s.router_bias ? s.num_experts : 0);
    if (s.shared_intermediate_size && s.mlp_bias) moe_other += one_expert_mlp(s, s.shared_intermediate_size).bias;
  }

  c.per_layer = routed > 0 ? moe_linear + moe_other : dense_linear + dense_other;
  c.linear = dense * dense_linear + routed * moe_linear;
  c.expert_linear = routed * experts_linear;
  c.other = dense * dense_other + routed * moe_other;

  c.embedding = s.vocab_size * h + s.learned_positions * h + s.token_types * h;
  if (s.lm_head && !s.tie_word_embeddings) c.embedding += s.vocab_size * h;
  if (s.lm_head_bias) c.other += s.vocab_size;
  if (s.final_norm) c.other += norm_params(s);
  if (s.embedding_norm) c.other += norm_params(s);
  if (s.pooler) c.other += h * h + h;
  c.other += s.vision_params;

  if (s.arch == Arch::vit) {
    const uint64_t patches = s.patch_size ? (s.image_size / s.patch_size) * (s.image_size / s.patch_size) : 0;
    c.other += s.num_channels * s.patch_size * s.patch_size * h + h;  // patch embedding (a conv)
    c.embedding += h + (patches + 1) * h;                             // [CLS] and positions
    c.embedding += h * s.num_labels;                                  // classifier
    c.other += s.num_labels;
  }

  c.total = c.linear + c.embedding + c.other;
  c.active = c.total;
  if (s.num_experts > s.experts_per_token && s.experts_per_token > 0)
    c.active -= routed * (s.num_experts - s.experts_per_token) * (expert.linear + expert.bias);

  if (s.params_override) {
    // --params: keep the asked-for total; the shape only apportions it.
    const uint64_t fixed = c.embedding + c.other;
    const uint64_t want = *s.params_override;
    c.linear = want > fixed ? want - fixed : 0;
    if (want <= fixed) c.embedding = want > c.other ? want - c.other : 0;
    c.total = c.active = c.linear + c.embedding + c.other;
    c.expert_linear = 0;
  }
  return c;
}

uint64_t tokens_per_sample(const ModelShape& s, uint64_t context_tokens) {
  if (s.arch == Arch::vit && s.patch_size > 0) {
    const uint64_t side = s.image_size / s.patch_size;
    return side * side + 1;
  }
  return context_tokens;
}

ModelShape generic_shape(uint64_t params) {
  ModelShape s;
  s.model_type = "generic";
  s.name = "generic";
  s.arch = Arch::decoder;
  s.vocab_size = 32000;
  s.tie_word_embeddings = false;
  s.max_position_embeddings = 131072;
  s.head_dim = 128;

  // Smallest error between hidden/layers and 128 among widths that are a multiple of 256.
  double best_score = 1e300;
  for (uint64_t h = 256; h <= 32768; h += 256) {
    ModelShape t = s;
    t.hidden_size = h;
    t.head_dim = h >= 2048 ? 128 : 64;
    t.num_heads = h / t.head_dim;
    t.num_kv_heads = t.num_heads < 8 ? t.num_heads : 8;
    t.intermediate_size = static_cast<uint64_t>(std::llround(3.5 * double(h) / 256.0)) * 256;
    t.num_layers = 1;
    const ParamCounts one = count_params(t);
    const double fixed = double(one.embedding + one.other - norm_params(t) * t.norms_per_layer);
    const double per_layer = double(one.per_layer);
    const double layers = (double(params) - fixed) / per_layer;
    if (layers < 1.0) {
      if (h == 256) {  // tiny models: one thin layer
        s = t;
        best_score = 0;
      }
      break;
    }
    const double score = std::fabs(std::log((double(h) / layers) / 128.0));
    if (score < best_score) {
      best_score = score;
      s = t;
      s.num_layers = static_cast<uint64_t>(std::llround(layers));
      if (s.num_layers == 0) s.num_layers = 1;
    }
  }
  s.params_override = params;
  s.name = trf("generic {:.3g}B", double(params) / 1e9);
  s.source = tr("generic Llama-style shape (docs/fit.md)");
  return s;
}

}  // namespace gpuscout::plan
