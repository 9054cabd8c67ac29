#pragma once
/// The memory model: what one GPU must hold to run a model, term by term, and whether it fits.
///
/// API (for `fit`, and for `advise`, which asks for a model's memory need):
///   plan::find_model("llama-3-8b")                  -> Result<CatalogueEntry>  (plan/catalogue.hpp)
///   plan::load_hf_config("path/or/folder")          -> Result<ConfigRead>      (plan/hf_config.hpp)
///   plan::generic_shape(7'000'000'000)              -> ModelShape              (plan/model_shape.hpp)
///   plan::estimate(shape, workload)                 -> Result<Estimate>  bytes per GPU, by term
///   plan::plan_fit(shape, workload, gpus)           -> Result<FitPlan>   + fits, headroom, what to change
///   plan::largest_model_that_fits(bytes, workload)  -> parameters of the largest generic model
///   plan::max_params_table(bytes, workload)         -> the no-model table of `gpuscout fit`
/// All are pure (the catalogue reads the embedded table). Every byte count is per GPU unless named `all_`.
///
/// Conventions (docs/fit.md): parameters exact from the shape; quantisation shrinks only the blocks' linear
/// layers (GGUF formats: every tensor); KV cache = 2 x layers x kv_heads x head_dim x tokens x batch x bytes;
/// training activations after Korthikanti et al. 2022 with FlashAttention (no s^2 term), generalised to
/// grouped-query attention and gated MLPs, plus fp32 logits 4 x tokens x vocab; sharded strategies divide only
/// the terms they shard.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "catalog/precision.hpp"
#include "core/error.hpp"
#include "inventory/inventory.hpp"
#include "plan/model_shape.hpp"
#include "plan/workload.hpp"

