#pragma once
/// What the user wants to run: mode, number format, context, batch, optimizer, strategy; and the
/// weight formats we know (bits per weight including the quantiser's scales).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/units.hpp"

namespace gpuscout::plan {

enum class Mode { infer, train, lora, qlora };
enum class Optimizer { adamw, adamw8bit, sgd, adafactor };
/// Bytes per trainable parameter for 16-bit mixed-precision AdamW, by whose accounting:
/// zero 16 (ZeRO paper: 2 weights + 2 grads + 12 fp32 master/m/v), hf 18 (HF Trainer AMP: 6 weights
/// fp32+16-bit copy, 4 fp32 grads, 8 m/v), pure 8 (bf16 weights, grads and m/v, no master copy).
/// automatic: hf (what torch.autocast training holds) for one GPU, DDP, TP and PP; zero for ZeRO and FSDP, which
/// keep 16-bit weights and gradients beside the fp32 master copy (resolved by estimate()).
enum class Convention { automatic, zero, hf, pure };
enum class Strategy { single, ddp, zero1, zero2, zero3, fsdp, tp, pp };

std::string_view name(Mode m);
std::string_view name(Optimizer o);
std::string_view name(Convention c);
std::string_view name(Strategy s);
/// Parsers for the CLI words; the error lists the accepted ones.
Result<Mode> parse_mode(std::string_view s);
Result<Optimizer> parse_optimizer(std::string_view s);
Result<Convention> parse_convention(std::string_view s);  ///< also "16", "18", "8"
Result<Strategy> parse_strategy(std::string_view s);

/// How one weight is stored.
struct WeightFormat {
  std::string name;          ///< "bf16", "nf4", "q4_k_m"
  double linear_bits = 16;   ///< per weight of the blocks' linear layers, scales included
  double other_bits = 16;    ///< embeddings, LM head, norms, biases (16-bit unless the format says)
  bool quantised = false;    ///< only inference and QLoRA may use it
  bool gguf = false;         ///< llama.cpp formats quantise every tensor (average bits per weight)
  bool experts_only = false; ///< MXFP4: only the routed experts' linear layers (attention stays 16-bit)
  std::string note;          ///< where the bits come from
};
/// fp32 fp16 bf16 fp8 int8 int4 nf4 fp4 mxfp4, and GGUF q8_0 q6_k q5_k_m q5_k_s q5_0 q4_k_m q4_k_s q4_0 q3_k_l q3_k_m
/// q3_k_s q2_k (case-insensitive).
Result<WeightFormat> weight_format(std::string_view name);
std::vector<std::string> weight_format_names();

/// The 16-bit format a plan uses when --dtype is not given, and why (plan/precision_choice.hpp decides it from
/// the GPU: bf16 only where the card runs it, else fp16).
struct SixteenBit {
  std::string dtype = "bf16";
  std::string reason;            ///< "" = no GPU was asked (library callers); else a sentence for the user
  bool from_card = false;        ///< decided by a card's known formats (not assumed)
};

struct Workload {
  Mode mode = Mode::infer;
  std::string dtype;             ///< "" = the checkpoint's quantisation if any, nf4 for qlora, else sixteen_bit
  SixteenBit sixteen_bit;        ///< the default 16-bit format, chosen by the caller from the GPU
  uint64_t context_tokens = 0;   ///< 0 = default: 4096 for inference, 2048 for training (capped at the model's)
  uint64_t batch = 1;            ///< sequences (images) per GPU, the micro-batch; 0 = the model's default (else 1)
  Optimizer optimizer = Optimizer::adamw;
  Convention convention = Convention::automatic;
  bool grad_checkpointing = false;
  uint64_t lora_rank = 16;
  std::vector<std::string> lora_targets = {"q", "k", "v", "o"};  ///< q k v o gate up down, or "all"
  Strategy strategy = Strategy::single;
  uint64_t num_gpus = 1;
  std::string kv_dtype;          ///< "" = 16-bit (fp32 with fp32 weights); fp8/int8 for a quantised cache
  /// The card's architecture ("Hopper", from data/precision.csv), "" when no card is known: picks the CUDA
  /// context's size (data/cuda_context.csv).
  std::string gpu_architecture;
  double allocator_slack = 0.05; ///< caching-allocator fragmentation, as a share of activations and gradients
  /// PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True: the optimizer step's temporaries reuse the memory the
  /// forward and backward passes freed, instead of new blocks beside them.
  bool expandable_segments = false;
  /// Per GPU: memory of the card the process cannot use (display, driver and allocator reserve), set from the
  /// card by plan_fit and max_params_table (kept_free_bytes); 0 when no card is known.
  uint64_t kept_free_bytes = 0;
};

/// Share of a card's memory a plan leaves free (docs/fit.md: vLLM's default gpu_memory_utilization of 0.9).
constexpr double kKeptFreeShare = 0.10;
/// What a plan leaves free on a card of `capacity_bytes`.
uint64_t kept_free_bytes(uint64_t capacity_bytes);

/// The context a workload runs at for a model whose maximum is `model_max` (0 if unknown).
uint64_t effective_context(const Workload& w, uint64_t model_max);

}  // namespace gpuscout::plan
