#include "plan/workload.hpp"

#include <array>

#include <fmt/format.h>

#include "core/i18n.hpp"
#include "core/text.hpp"

namespace gpuscout::plan {
namespace {

template <typename E, size_t N>
/// `error`: the whole message, "'{}' is not a mode: use one of {}" (the word and the names), marked with N_.
Result<E> parse_enum(std::string_view s, const std::array<std::pair<const char*, E>, N>& table, const char* error) {
  const std::string want = text::to_lower(text::trim(s));
  std::vector<std::string> names;
  for (const auto& [n, v] : table) {
    if (want == n) return v;
    names.emplace_back(n);
  }
  return fail(trf(error, s, text::join(names, ", ")));
}

constexpr std::array<std::pair<const char*, Mode>, 5> kModes{{
    {"infer", Mode::infer}, {"inference", Mode::infer}, {"train", Mode::train}, {"lora", Mode::lora},
    {"qlora", Mode::qlora}}};
constexpr std::array<std::pair<const char*, Optimizer>, 5> kOptimizers{{
    {"adamw", Optimizer::adamw}, {"adam", Optimizer::adamw}, {"adamw8bit", Optimizer::adamw8bit},
    {"sgd", Optimizer::sgd}, {"adafactor", Optimizer::adafactor}}};
constexpr std::array<std::pair<const char*, Convention>, 7> kConventions{{
    {"auto", Convention::automatic}, {"zero", Convention::zero}, {"16", Convention::zero}, {"hf", Convention::hf}, {"18", Convention::hf},
    {"pure", Convention::pure}, {"8", Convention::pure}}};
constexpr std::array<std::pair<const char*, Strategy>, 9> kStrategies{{
    {"single", Strategy::single}, {"ddp", Strategy::ddp}, {"zero1", Strategy::zero1}, {"zero2", Strategy::zero2},
    {"zero3", Strategy::zero3}, {"fsdp", Strategy::fsdp}, {"tp", Strategy::tp}, {"pp", Strategy::pp},
    {"none", Strategy::single}}};

struct FormatRow {
  const char* name;
  double linear_bits;
  double other_bits;
  bool quantised;
  bool gguf;
  const char* note;
  bool experts_only = false;
};

// HF-style quantisation shrinks only the blocks' linear layers. Scales: int4 as GPTQ/AWQ with group 128
// (fp16 scale + 4-bit zero per 128 weights); nf4/fp4 as bitsandbytes blocksize 64 with double quantisation
// (8-bit absmax per 64 weights + an fp32 scale per 256 blocks); int8 as LLM.int8 (one fp32 scale per row,
// negligible). GGUF: llama.cpp's published average bits per weight for Llama-2-7B (tools/quantize/README.md)
// over every tensor; the _0 formats from their block layout (Q8_0: 34 bytes per 32 weights).
constexpr FormatRow kFormats[] = {
    {"fp32", 32, 32, false, false, N_("IEEE single precision")},
    {"fp16", 16, 16, false, false, N_("IEEE half precision")},
    {"bf16", 16, 16, false, false, N_("bfloat16")},
    {"fp8", 8, 16, true, false, N_("FP8 E4M3 linear layers, per-tensor scales")},
    {"int8", 8, 16, true, false, N_("LLM.int8 linear layers (bitsandbytes)")},
    {"int4", 4.15625, 16, true, false, N_("4-bit linear layers, group 128 (GPTQ/AWQ): 4 + 20/128 bits")},
    {"nf4", 4.127, 16, true, false, N_("bitsandbytes NF4, blocksize 64, double quantisation: 4 + 8/64 + 32/16384 bits")},
    {"fp4", 4.127, 16, true, false, N_("bitsandbytes FP4, blocksize 64, double quantisation")},
    {"mxfp4", 4.25, 16, true, false,
     N_("MXFP4 experts (OCP microscaling): 32 FP4 values share one 8-bit scale, 4 + 8/32 bits"), true},
    {"q8_0", 8.5, 8.5, true, true, N_("GGUF Q8_0 (34 bytes per 32 weights)")},
    {"q6_k", 6.56, 6.56, true, true, N_("GGUF Q6_K, llama.cpp's figure for Llama-2-7B")},
    {"q5_k_m", 5.68, 5.68, true, true, N_("GGUF Q5_K_M, llama.cpp's figure for Llama-2-7B")},
    {"q5_k_s", 5.52, 5.52, true, true, N_("GGUF Q5_K_S, llama.cpp's figure for Llama-2-7B")},
    {"q5_0", 5.5, 5.5, true, true, N_("GGUF Q5_0 (22 bytes per 32 weights)")},
    {"q4_k_m", 4.84, 4.84, true, true, N_("GGUF Q4_K_M, llama.cpp's figure for Llama-2-7B")},
    {"q4_k_s", 4.58, 4.58, true, true, N_("GGUF Q4_K_S, llama.cpp's figure for Llama-2-7B")},
    {"q4_0", 4.5, 4.5, true, true, N_("GGUF Q4_0 (18 bytes per 32 weights)")},
    {"q3_k_l", 4.27, 4.27, true, true, N_("GGUF Q3_K_L, llama.cpp's figure for Llama-2-7B")},
    {"q3_k_m", 3.91, 3.91, true, true, N_("GGUF Q3_K_M, llama.cpp's figure for Llama-2-7B")},
    {"q3_k_s", 3.50, 3.50, true, true, N_("GGUF Q3_K_S, llama.cpp's figure for Llama-2-7B")},
    {"q2_k", 3.35, 3.35, true, true, N_("GGUF Q2_K, llama.cpp's figure for Llama-2-7B")},
};

}  // namespace

std::string_view name(Mode m) {
  switch (m) {
    case Mode::infer: return "infer";
    case Mode::train: return "train";
    case Mode::lora: return "lora";
    case Mode::qlora: return "qlora";
  }
  return "?";
}
std::string_view name(Optimizer o) {
  switch (o) {
    case Optimizer::adamw: return "adamw";
    case Optimizer::adamw8bit: return "adamw8bit";
    case Optimizer::sgd: return "sgd";
    case Optimizer::adafactor: return "adafactor";
  }
  return "?";
}
std::string_view name(Convention c) {
  switch (c) {
    case Convention::automatic: return "auto";
    case Convention::zero: return "zero";
    case Convention::hf: return "hf";
    case Convention::pure: return "pure";
  }
  return "?";
}
std::string_view name(Strategy s) {
  switch (s) {
    case Strategy::single: return "single";
    case Strategy::ddp: return "ddp";
    case Strategy::zero1: return "zero1";
    case Strategy::zero2: return "zero2";
    case Strategy::zero3: return "zero3";
    case Strategy::fsdp: return "fsdp";
    case Strategy::tp: return "tp";
    case Strategy::pp: return "pp";
  }
  return "?";
}

Result<Mode> parse_mode(std::string_view s) {
  return parse_enum(s, kModes, N_("'{}' is not a mode: use one of {}"));
}
Result<Optimizer> parse_optimizer(std::string_view s) {
  return parse_enum(s, kOptimizers, N_("'{}' is not an optimizer: use one of {}"));
}
Result<Convention> parse_convention(std::string_view s) {
  return parse_enum(s, kConventions, N_("'{}' is not a convention: use one of {}"));
}
Result<Strategy> parse_strategy(std::string_view s) {
  return parse_enum(s, kStrategies, N_("'{}' is not a strategy: use one of {}"));
}

Result<WeightFormat> weight_format(std::string_view s) {
  std::string want = text::to_lower(text::trim(s));
  if (want == "float32") want = "fp32";
  if (want == "float16") want = "fp16";
  if (want == "bfloat16") want = "bf16";
  for (const auto& row : kFormats) {
    if (want == row.name)
      return WeightFormat{row.name, row.linear_bits, row.other_bits, row.quantised, row.gguf, row.experts_only,
                          tr(row.note)};
  }
  return fail(trf("'{}' is not a weight format: use one of {}", s, text::join(weight_format_names(), ", ")));
}

std::vector<std::string> weight_format_names() {
  std::vector<std::string> names;
  for (const auto& row : kFormats) names.emplace_back(row.name);
  return names;
}

uint64_t kept_free_bytes(uint64_t capacity_bytes) {
  return static_cast<uint64_t>(double(capacity_bytes) * kKeptFreeShare);
}

uint64_t effective_context(const Workload& w, uint64_t model_max) {
  if (w.context_tokens > 0) return w.context_tokens;
  const uint64_t fallback = w.mode == Mode::infer ? 4096 : 2048;
  return model_max > 0 && model_max < fallback ? model_max : fallback;
}

}  // namespace gpuscout::plan
