#include "plan/model_shape.hpp"

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

MlpCount one_expert_mlp(const ModelShape& s) {
  const uint64_t h = s.hidden_size;
  const uint64_t i = s.intermediate_size;
  if (s.mlp == Mlp::gated) return {3 * h * i, s.mlp_bias ? 2 * i + h : 0};
  return {2 * h * i, s.mlp_bias ? i + h : 0};
}

}  // namespace

ParamCounts count_params(const ModelShape& s) {
  ParamCounts c;
  if (s.arch == Arch::fixed) {
    c.total = c.active = c.other = s.fixed_params;
    return c;
  }
  const uint64_t h = s.hidden_size;
  const uint64_t hq = s.num_heads * s.head_dim;
  const uint64_t hkv = s.num_kv_heads * s.head_dim;

  uint64_t layer_linear = h * hq + 2 * h * hkv + hq * h;
  uint64_t layer_other = s.norms_per_layer * norm_params(s);
  if (s.qkv_bias) layer_other += hq + 2 * hkv;
  if (s.o_bias) layer_other += h;
  const MlpCount expert = one_expert_mlp(s);
  const uint64_t experts = s.num_experts > 0 ? s.num_experts : 1;
  layer_linear += experts * expert.linear;
  layer_other += experts * expert.bias;
  if (s.num_experts > 0) layer_linear += h * s.num_experts;  // the router

  c.per_layer = layer_linear + layer_other;
  c.linear = s.num_layers * layer_linear;
  c.other = s.num_layers * layer_other;

  c.embedding = s.vocab_size * h + s.learned_positions * h + s.token_types * h;
  if (s.lm_head && !s.tie_word_embeddings) c.embedding += s.vocab_size * h;
  if (s.lm_head_bias) c.other += s.vocab_size;
  if (s.final_norm) c.other += norm_params(s);
  if (s.embedding_norm) c.other += norm_params(s);
  if (s.pooler) c.other += h * h + h;

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
    c.active -= s.num_layers * (s.num_experts - s.experts_per_token) * (expert.linear + expert.bias);

  if (s.params_override) {
    // --params: keep the asked-for total; the shape only apportions it.
    const uint64_t fixed = c.embedding + c.other;
    const uint64_t want = *s.params_override;
    c.linear = want > fixed ? want - fixed : 0;
    if (want <= fixed) c.embedding = want > c.other ? want - c.other : 0;
    c.total = c.active = c.linear + c.embedding + c.other;
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
