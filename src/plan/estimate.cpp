#include "plan/estimate.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "core/i18n.hpp"
#include "core/text.hpp"
#include "core/units.hpp"
#include "plan/cuda_context.hpp"

namespace gpuscout::plan {
namespace {

uint64_t to_bytes(double v) { return v <= 0 ? 0 : static_cast<uint64_t>(std::llround(v)); }

uint64_t next_power_of_two_above(uint64_t n) {
  uint64_t k = 2;
  while (k <= n) k *= 2;
  return k;
}

bool is_sharded_zero3(Strategy s) { return s == Strategy::zero3 || s == Strategy::fsdp; }

/// Optimizer states per trainable parameter.
double optimizer_state_bytes(Optimizer o, bool fp32_states, uint64_t hidden) {
  switch (o) {
    case Optimizer::adamw: return fp32_states ? 8 : 4;      // m and v
    case Optimizer::adamw8bit: return 2;                    // 8-bit m and v (bitsandbytes, block-wise)
    case Optimizer::sgd: return fp32_states ? 4 : 2;        // momentum
    case Optimizer::adafactor:                              // factored second moment: rows + columns
      return (fp32_states ? 4.0 : 2.0) * 2.0 / double(std::max<uint64_t>(hidden, 1));
  }
  return 8;
}

struct States {
  double weights = 0;
  double grads = 0;
  double optimizer = 0;
  std::string origin;
};

States training_states(const WeightFormat& f, Convention c, Optimizer o, uint64_t hidden) {
  const std::string opt = std::string(name(o));
  if (f.name == "fp32")
    return {4, 4, optimizer_state_bytes(o, true, hidden), trf("fp32 weights and gradients, fp32 {} states", opt)};
  switch (c) {
    case Convention::zero:
      return {2, 2, 4 + optimizer_state_bytes(o, true, hidden),
              trf("ZeRO paper's mixed precision: 16-bit weights and gradients; fp32 master weights and {} states in "
                  "the optimizer",
                  opt)};
    case Convention::automatic:  // resolved by checked_workload; hf if it was not
    case Convention::hf:
      return {6, 4, optimizer_state_bytes(o, true, hidden),
              trf("torch.autocast mixed precision, as Hugging Face counts it: fp32 weights + autocast's 16-bit copy, "
                  "fp32 gradients, fp32 {} states",
                  opt)};
    case Convention::pure:
      return {2, 2, optimizer_state_bytes(o, false, hidden),
              trf("pure 16-bit: weights, gradients and {} states all 16-bit, no master copy", opt)};
  }
  return {};
}

Result<uint64_t> lora_params(const ModelShape& s, uint64_t rank, const std::vector<std::string>& targets) {
  const uint64_t h = s.hidden_size;
  const AttentionWidths a = attention_widths(s);
  // Adapters on the MLP: every expert of a routed layer, as PEFT wraps each expert's projections.
  const uint64_t mlp = std::max<uint64_t>(s.num_experts, 1) * (h + s.intermediate_size);
  std::set<std::string> want;
  for (const auto& t : targets) {
    std::string k = text::to_lower(text::trim(t));
    if (k.ends_with("_proj")) k = k.substr(0, k.size() - 5);
    if (k == "all" || k == "all-linear") {
      want.insert({"q", "k", "v", "o", "gate", "up", "down"});
      continue;
    }
    if (k != "q" && k != "k" && k != "v" && k != "o" && k != "gate" && k != "up" && k != "down")
      return fail(trf("'{}' is not a LoRA target: use q, k, v, o, gate, up, down or all", t));
    want.insert(k);
  }
  if (want.empty()) return fail(tr("--lora-targets names no module"));
  uint64_t per_layer = 0;
  if (want.count("q")) per_layer += h + a.q;
  if (want.count("k")) per_layer += h + a.k;
  if (want.count("v")) per_layer += h + a.v;
  if (want.count("o")) per_layer += a.out + h;
  if (want.count("gate") && s.mlp == Mlp::gated) per_layer += mlp;
  if (want.count("up")) per_layer += mlp;
  if (want.count("down")) per_layer += mlp;
  return rank * per_layer * s.num_layers;
}

/// Stored activations per token per layer for the backward pass (bytes), after Korthikanti et al. 2022
/// Sec. 4.1 with FlashAttention: the s^2 softmax/dropout terms are gone; Q, K, V are sized by their heads.
double train_activation_per_token_layer(const ModelShape& s, double a) {
  const double h = double(s.hidden_size);
  const AttentionWidths w = attention_widths(s);
  const double norms = double(s.norms_per_layer);
  double stored = norms * h                       // each norm's input
                  + h                             // the shared input of the Q/K/V projections
                  + double(w.q + w.k + w.v)       // Q, K, V kept by attention
                  + double(w.out)                 // attention output = input of the output projection
                  + (s.norms_per_layer == 1 ? 0 : h);  // MLP input (phi's parallel block shares one)
  double bytes = a * stored + 4 * double(s.num_heads);  // FlashAttention's fp32 log-sum-exp per head
  // MLP: gated keeps gate and up outputs, the activation's output and the product (4i); plain keeps the
  // activation's input and output (2i), as Korthikanti's 8sbh + 8sbh with i = 4h. MoE: the experts a token
  // goes through, shared ones included.
  const double i = active_mlp_width(s);
  bytes += a * (s.mlp == Mlp::gated ? 4 * i : 2 * i);
  if (s.num_experts > 0) bytes += 4 * double(s.num_experts);  // router logits
  if (s.dropout) bytes += 2 * h;  // one-byte masks after attention and MLP
  return bytes;
}

/// Inference keeps no activations for backward: one layer's working set at a time (prefill of every token).
double infer_activation_per_token(const ModelShape& s, double a) {
  const double h = double(s.hidden_size);
  const AttentionWidths w = attention_widths(s);
  const double i = active_mlp_width(s);
  return a * (2 * h + double(w.q + w.k + w.v) + (s.mlp == Mlp::gated ? 3 * i : 2 * i));
}

/// The format when --dtype is not given: the checkpoint's quantisation, nf4 for QLoRA, else the 16-bit format
/// the caller chose for the card (Workload::sixteen_bit); says who chose it and why.
void default_format(const ModelShape& shape, Workload& w, Estimate& e) {
  const bool training = w.mode != Mode::infer;
  const std::string& half = w.sixteen_bit.dtype;
  const std::string& why = w.sixteen_bit.reason;
  if (w.mode == Mode::qlora) {
    w.dtype = "nf4";
    e.dtype_chosen_by = "qlora";
    e.dtype_reason = why.empty() ? trf("QLoRA: nf4 base weights, computed in {}", half)
                                 : trf("QLoRA: nf4 base weights, computed in {}; {}", half, why);
  } else if (shape.quantization && w.mode == Mode::infer) {
    w.dtype = shape.quantization->format;
    e.dtype_chosen_by = "checkpoint";
    e.dtype_reason = trf("weights as the checkpoint declares: {} ({})", w.dtype, shape.quantization->method);
  } else if (shape.quantization) {
    w.dtype = w.mode == Mode::lora ? "nf4" : shape.quantization->format;
    e.dtype_chosen_by = "checkpoint";
    e.dtype_reason = trf("base weights as the checkpoint declares: {}", w.dtype);
  } else {
    w.dtype = half;
    e.dtype_chosen_by = w.sixteen_bit.from_card ? "gpu" : "default";
    e.dtype_reason = why.empty() ? tr("bf16 by default (no card was named)") : why;
    if (half == "fp16" && training)
      e.dtype_reason = trf("{}; fp16 training is mixed precision with loss scaling (torch.amp.GradScaler)",
                           e.dtype_reason);
  }
  e.notes.push_back(trf("precision: {}", e.dtype_reason));
}

Result<WeightFormat> resolve_format(const ModelShape& shape, Workload& w, Estimate& e) {
  if (w.dtype.empty()) default_format(shape, w, e);
  else e.dtype_chosen_by = "--dtype";
  auto f = weight_format(w.dtype);
  if (!f) return f;
  w.dtype = f->name;
  if ((w.mode == Mode::train || w.mode == Mode::lora) && f->quantised)
    return fail(w.mode == Mode::train
                    ? trf("full training needs fp32, fp16 or bf16 weights, not {}: to fine-tune on quantised weights "
                          "use --mode qlora",
                          f->name)
                    : trf("LoRA needs fp32, fp16 or bf16 weights, not {}: to fine-tune on quantised weights use "
                          "--mode qlora",
                          f->name));
  if (w.mode == Mode::qlora && (!f->quantised || f->gguf))
    return fail(trf("QLoRA trains adapters on a quantised base (nf4, int4, int8, fp8), not {}: for a 16-bit "
                    "base use --mode lora",
                    f->name));
  if (f->gguf && w.mode != Mode::infer) return fail(trf("GGUF format {} is for inference only", f->name));
  return f;
}

/// Checks the workload's numbers and fills the defaults that depend on the GPU count.
Result<Workload> checked_workload(const ModelShape& shape, const Workload& input, std::vector<std::string>& notes) {
  Workload w = input;
  if (w.batch == 0) {
    w.batch = shape.default_batch > 0 ? shape.default_batch : 1;
    if (shape.default_batch > 0)
      notes.push_back(trf("batch {}: what a course trains {} with (--batch to change)", w.batch, shape.name));
  }
  if (w.num_gpus == 0 || w.num_gpus > 4096) return fail(trf("{} GPUs: use 1 to 4096", w.num_gpus));
  if (w.mode == Mode::lora || w.mode == Mode::qlora) {
    if (w.lora_rank == 0 || w.lora_rank > 65536) return fail(tr("the LoRA rank must be between 1 and 65536"));
  }
  if (w.num_gpus > 1 && w.strategy == Strategy::single) {
    w.strategy = w.mode == Mode::infer ? Strategy::pp : Strategy::ddp;
    notes.push_back(w.mode == Mode::infer
                        ? tr("several GPUs: layers split evenly across them (--strategy pp); --strategy tp splits "
                             "each layer, ddp runs a full copy on each")
                        : tr("several GPUs: assuming DDP, a full copy of the model and its states on each GPU; "
                             "--strategy zero1|zero2|zero3|fsdp shard them"));
  }
  if (w.convention == Convention::automatic)
    w.convention = w.strategy == Strategy::zero1 || w.strategy == Strategy::zero2 || is_sharded_zero3(w.strategy)
                       ? Convention::zero
                       : Convention::hf;
  return w;
}

/// Sets the context the model runs at and the tokens per GPU; fails for absurd sizes.
Result<void> resolve_tokens(const ModelShape& shape, Workload& w, Estimate& e) {
  const uint64_t model_max = shape.max_position_embeddings.value_or(0);
  w.context_tokens = effective_context(w, shape.arch == Arch::decoder ? model_max : 0);
  if (w.context_tokens > (1ULL << 24)) return fail(trf("a context of {} tokens is beyond any model", w.context_tokens));
  if (w.batch > (1ULL << 20)) return fail(trf("a batch of {} is beyond reason", w.batch));
  if (model_max > 0 && w.context_tokens > model_max && shape.arch != Arch::vit && shape.arch != Arch::fixed)
    e.warnings.push_back(trf("context {} is longer than the {} tokens {} supports (max_position_embeddings); "
                             "the estimate assumes it runs anyway (RoPE scaling)",
                             w.context_tokens, model_max, shape.name));
  e.tokens = tokens_per_sample(shape, w.context_tokens) * w.batch;
  return {};
}

/// The terms of the whole model before the strategy divides them (bytes, fractional until the end).
struct Terms {
  double weights = 0, grads = 0, optimizer = 0, optimizer_step = 0, adapters = 0;
  double kv = 0;
  double act_layers = 0, act_rest = 0;
  double layer_gather = 0;  ///< ZeRO-3/FSDP: all-gathered layers
};

double base_weight_bytes(const ModelShape& shape, Estimate& e) {
  if (shape.checkpoint_bytes && ((shape.checkpoint_dtype && *shape.checkpoint_dtype == e.format.name) ||
                                 (shape.quantization && shape.quantization->format == e.format.name))) {
    e.weights_exact = true;
    e.notes.push_back(tr("weights: exact bytes from the checkpoint's safetensors headers"));
    return double(*shape.checkpoint_bytes);
  }
  const ParamCounts& p = e.params;
  // MXFP4 as transformers and vLLM apply it: the routed experts only; attention and the rest stay 16-bit.
  const uint64_t shrunk = e.format.experts_only ? p.expert_linear : p.linear;
  return double(shrunk) * e.format.linear_bits / 8.0 +
         double(p.linear - shrunk + p.embedding + p.other) * e.format.other_bits / 8.0;
}

/// Weights, gradients, optimizer states and adapters, by mode.
Result<void> add_state_terms(const ModelShape& shape, const Workload& w, Estimate& e, Terms& t) {
  const ParamCounts& p = e.params;
  if (w.mode == Mode::train) {
    const States st = training_states(e.format, w.convention, w.optimizer, shape.hidden_size);
    e.trainable_params = p.total;
    t.weights = st.weights * double(p.total);
    t.grads = st.grads * double(p.total);
    t.optimizer = st.optimizer * double(p.total);
    e.state_bytes_per_param = st.weights + st.grads + st.optimizer;
    e.convention_text = trf("{:g} bytes/param = {:g} weights + {:g} gradients + {:.3g} optimizer ({})",
                            e.state_bytes_per_param, st.weights, st.grads, st.optimizer, st.origin);
  } else if (w.mode == Mode::lora || w.mode == Mode::qlora) {
    if (shape.arch == Arch::fixed) return fail(trf("LoRA needs a transformer shape (use --mode train for {})", shape.name));
    auto lp = lora_params(shape, w.lora_rank, w.lora_targets);
    if (!lp) return std::unexpected(lp.error());
    e.trainable_params = *lp;
    t.weights = base_weight_bytes(shape, e);
    const double opt = optimizer_state_bytes(w.optimizer, true, shape.hidden_size);
    t.adapters = 4.0 * double(*lp);
    t.grads = 4.0 * double(*lp);
    t.optimizer = opt * double(*lp);
    e.state_bytes_per_param = 8 + opt;
    e.convention_text = trf("adapters: {:g} bytes/param = 4 fp32 weights + 4 gradients + {:g} {} states "
                            "(PEFT keeps adapters in fp32); base weights frozen in {}",
                            e.state_bytes_per_param, opt, name(w.optimizer), e.format.name);
  } else {
    t.weights = base_weight_bytes(shape, e);
    e.convention_text = trf("inference: weights only, {} ({:g} bits per linear weight)", e.format.name,
                            e.format.linear_bits);
  }
  if (e.format.experts_only)
    e.notes.push_back(tr("MXFP4 shrinks only the routed experts; attention, router, embeddings and LM head stay 16-bit"));
  else if (e.format.quantised && !e.format.gguf)
    e.notes.push_back(tr("quantisation shrinks only the blocks' linear layers; embeddings, LM head and norms stay 16-bit"));
  return {};
}

/// Bytes per cached key or value element: --kv-dtype, else the activations' width.
Result<double> kv_element_bytes(const Workload& w, bool fp32) {
  if (w.kv_dtype.empty()) return fp32 ? 4.0 : 2.0;
  const std::string k = text::to_lower(w.kv_dtype);
  if (k == "fp8" || k == "int8") return 1.0;
  if (k == "fp16" || k == "bf16") return 2.0;
  if (k == "fp32") return 4.0;
  if (k == "q8_0") return 34.0 / 32.0;  // llama.cpp: 32 int8 values and one fp16 scale
  if (k == "int4" || k == "q4_0") return 0.5625;
  return fail(trf("'{}' is not a KV cache type: use fp32, fp16, bf16, fp8, int8, q8_0 or q4_0", w.kv_dtype));
}

/// The KV cache of decoder inference.
Result<void> add_kv_cache(const ModelShape& shape, const Workload& w, Estimate& e, Terms& t) {
  if (w.mode != Mode::infer || shape.arch != Arch::decoder) return {};
  auto kv_bytes = kv_element_bytes(w, e.format.name == "fp32");
  if (!kv_bytes) return std::unexpected(kv_bytes.error());
  t.kv = kv_cache_elements(shape, w.context_tokens, w.batch) * *kv_bytes;
  if (shape.mla)
    e.notes.push_back(trf("KV cache: one compressed latent of {} values per token and layer (multi-head latent "
                          "attention, as vLLM and SGLang cache it)",
                          shape.mla->kv_lora_rank + shape.mla->qk_rope_head_dim));
  else if (shape.num_kv_heads < shape.num_heads)
    e.notes.push_back(trf("KV cache counts {} key/value heads (grouped-query attention), not {} query heads",
                          shape.num_kv_heads, shape.num_heads));
  return {};
}

void add_activations(const ModelShape& shape, const Workload& w, Estimate& e, Terms& t) {
  const bool training = w.mode != Mode::infer;
  const bool fp32 = e.format.name == "fp32";
  const double a = fp32 ? 4.0 : 2.0;  // activation bytes per element
  const double tokens = double(e.tokens);
  if (shape.arch == Arch::fixed) {
    t.act_layers = double(shape.activation_bytes_per_sample) * double(w.batch) * (fp32 ? 2.0 : 1.0);
    if (!training) t.act_layers /= 8;  // no backward: only a few feature maps live at once
    if (shape.image_size > 0)
      e.notes.push_back(trf("activations of {} images of {}x{} pixels", w.batch, shape.image_size,
                            shape.image_size));
  } else if (training) {
    const double per_layer = train_activation_per_token_layer(shape, a) * tokens;
    const double layers = double(shape.num_layers);
    if (w.grad_checkpointing) {
      t.act_layers = layers * a * double(shape.hidden_size) * tokens + per_layer;  // layer inputs + one recomputed
      e.notes.push_back(tr("gradient checkpointing: each layer's input kept, one layer recomputed at a time"));
    } else {
      t.act_layers = layers * per_layer;
    }
    t.act_rest = 2 * a * double(shape.hidden_size) * tokens;  // embedding output, final norm input
    if (shape.arch == Arch::decoder && shape.lm_head) {
      t.act_rest += 4.0 * tokens * double(shape.vocab_size);  // fp32 logits for the loss
    }
    e.notes.push_back(tr("activations: Korthikanti et al. 2022 with FlashAttention (no s^2 term), plus fp32 logits "
                         "4 x tokens x vocab"));
  } else {
    t.act_layers = infer_activation_per_token(shape, a) * tokens;
    if (shape.arch == Arch::decoder && shape.lm_head) t.act_rest = 4.0 * double(w.batch) * double(shape.vocab_size);
  }
}

// AdamW as PyTorch runs it by default (the foreach implementation, torch/optim/adamw.py) computes sqrt(v) for every
// parameter at once: one temporary per trainable parameter, as wide as the states, beside weights, gradients and
// states. The caching allocator keeps the blocks the forward and backward passes freed for later steps, and they are
// other sizes, so by default the temporaries take new memory beside them; with expandable segments they reuse it and
// only what exceeds it counts. The ZeRO accounting stands for DeepSpeed, Megatron and llm.c, whose fused Adam
// kernels update in place: no temporary there. Measured on an H200 (2026-12-04, bench/fit_accuracy): the step is
// the peak of checkpointed training (allocated 28.83 GiB against 28.75 for weights, gradients, states and this
// temporary).
void add_optimizer_step(const Workload& w, Estimate& e, Terms& t) {
  if (w.mode == Mode::infer || w.optimizer != Optimizer::adamw) return;
  if (w.mode == Mode::train && w.convention == Convention::zero && e.format.name != "fp32") return;
  const bool sixteen_bit_states = w.mode == Mode::train && w.convention == Convention::pure && e.format.name != "fp32";
  double step = (sixteen_bit_states ? 2.0 : 4.0) * double(e.trainable_params);
  if (w.expandable_segments) {
    // What the step can reuse: the activations, and autocast's 16-bit weight copies (the hf accounting's 2 bytes).
    const bool copies = w.mode == Mode::train && w.convention == Convention::hf && e.format.name != "fp32";
    step = std::max(0.0, step - (t.act_layers + t.act_rest + (copies ? 2.0 * double(e.params.total) : 0.0)));
    e.notes.push_back(tr("optimizer step: with expandable segments, AdamW's temporaries reuse the memory the forward "
                         "and backward passes freed"));
  } else {
    e.notes.push_back(tr("optimizer step: PyTorch's AdamW updates every parameter at once, with one temporary per "
                         "parameter, beside the memory the forward and backward passes left cached; "
                         "`--expandable-segments` (PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True) lets it reuse "
                         "that memory"));
  }
  t.optimizer_step = step;
}

/// The strategy divides only what it shards.
void apply_strategy(const ModelShape& shape, const Workload& w, Estimate& e, Terms& t) {
  const uint64_t n = w.num_gpus;
  const double shards = double(n);
  const bool training = w.mode != Mode::infer;
  const auto shard_states = [&] {
    t.weights /= shards;
    t.grads /= shards;
    t.optimizer /= shards;
    t.optimizer_step /= shards;
    t.adapters /= shards;
  };
  switch (w.strategy) {
    case Strategy::single:
    case Strategy::ddp:
      break;
    case Strategy::zero1:
      t.optimizer /= shards;
      t.optimizer_step /= shards;
      break;
    case Strategy::zero2:
      t.optimizer /= shards;
      t.optimizer_step /= shards;
      t.grads /= shards;
      break;
    case Strategy::zero3:
    case Strategy::fsdp:
      shard_states();
      if (n > 1) {
        // All-gathered parameters of the layer being computed and the one prefetched.
        const double per_layer_bytes =
            double(e.params.per_layer) * (w.mode == Mode::train ? 2.0 : e.format.linear_bits / 8.0);
        t.layer_gather = 2 * per_layer_bytes;
      }
      break;
    case Strategy::tp: {
      shard_states();
      // MLA's latent is one vector per token that every GPU needs whole: replicated, never divided.
      const uint64_t kv_split = shape.mla ? 1 : std::min<uint64_t>(n, std::max<uint64_t>(shape.num_kv_heads, 1));
      t.kv /= double(kv_split);
      if (shape.mla && !training)
        e.notes.push_back(tr("tensor parallelism: each GPU keeps the whole MLA latent cache (it is not split by heads)"));
      else if (kv_split < n && !training && shape.arch == Arch::decoder)
        e.notes.push_back(trf("tensor parallelism over {} GPUs: only {} key/value heads, so the KV cache is "
                              "replicated, not divided, beyond {} ways",
                              n, shape.num_kv_heads, kv_split));
      t.act_layers /= shards;  // with sequence parallelism (Korthikanti et al. Sec. 4.2.2)
      t.act_rest /= shards;    // vocabulary-parallel logits
      break;
    }
    case Strategy::pp:
      shard_states();
      t.kv /= shards;
      // Training with 1F1B: the first stage keeps n micro-batches of its 1/n of the layers, so the
      // activations of the whole model for one micro-batch (Korthikanti et al. Sec. 4.2.3).
      break;
  }
  if (n > 1 && !training && (w.strategy == Strategy::zero1 || w.strategy == Strategy::zero2))
    e.notes.push_back(tr("ZeRO stages 1 and 2 shard training states only: for inference each GPU holds the whole model"));
}

Breakdown per_gpu_breakdown(const Terms& t, const Workload& w) {
  Breakdown b;
  b.weights_bytes = to_bytes(t.weights + t.layer_gather);
  b.kv_cache_bytes = to_bytes(t.kv);
  b.activations_bytes = to_bytes(t.act_layers + t.act_rest);
  b.gradients_bytes = to_bytes(t.grads);
  b.optimizer_bytes = to_bytes(t.optimizer);
  b.optimizer_step_bytes = to_bytes(t.optimizer_step);
  b.adapters_bytes = to_bytes(t.adapters);
  b.cuda_context_bytes = cuda_context_bytes(w.gpu_architecture, w.mode != Mode::infer);
  b.allocator_slack_bytes = to_bytes(w.allocator_slack * double(b.activations_bytes + b.gradients_bytes));
  b.kept_free_bytes = w.kept_free_bytes;
  return b;
}

void add_model_notes(const ModelShape& shape, const Workload& w, Estimate& e) {
  if (shape.num_experts > 0)
    e.notes.push_back(trf("mixture of experts: all {} experts' weights are held; activations follow the {} "
                          "routed per token ({} of {} parameters active)",
                          shape.num_experts, shape.experts_per_token, units::format_count(e.params.active),
                          units::format_count(e.params.total)));
  if (shape.sliding_layers > 0 && shape.sliding_window > 0 && w.mode == Mode::infer)
    e.notes.push_back(trf("KV cache: {} of {} layers attend to the last {} tokens only and keep only those "
                          "(sliding-window or chunked attention)",
                          std::min(shape.sliding_layers, shape.num_layers), shape.num_layers, shape.sliding_window));
  if (e.format.experts_only && shape.num_experts == 0)
    e.warnings.push_back(trf("{} shrinks only the experts of a mixture-of-experts model; {} has none, so its "
                             "weights stay 16-bit",
                             e.format.name, shape.name));
}

}  // namespace

Result<Estimate> estimate(const ModelShape& shape, const Workload& input) {
  Estimate e;
  auto checked = checked_workload(shape, input, e.notes);
  if (!checked) return std::unexpected(checked.error());
  Workload& w = *checked;
  auto format = resolve_format(shape, w, e);
  if (!format) return std::unexpected(format.error());
  e.format = *format;
  e.model = shape.name;
  e.params = count_params(shape);
  if (auto tokens = resolve_tokens(shape, w, e); !tokens) return std::unexpected(tokens.error());

  Terms terms;
  if (auto states = add_state_terms(shape, w, e, terms); !states) return std::unexpected(states.error());
  if (auto kv = add_kv_cache(shape, w, e, terms); !kv) return std::unexpected(kv.error());
  add_activations(shape, w, e, terms);
  add_optimizer_step(w, e, terms);
  apply_strategy(shape, w, e, terms);

  e.per_gpu = per_gpu_breakdown(terms, w);
  e.gathered_weights_bytes = to_bytes(terms.layer_gather);
  e.all_gpus_bytes = e.per_gpu.total_bytes() * w.num_gpus;
  e.workload = w;
  add_model_notes(shape, w, e);
  return e;
}

namespace {

/// One change to the workload, to be estimated again.
struct Option {
  std::string change;
  std::string flags;
  Workload w;
};

/// Each GPU against the per-GPU need; sets plan.fits.
void check_each_gpu(const std::vector<GpuCapacity>& gpus, FitPlan& plan) {
  const uint64_t need = plan.estimate.per_gpu.total_bytes();
  bool all = true;
  for (const auto& g : gpus) {
    GpuFit f;
    f.gpu = g;
    f.need_bytes = need;
    f.headroom_bytes = static_cast<int64_t>(g.capacity_bytes) - static_cast<int64_t>(need);
    f.fits = need <= g.capacity_bytes;
    all = all && f.fits;
    plan.gpus.push_back(f);
  }
  plan.fits = all;
}

/// Unequal cards: equal shares are limited by the smallest; inference engines can split by layers instead.
void consider_mixed_cards(const std::vector<GpuCapacity>& gpus, uint64_t smallest, FitPlan& plan) {
  plan.notes.push_back(trf("mixed cards: every GPU holds an equal share, so the smallest ({}) limits the job",
                           units::format_bytes(smallest)));
  if (plan.estimate.workload.mode != Mode::infer) return;
  // Split by layers in proportion to memory: weights and KV cache follow the layers.
  uint64_t sum = 0;
  for (const auto& g : gpus) sum += g.capacity_bytes;
  const Breakdown& b = plan.estimate.per_gpu;
  const double splittable = double(b.weights_bytes + b.kv_cache_bytes) * double(gpus.size());
  LayerSplit split;
  split.fits = true;
  for (const auto& g : gpus) {
    const double share = splittable * double(g.capacity_bytes) / double(sum);
    const uint64_t bytes = to_bytes(share) + b.activations_bytes + b.overhead_bytes();
    split.per_gpu_bytes.push_back(bytes);
    split.fits = split.fits && bytes <= g.capacity_bytes;
  }
  plan.layer_split = split;
  plan.notes.push_back(split.fits ? tr("layer-splitting inference engines (llama.cpp --tensor-split, accelerate "
                                       "device_map=\"auto\") can give the bigger cards more layers: split in "
                                       "proportion to memory it fits")
                                  : tr("layer-splitting inference engines (llama.cpp --tensor-split, accelerate "
                                       "device_map=\"auto\") can give the bigger cards more layers: split in "
                                       "proportion to memory it still does not fit"));
}

/// The fewest GPUs like the smallest one (a power of two above the current count, up to `most`) on which
/// `strategy` fits; adds that option when one does.
void add_more_gpus_option(const ModelShape& shape, const Workload& used, Strategy strategy, uint64_t most,
                          uint64_t smallest, std::vector<Option>& options) {
  for (uint64_t k = next_power_of_two_above(used.num_gpus); k <= most; k *= 2) {
    Workload x = used;
    x.strategy = strategy;
    x.num_gpus = k;
    auto alt = estimate(shape, x);
    if (alt && alt->per_gpu.total_bytes() <= smallest) {
      const bool tp = strategy == Strategy::tp;
      options.push_back({tp ? trf("{} GPUs like the smallest one, tensor parallel", k)
                            : trf("{} GPUs like the smallest one with ZeRO-3", k),
                         fmt::format("--gpus {} --strategy {}", k, tp ? "tp" : "zero3"), x});
      return;
    }
  }
}

std::vector<Option> training_options(const ModelShape& shape, const Workload& used, uint64_t smallest) {
  std::vector<Option> options;
  const auto with = [&](std::string change, std::string flags, auto edit) {
    Workload x = used;
    edit(x);
    options.push_back({std::move(change), std::move(flags), x});
  };
  if (!used.grad_checkpointing)
    with(tr("turn on gradient checkpointing"), "--grad-checkpointing", [](Workload& x) { x.grad_checkpointing = true; });
  if (used.batch > 1)
    with(tr("micro-batch 1 (accumulate gradients for the same effective batch)"), "--batch 1",
         [](Workload& x) { x.batch = 1; });
  if (used.mode == Mode::train && used.optimizer == Optimizer::adamw)
    with(tr("8-bit AdamW states (bitsandbytes)"), "--optimizer adamw8bit",
         [](Workload& x) { x.optimizer = Optimizer::adamw8bit; });
  if (used.mode == Mode::train)
    with(trf("LoRA on a frozen {} base, with checkpointing", used.sixteen_bit.dtype),
         "--mode lora --grad-checkpointing", [](Workload& x) {
           x.mode = Mode::lora;
           x.dtype = x.sixteen_bit.dtype;
           x.grad_checkpointing = true;
         });
  if (used.mode != Mode::qlora) {
    with(tr("QLoRA: adapters on a 4-bit NF4 base, with checkpointing"), "--mode qlora --grad-checkpointing",
         [](Workload& x) {
           x.mode = Mode::qlora;
           x.dtype = "nf4";
           x.grad_checkpointing = true;
         });
  } else if (used.context_tokens > 512) {
    const uint64_t half = used.context_tokens / 2;
    with(trf("shorter sequences ({} tokens)", half), fmt::format("--context {}", half),
         [half](Workload& x) { x.context_tokens = half; });
  }
  const uint64_t n = used.num_gpus;
  if (n > 1 && !is_sharded_zero3(used.strategy))
    with(trf("shard weights, gradients and optimizer states over the {} GPUs (ZeRO-3/FSDP)", n),
         "--strategy zero3", [](Workload& x) { x.strategy = Strategy::zero3; });
  add_more_gpus_option(shape, used, Strategy::zero3, 512, smallest, options);
  return options;
}

std::vector<Option> inference_options(const ModelShape& shape, const Workload& used, const WeightFormat& format,
                                      uint64_t smallest) {
  std::vector<Option> options;
  const auto with = [&](std::string change, std::string flags, auto edit) {
    Workload x = used;
    edit(x);
    options.push_back({std::move(change), std::move(flags), x});
  };
  if (format.linear_bits > 8.5)
    with(tr("8-bit weights (bitsandbytes LLM.int8)"), "--dtype int8", [](Workload& x) { x.dtype = "int8"; });
  if (format.linear_bits > 4.9) {
    with(tr("4-bit weights (GPTQ/AWQ)"), "--dtype int4", [](Workload& x) { x.dtype = "int4"; });
    with(tr("GGUF Q4_K_M in llama.cpp"), "--dtype q4_k_m", [](Workload& x) { x.dtype = "q4_k_m"; });
  }
  if (used.context_tokens > 1024) {
    const uint64_t half = used.context_tokens / 2;
    with(trf("shorter context ({} tokens)", half), fmt::format("--context {}", half),
         [half](Workload& x) { x.context_tokens = half; });
  }
  if (used.batch > 1) with(tr("one sequence at a time"), "--batch 1", [](Workload& x) { x.batch = 1; });
  if (shape.arch == Arch::decoder && (used.kv_dtype.empty() || used.kv_dtype == "fp16" || used.kv_dtype == "bf16"))
    with(tr("FP8 KV cache (vLLM --kv-cache-dtype fp8)"), "--kv-dtype fp8", [](Workload& x) { x.kv_dtype = "fp8"; });
  add_more_gpus_option(shape, used, Strategy::tp, 64, smallest, options);
  return options;
}

}  // namespace

Result<FitPlan> plan_fit(const ModelShape& shape, const Workload& input, const std::vector<GpuCapacity>& gpus) {
  Workload w = input;
  if (gpus.size() > 1) w.num_gpus = gpus.size();
  if (!gpus.empty()) {  // the smallest card limits the job: its reserve and its CUDA context are the ones counted
    const GpuCapacity& smallest = std::ranges::min(gpus, {}, &GpuCapacity::capacity_bytes);
    if (w.kept_free_bytes == 0) w.kept_free_bytes = kept_free_bytes(smallest.capacity_bytes);
    if (w.gpu_architecture.empty() && smallest.precision) w.gpu_architecture = smallest.precision->architecture;
  }
  auto est = estimate(shape, w);
  if (!est) return std::unexpected(est.error());
  FitPlan plan;
  plan.estimate = *est;
  if (gpus.empty()) return plan;

  check_each_gpu(gpus, plan);
  const auto [smallest, largest] = std::ranges::minmax(gpus, {}, &GpuCapacity::capacity_bytes);
  const uint64_t least = smallest.capacity_bytes;
  if (gpus.size() > 1 && least != largest.capacity_bytes) consider_mixed_cards(gpus, least, plan);
  if (*plan.fits) return plan;

  // What to change, each with the new per-GPU total against the smallest card.
  const Workload& used = plan.estimate.workload;
  const auto options = used.mode != Mode::infer ? training_options(shape, used, least)
                                                : inference_options(shape, used, plan.estimate.format, least);
  for (const auto& o : options) {
    auto alt = estimate(shape, o.w);
    if (!alt) continue;
    const uint64_t total = alt->per_gpu.total_bytes();
    plan.suggestions.push_back({o.change, o.flags, total, total <= least});
  }
  return plan;
}

uint64_t largest_model_that_fits(uint64_t capacity_bytes, const Workload& workload) {
  const auto need = [&](double params) -> uint64_t {
    auto e = estimate(generic_shape(static_cast<uint64_t>(params)), workload);
    return e ? e->per_gpu.total_bytes() : UINT64_MAX;
  };
  double lo = 1e6, hi = 1e13;
  if (need(lo) > capacity_bytes) return 0;
  if (need(hi) <= capacity_bytes) return static_cast<uint64_t>(hi);
  for (int i = 0; i < 40 && hi / lo > 1.001; ++i) {
    const double mid = std::sqrt(lo * hi);
    if (need(mid) <= capacity_bytes) lo = mid;
    else hi = mid;
  }
  return static_cast<uint64_t>(lo);
}

namespace {

/// The single-GPU workload of one table row, at the row's default context.
Workload table_workload(const Workload& base, Mode mode, uint64_t kept_free) {
  Workload w = base;
  w.mode = mode;
  w.batch = std::max<uint64_t>(base.batch, 1);  // the generic shape has no default batch of its own
  w.strategy = Strategy::single;
  w.num_gpus = 1;
  w.kept_free_bytes = kept_free;
  w.context_tokens = effective_context(w, 0);
  return w;
}

}  // namespace

MaxParamsTable max_params_table(uint64_t capacity_bytes, const Workload& base) {
  MaxParamsTable t;
  t.capacity_bytes = capacity_bytes;
  t.batch = std::max<uint64_t>(base.batch, 1);
  t.kept_free_bytes = kept_free_bytes(capacity_bytes);
  t.sixteen_bit = base.sixteen_bit.dtype;
  Workload infer = table_workload(base, Mode::infer, t.kept_free_bytes);
  t.infer_context = infer.context_tokens;
  Workload train = table_workload(base, Mode::train, t.kept_free_bytes);
  t.train_context = train.context_tokens;
  const std::string half = t.sixteen_bit;
  const std::string kept = trf("{} left free", units::format_bytes(t.kept_free_bytes));

  infer.dtype = half;
  t.infer_fp16 = largest_model_that_fits(capacity_bytes, infer);
  infer.dtype = "int8";
  t.infer_int8 = largest_model_that_fits(capacity_bytes, infer);
  infer.dtype = "int4";
  t.infer_int4 = largest_model_that_fits(capacity_bytes, infer);
  const std::string infer_recipe = trf("{}-token context, batch {}, KV cache 16-bit, {}", t.infer_context,
                                       t.batch, kept);
  t.recipes.push_back(trf("{} weights, {}", half, infer_recipe));
  t.recipes.push_back(trf("LLM.int8 weights (bitsandbytes), {}", infer_recipe));
  t.recipes.push_back(trf("4-bit GPTQ/AWQ weights, group 128, {}", infer_recipe));

  train.dtype = half;
  t.train = largest_model_that_fits(capacity_bytes, train);
  const std::string precision =
      half == "fp16" ? trf("{} mixed precision with loss scaling", half) : trf("{} mixed precision", half);
  t.recipes.push_back(base.grad_checkpointing
                          ? trf("{}, {}, --convention {}, {} tokens, batch {}, gradient checkpointing, {}", precision,
                                name(base.optimizer), name(base.convention), t.train_context, t.batch, kept)
                          : trf("{}, {}, --convention {}, {} tokens, batch {}, {}", precision, name(base.optimizer),
                                name(base.convention), t.train_context, t.batch, kept));
  // LoRA and QLoRA as the standard recipes run them: PEFT's prepare_model_for_kbit_training turns gradient
  // checkpointing on, and the QLoRA paper's 33B-on-24GB result depends on it.
  Workload lora = table_workload(base, Mode::lora, t.kept_free_bytes);
  lora.dtype = half;
  lora.grad_checkpointing = true;
  t.lora = largest_model_that_fits(capacity_bytes, lora);
  const std::string adapters = trf("r={} on {};", lora.lora_rank, text::join(lora.lora_targets, ","));
  t.recipes.push_back(trf("{} adapters in fp32, frozen {} base, AdamW, gradient checkpointing, {} tokens, "
                          "batch {}, {}",
                          adapters, half, lora.context_tokens, t.batch, kept));
  lora.mode = Mode::qlora;
  lora.dtype = "nf4";
  t.qlora = largest_model_that_fits(capacity_bytes, lora);
  t.recipes.push_back(trf("{} adapters in fp32, frozen nf4 base (double quantisation, {} compute), AdamW, "
                          "gradient checkpointing (as PEFT sets it up), {} tokens, batch {}, {}",
                          adapters, half, lora.context_tokens, t.batch, kept));
  t.naive_fp16 = capacity_bytes / 2;
  if (!base.sixteen_bit.reason.empty()) t.notes.push_back(trf("precision: {}", base.sixteen_bit.reason));
  t.notes.push_back(trf("every row leaves {} of the card free ({:.0f}%: the display, the driver's and the "
                        "allocator's reserve)",
                        units::format_bytes(t.kept_free_bytes), kKeptFreeShare * 100));
  return t;
}

std::vector<GpuCapacity> gpu_capacities(const Inventory& inventory) {
  std::vector<GpuCapacity> out;
  for (const auto& g : inventory.gpus) {
    const std::string cc = g.compute_capability.value_or(""), arch = g.architecture.value_or("");
    const auto precision = catalog::precision_for({.vendor = g.vendor, .compute_capability = cc, .architecture = arch});
    if (g.memory_free_bytes && *g.memory_free_bytes > 0)
      out.push_back({g.name, *g.memory_free_bytes, N_("free"), precision});  // translated where shown
    else if (g.memory_total_bytes && *g.memory_total_bytes > 0)
      out.push_back({g.name, *g.memory_total_bytes, N_("total"), precision});
  }
  return out;
}

}  // namespace gpuscout::plan