namespace gpuscout::plan {

struct Breakdown {
  uint64_t weights_bytes = 0;
  uint64_t kv_cache_bytes = 0;
  uint64_t activations_bytes = 0;
  uint64_t gradients_bytes = 0;
  uint64_t optimizer_bytes = 0;
  /// AdamW's step: one temporary per trainable parameter (estimate.cpp, add_optimizer_step).
  uint64_t optimizer_step_bytes = 0;
  uint64_t adapters_bytes = 0;
  uint64_t cuda_context_bytes = 0;
  uint64_t allocator_slack_bytes = 0;
  /// Memory of the card left free: the display, the driver's and the allocator's reserve (Workload::kept_free_bytes).
  uint64_t kept_free_bytes = 0;
  uint64_t overhead_bytes() const { return cuda_context_bytes + allocator_slack_bytes; }
  uint64_t total_bytes() const {
    return weights_bytes + kv_cache_bytes + activations_bytes + gradients_bytes + optimizer_bytes +
           optimizer_step_bytes + adapters_bytes + overhead_bytes() + kept_free_bytes;
  }
};

struct Estimate {
  std::string model;            ///< shape name
  ParamCounts params;
  uint64_t trainable_params = 0;  ///< 0 for inference; LoRA: adapter parameters
  WeightFormat format;
  /// Who chose the format: "--dtype", "checkpoint" (its quantisation_config), "qlora" (nf4), "gpu" (the 16-bit
  /// format the card runs, Workload::sixteen_bit), "default" (bf16, no card asked).
  std::string dtype_chosen_by;
  std::string dtype_reason;     ///< a sentence for the user; "" for --dtype
  Workload workload;            ///< as run: defaults resolved (context, dtype, batch, strategy)
  uint64_t tokens = 0;          ///< per GPU: context (or patches) x batch
  bool weights_exact = false;   ///< weights from the checkpoint's safetensors headers
  uint64_t gathered_weights_bytes = 0;  ///< ZeRO-3/FSDP: all-gathered layers, included in weights_bytes
  /// Bytes per trainable parameter for weights + gradients + optimizer states (16 for ZeRO's mixed AdamW).
  double state_bytes_per_param = 0;
  std::string convention_text;  ///< "16 bytes/param: 2 weights + 2 gradients + 12 optimizer (ZeRO paper)"
  Breakdown per_gpu;            ///< what each GPU holds (shares are equal across GPUs)
  uint64_t all_gpus_bytes = 0;  ///< per_gpu total x GPUs
  std::vector<std::string> notes;     ///< conventions and assumptions used
  std::vector<std::string> warnings;  ///< context beyond the model's maximum, odd combinations
};

/// Fails for impossible combinations (full training of int4 weights, zero context, shards > 4096 GPUs).
Result<Estimate> estimate(const ModelShape& shape, const Workload& workload);

struct GpuCapacity {
  std::string name;              ///< "NVIDIA GeForce RTX 4090", "--vram 24G"
  uint64_t capacity_bytes = 0;   ///< what we may use: free memory when known, else total
  std::string basis;             ///< "free", "total", "--vram", "catalogue"
  std::optional<catalog::Precision> precision{};  ///< the formats it runs; nullopt when the card is not known
};

/// The GPUs of a machine with a known memory size: free memory when the driver reported it, else the total.
std::vector<GpuCapacity> gpu_capacities(const Inventory& inventory);

struct GpuFit {
  GpuCapacity gpu;
  uint64_t need_bytes = 0;
  int64_t headroom_bytes = 0;    ///< capacity - need (negative when it does not fit)
  bool fits = false;
};

/// One thing to change, with the new per-GPU total.
struct Suggestion {
  std::string change;            ///< "turn on gradient checkpointing"
  std::string flags;             ///< "--grad-checkpointing"
  uint64_t per_gpu_bytes = 0;
  bool fits = false;
};

/// Inference across unequal cards by layers in proportion to memory (llama.cpp --tensor-split,
/// accelerate device_map="auto"), instead of equal shares.
struct LayerSplit {
  std::vector<uint64_t> per_gpu_bytes;
  bool fits = false;
};

struct FitPlan {
  Estimate estimate;
  std::vector<GpuFit> gpus;        ///< empty when no hardware is known
  std::optional<bool> fits;        ///< every GPU fits its share; nullopt without hardware
  std::vector<Suggestion> suggestions;  ///< only when it does not fit
  std::optional<LayerSplit> layer_split;  ///< inference on unequal cards
  std::vector<std::string> notes;
};

/// Estimate, then check each GPU against its share. gpus.size() > 1 sets workload.num_gpus.
Result<FitPlan> plan_fit(const ModelShape& shape, const Workload& workload, const std::vector<GpuCapacity>& gpus);

/// Parameters of the largest generic (Llama-style) model whose per-GPU need fits `capacity_bytes`
/// under `workload` (its dtype and mode); 0 when not even a 1M-parameter model fits.
uint64_t largest_model_that_fits(uint64_t capacity_bytes, const Workload& workload);

struct MaxParamsTable {
  uint64_t capacity_bytes = 0;
  uint64_t infer_context = 0;
  uint64_t train_context = 0;
  uint64_t batch = 1;
  uint64_t infer_fp16 = 0;
  uint64_t infer_int8 = 0;
  uint64_t infer_int4 = 0;
  uint64_t train = 0;   ///< full training, 16-bit mixed AdamW under workload.convention
  uint64_t lora = 0;    ///< 16-bit base, gradient checkpointing
  uint64_t qlora = 0;   ///< nf4 base, gradient checkpointing (as PEFT's prepare_model_for_kbit_training)
  uint64_t naive_fp16 = 0;  ///< capacity / 2 bytes: the rule of thumb, for contrast
  uint64_t kept_free_bytes = 0;  ///< left free on the card in every row (kept_free_bytes(capacity))
  std::string sixteen_bit = "bf16";  ///< the 16-bit format of the inference, training and LoRA rows
  /// How each row is run, in the order infer_fp16, infer_int8, infer_int4, train, lora, qlora.
  std::vector<std::string> recipes;
  std::vector<std::string> notes;  ///< the 16-bit choice; the caller adds its own (which card, and why)
};
/// The learner's table: `base` supplies context, batch, optimizer, convention, checkpointing for full training and
/// the 16-bit format (sixteen_bit); LoRA and QLoRA always use gradient checkpointing, as the standard recipes do.
MaxParamsTable max_params_table(uint64_t capacity_bytes, const Workload& base);

}  // namespace gpuscout::plan
