// gpuscout fit: does this model fit, term by term; with no model, how big a model fits (docs/fit.md).
// Composes: hardware (probe, --vram, --gpu, --from) + model (--model, --config, --params) + workload flags
// -> plan::plan_fit / plan::max_params_table -> report/fit_render (text or JSON). No arithmetic here beyond unit
// parsing, and no formatting of the results.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/gpu_option.hpp"
#include "cli/usage.hpp"
#include "cli/inventory_source.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "core/error.hpp"
#include "core/i18n.hpp"
#include "core/text.hpp"
#include "core/units.hpp"
#include "plan/catalogue.hpp"
#include "plan/estimate.hpp"
#include "plan/hf_config.hpp"
#include "plan/precision_choice.hpp"
#include "report/fit_render.hpp"

namespace gpuscout::cli {
namespace {

struct FitOptions {
  std::string model;
  std::string config;
  std::string params;
  std::string vram;
  std::string gpu;
  std::string from;
  uint64_t gpus = 0;
  std::string mode = "infer";
  std::string dtype;
  std::string context;
  uint64_t batch = 0;  // 0: not given (the model's default, else 1)
  std::string optimizer = "adamw";
  std::string convention = "auto";
  bool grad_checkpointing = false;
  bool expandable_segments = false;
  uint64_t lora_rank = 16;
  std::string lora_targets = "q,k,v,o";
  std::string strategy;
  std::string kv_dtype;
  bool json = false;
  bool list_models = false;
};

uint64_t parse_context(const std::string& s) {
  // "8k" means 8192 tokens, as people say it; plain numbers are tokens.
  const std::string t = text::to_lower(text::trim(s));
  if (!t.empty() && t.back() == 'k') {
    const auto n = text::parse_uint(t.substr(0, t.size() - 1));
    if (n && *n > 0 && *n < (1u << 20)) return *n * 1024;
  } else if (const auto n = text::parse_int(t); n) {
    if (*n > 0) return static_cast<uint64_t>(*n);
  }
  throw UsageError(trf("--context '{}' is not a positive number of tokens (like 4096 or 8k)", s));
}

/// The card `fit` plans for on a machine without one: the free tier of Google Colab and Kaggle (data/platforms.csv).
constexpr const char* kFreeGpu = "Tesla T4";

std::optional<catalog::Precision> precision_of(const catalog::GpuSpec& spec) {
  return catalog::precision_for({.vendor = spec.vendor,
                                 .compute_capability = spec.compute_capability ? *spec.compute_capability : "",
                                 .architecture = spec.architecture});
}

std::vector<plan::GpuCapacity> gpus_from_catalogue(const std::string& name) {
  const auto m = catalog_gpu(name, tr("; or give its memory: --vram 24G"));
  if (m.mig_profile) {
    // A MIG slice holds only its own share of the card's memory: its profile says how much.
    if (!m.mig_memory_bytes)
      throw UsageError(trf("--gpu '{}' is a MIG slice of {} whose size is not named (like 1g.10gb): give "
                                   "its memory with --vram", name, m.spec->name));
    return {{fmt::format("{} MIG {}", m.spec->name, *m.mig_profile), *m.mig_memory_bytes, N_("catalogue"),
             precision_of(*m.spec)}};
  }
  if (!m.spec->memory_bytes || *m.spec->memory_bytes == 0)
    throw UsageError(trf("{} has no memory size in the GPU catalogue: give --vram 24G instead", m.spec->name));
  return {{m.spec->name, *m.spec->memory_bytes, N_("catalogue"), precision_of(*m.spec)}};
}

std::vector<plan::GpuCapacity> gpus_from_inventory(const Inventory& inv, const std::string& label) {
  auto out = plan::gpu_capacities(inv);
  if (out.empty() && !label.empty())
    throw UsageError(trf("{}: no GPU with a known memory size (give --vram 24G instead)", label));
  return out;
}

/// Hardware from the flags, or from this machine's probes when no flag names any.
std::vector<plan::GpuCapacity> resolve_gpus(const FitOptions& o, std::vector<std::string>& notes) {
  const int sources = int(!o.vram.empty()) + int(!o.gpu.empty()) + int(!o.from.empty());
  if (sources > 1) throw UsageError(tr("give only one of --vram, --gpu and --from"));
  std::vector<plan::GpuCapacity> gpus;
  if (!o.vram.empty()) {
    for (auto part : text::split(o.vram, ',')) {
      const auto size = parse_memory_size(part, "--vram");
      gpus.push_back({fmt::format("--vram {}", size.reading), size.bytes, "--vram", std::nullopt});
    }
  } else if (!o.gpu.empty()) {
    gpus = gpus_from_catalogue(o.gpu);
  } else {
    const Inventory inventory = obtain_inventory({o.from, /*python=*/false});
    gpus = gpus_from_inventory(inventory, o.from);
    const bool no_gpu = std::ranges::none_of(inventory.gpus, [](const Gpu& g) { return !g.integrated; });
    if (gpus.empty() && o.from.empty() && no_gpu) {
      gpus = gpus_from_catalogue(kFreeGpu);
      notes.push_back(trf("no GPU on this machine: planning for the free {} ({}) of Google Colab and Kaggle; "
                                  "--vram 24G, --gpu NAME or --from FILE plan for another card",
                                  gpus.front().name, units::format_bytes(gpus.front().capacity_bytes)));
    } else if (gpus.empty() && o.from.empty()) {
      notes.push_back(tr("no GPU with known memory found on this machine: give --vram 24G, --gpu NAME or --from FILE"));
    }
  }
  if (o.gpus > 0) {  // 0: not given (the option's check refuses a given 0)
    if (gpus.size() == 1) {
      gpus.resize(o.gpus, gpus.front());
    } else if (!gpus.empty() && gpus.size() != o.gpus) {
      throw UsageError(trf("--gpus {} but {} GPUs were given or found", o.gpus, gpus.size()));
    } else if (gpus.empty()) {
      throw UsageError(tr("--gpus needs a memory size: add --vram 24G or --gpu NAME"));
    }
  }
  return gpus;
}

plan::Workload make_workload(const FitOptions& o, const std::vector<plan::GpuCapacity>& gpus) {
  plan::Workload w;
  w.sixteen_bit = plan::choose_sixteen_bit(gpus);
  w.mode = usage(plan::parse_mode(o.mode));
  w.dtype = o.dtype;
  if (!w.dtype.empty()) w.dtype = usage(plan::weight_format(w.dtype)).name;
  if (!o.context.empty()) w.context_tokens = parse_context(o.context);
  w.batch = o.batch;
  w.optimizer = usage(plan::parse_optimizer(o.optimizer));
  w.convention = usage(plan::parse_convention(o.convention));
  w.grad_checkpointing = o.grad_checkpointing;
  w.expandable_segments = o.expandable_segments;
  w.lora_rank = o.lora_rank;
  w.lora_targets.clear();
  for (auto t : text::split(o.lora_targets, ','))
    if (!text::trim(t).empty()) w.lora_targets.emplace_back(text::trim(t));
  if (!o.strategy.empty()) w.strategy = usage(plan::parse_strategy(o.strategy));
  w.kv_dtype = o.kv_dtype;
  return w;
}

void run_fit(const FitOptions& o, GlobalOptions& global) {
  if (o.list_models) {
    const auto all = usage(plan::load_catalogue());
    (o.json ? print : print_text)(o.json ? report::model_catalogue_json(all).dump(2) + "\n"
                                         : report::render_model_catalogue_text(all));
    return;
  }
  const int models = int(!o.model.empty()) + int(!o.config.empty()) + int(!o.params.empty());
  if (models > 1) throw UsageError(tr("give only one of --model, --config and --params"));
  std::vector<std::string> notes;

  plan::ModelShape shape;
  std::vector<std::string> warnings;
  if (!o.model.empty()) {
    shape = usage(plan::find_model(o.model)).shape;
  } else if (!o.config.empty()) {
    auto read = usage(plan::load_hf_config(o.config));
    shape = std::move(read.shape);
    warnings = std::move(read.warnings);
  } else if (!o.params.empty()) {
    const uint64_t n = usage(units::parse_count(o.params));
    if (n < 1000000 || n > 10000000000000ULL)
      throw UsageError(trf("--params {}: use 1M to 10T parameters", o.params));
    shape = plan::generic_shape(n);
  }
  const auto gpus = resolve_gpus(o, notes);
  const plan::Workload workload = make_workload(o, gpus);

  if (models == 0) {
    if (gpus.empty())
      throw UsageError(tr("no GPU found and no model given: give --vram 24G (or --gpu NAME, --from FILE) to see what "
                       "fits, or --model NAME to see what a model needs"));
    const auto smallest = *std::min_element(gpus.begin(), gpus.end(), [](const auto& a, const auto& b) {
      return a.capacity_bytes < b.capacity_bytes;
    });
    auto table = plan::max_params_table(smallest.capacity_bytes, workload);
    table.notes.insert(table.notes.end(), notes.begin(), notes.end());
    (o.json ? print : print_text)(o.json ? report::max_params_json(table, {smallest}, workload).dump(2) + "\n"
                                         : report::render_max_params_text(table, {smallest}, workload));
    return;
  }

  auto result = usage(plan::plan_fit(shape, workload, gpus));
  for (const auto& wmsg : warnings) fmt::print(stderr, "{}\n", trf("gpuscout: warning: {}", wmsg));
  for (const auto& wmsg : result.estimate.warnings) fmt::print(stderr, "{}\n", trf("gpuscout: warning: {}", wmsg));
  // What the config reader and the hardware lookup said belongs to the plan the user sees (after its own).
  result.estimate.warnings.insert(result.estimate.warnings.end(), warnings.begin(), warnings.end());
  result.notes.insert(result.notes.end(), notes.begin(), notes.end());
  (o.json ? print : print_text)(o.json ? report::fit_plan_json(result, shape).dump(2) + "\n"
                                       : report::render_fit_plan_text(result, shape));
  global.exit_code = 0;
}

}  // namespace

void add_fit_command(CLI::App& app, GlobalOptions& global) {
  auto* sub = app.add_subcommand("fit", tr("Does a model fit my GPU (term by term), and how big a model fits"));
  auto opts = std::make_shared<FitOptions>();
  sub->add_option("--model", opts->model, tr("A model from the built-in catalogue (--list-models)"));
  sub->add_option("--config", opts->config, tr("A Hugging Face config.json, or a model folder (safetensors for exact bytes)"))->type_name("PATH");
  sub->add_option("--params", opts->params, tr("A generic Llama-style model of this size (7B, 770M)"));
  sub->add_option("--vram", opts->vram,
                  tr("GPU memory with its unit, or a list for several cards (24G = 24 GiB, 24GB = 24 x 10^9 bytes; 8G,32G)"));
  sub->add_option("--gpu", opts->gpu, tr("A GPU by name, as nvidia-smi prints it or from the catalogue (RTX 4090, A100 80GB)"));
  sub->add_option("--from", opts->from, tr("An inventory saved by `gpuscout info --json` on another machine"))->type_name("FILE");
  sub->add_option("--gpus", opts->gpus, tr("Number of GPUs (with one --vram or --gpu)"))->transform(whole_number(1, 4096));
  sub->add_option("--mode", opts->mode, tr("infer, train, lora or qlora"))->capture_default_str();
  sub->add_option("--dtype", opts->dtype,
                  tr("Weights: fp32 fp16 bf16 fp8 int8 int4 nf4, or GGUF q8_0 q6_k q5_k_m q4_k_m q4_0 q3_k_m q2_k ..."));
  sub->add_option("--context", opts->context, tr("Tokens per sequence (default 4096 inference, 2048 training; 8k = 8192)"));
  sub->add_option("--batch", opts->batch,
                  tr("Sequences (images) per GPU, the micro-batch (default 1; vision models: the batch a course uses)"))
      ->transform(whole_number(1, 1ULL << 20));
  sub->add_option("--optimizer", opts->optimizer, tr("adamw, adamw8bit, sgd or adafactor"))->capture_default_str();
  sub->add_option("--convention", opts->convention,
                  tr("Bytes per parameter for mixed-precision training: auto (hf on one GPU and DDP, zero with ZeRO "
                     "and FSDP), zero (16, ZeRO paper), hf (18, torch.autocast and HF Trainer AMP), pure (8, bf16 "
                     "states)"))
      ->capture_default_str();
  sub->add_flag("--grad-checkpointing", opts->grad_checkpointing, tr("Recompute activations in the backward pass"));
  sub->add_flag("--expandable-segments", opts->expandable_segments,
                tr("Training with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (less memory held back)"));
  sub->add_option("--lora-rank", opts->lora_rank, tr("LoRA rank"))
      ->capture_default_str()
      ->transform(whole_number(1, 65536));
  sub->add_option("--lora-targets", opts->lora_targets, tr("LoRA target modules: q,k,v,o,gate,up,down or all"))
      ->capture_default_str();
  sub->add_option("--strategy", opts->strategy, tr("Several GPUs: ddp zero1 zero2 zero3 fsdp tp pp"));
  sub->add_option("--kv-dtype", opts->kv_dtype, tr("KV cache type: fp16 (default), fp8, int8, q4_0, fp32"));
  sub->add_flag("--json", opts->json, tr("Print JSON (docs/fit.md)"));
  sub->add_flag("--list-models", opts->list_models, tr("List the built-in model catalogue"));
  sub->callback([opts, &global] { run_fit(*opts, global); });
}

}  // namespace gpuscout::cli
