// gpuscout fit: does this model fit, term by term; with no model, how big a model fits (docs/fit.md).
// Composes: hardware (probe, --vram, --gpu, --from) + model (--model, --config, --params) + workload flags
// -> plan::plan_fit / plan::max_params_table -> text or JSON. No arithmetic here beyond unit parsing.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/inventory_source.hpp"
#include "core/data_files.hpp"
#include "core/error.hpp"
#include "core/text.hpp"
#include "core/units.hpp"
#include "inventory/json.hpp"
#include "plan/catalogue.hpp"
#include "plan/estimate.hpp"
#include "plan/hf_config.hpp"

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
  uint64_t batch = 1;
  std::string optimizer = "adamw";
  std::string convention = "zero";
  bool grad_checkpointing = false;
  uint64_t lora_rank = 16;
  std::string lora_targets = "q,k,v,o";
  std::string strategy;
  std::string kv_dtype;
  bool json = false;
  bool list_models = false;
};

template <typename T>
T usage(Result<T> r) {
  if (!r) throw UsageError(r.error().message);
  return std::move(*r);
}

uint64_t parse_context(const std::string& s) {
  // "8k" means 8192 tokens, as people say it; plain numbers are tokens.
  const std::string t = text::to_lower(text::trim(s));
  if (!t.empty() && t.back() == 'k') {
    const auto n = text::parse_uint(t.substr(0, t.size() - 1));
    if (n && *n > 0 && *n < (1u << 20)) return *n * 1024;
  } else if (const auto n = text::parse_int(t); n) {
    if (*n > 0) return static_cast<uint64_t>(*n);
  }
  throw UsageError(fmt::format("--context '{}' is not a positive number of tokens (like 4096 or 8k)", s));
}

std::vector<plan::GpuCapacity> gpus_from_catalogue(const std::string& name) {
  const auto table = usage(core::load_table("gpus.csv"));
  const std::string want = text::to_lower(text::trim(name));
  std::vector<std::string> names;
  for (const auto& row : table.rows()) {
    std::vector<std::string> labels = {std::string(table.cell(row, "name"))};
    for (auto a : text::split(table.cell(row, "aliases"), ';'))
      if (!text::trim(a).empty()) labels.emplace_back(text::trim(a));
    names.push_back(labels.front());
    for (const auto& l : labels) {
      if (text::to_lower(l) != want) continue;
      const auto bytes = text::parse_uint(table.cell(row, "memory_bytes"));
      if (!bytes || *bytes == 0)
        throw UsageError(fmt::format("{} has no memory size in {}", labels.front(), table.source()));
      return {{labels.front(), *bytes, "catalogue"}};
    }
  }
  std::vector<std::string> near;
  for (const auto& n : names)
    if (text::contains_icase(n, want) || text::contains_icase(want, n)) near.push_back(n);
  throw UsageError(fmt::format("--gpu '{}' is not in the GPU catalogue{}", name,
                               near.empty() ? std::string(" (give --vram 24G instead)")
                                            : fmt::format("; did you mean: {}", text::join(near, ", "))));
}

std::vector<plan::GpuCapacity> gpus_from_inventory(const Inventory& inv, const std::string& label) {
  auto out = plan::gpu_capacities(inv);
  if (out.empty() && !label.empty())
    throw UsageError(fmt::format("{}: no GPU with a known memory size (give --vram 24G instead)", label));
  return out;
}

/// Hardware from the flags, or from this machine's probes when no flag names any.
std::vector<plan::GpuCapacity> resolve_gpus(const FitOptions& o, std::vector<std::string>& notes) {
  const int sources = int(!o.vram.empty()) + int(!o.gpu.empty()) + int(!o.from.empty());
  if (sources > 1) throw UsageError("give only one of --vram, --gpu and --from");
  std::vector<plan::GpuCapacity> gpus;
  if (!o.vram.empty()) {
    for (auto part : text::split(o.vram, ',')) {
      const uint64_t bytes = usage(units::parse_bytes(part));
      gpus.push_back({fmt::format("--vram {}", text::trim(part)), bytes, "--vram"});
    }
  } else if (!o.gpu.empty()) {
    gpus = gpus_from_catalogue(o.gpu);
  } else {
    gpus = gpus_from_inventory(obtain_inventory({o.from, /*python=*/false}), o.from);
    if (gpus.empty() && o.from.empty())
      notes.push_back("no GPU with known memory found on this machine: give --vram 24G, --gpu NAME or --from FILE");
  }
  if (o.gpus > 0) {
    if (o.gpus > 4096) throw UsageError("--gpus: at most 4096");
    if (gpus.size() == 1) {
      gpus.resize(o.gpus, gpus.front());
    } else if (!gpus.empty() && gpus.size() != o.gpus) {
      throw UsageError(fmt::format("--gpus {} but {} GPUs were given or found", o.gpus, gpus.size()));
    } else if (gpus.empty()) {
      throw UsageError("--gpus needs a memory size: add --vram 24G or --gpu NAME");
    }
  }
  return gpus;
}

plan::Workload make_workload(const FitOptions& o) {
  plan::Workload w;
  w.mode = usage(plan::parse_mode(o.mode));
  w.dtype = o.dtype;
  if (!w.dtype.empty()) w.dtype = usage(plan::weight_format(w.dtype)).name;
  if (!o.context.empty()) w.context_tokens = parse_context(o.context);
  if (o.batch == 0) throw UsageError("--batch must be at least 1");
  w.batch = o.batch;
  w.optimizer = usage(plan::parse_optimizer(o.optimizer));
  w.convention = usage(plan::parse_convention(o.convention));
  w.grad_checkpointing = o.grad_checkpointing;
  if (o.lora_rank == 0) throw UsageError("--lora-rank must be at least 1");
  w.lora_rank = o.lora_rank;
  w.lora_targets.clear();
  for (auto t : text::split(o.lora_targets, ','))
    if (!text::trim(t).empty()) w.lora_targets.emplace_back(text::trim(t));
  if (!o.strategy.empty()) w.strategy = usage(plan::parse_strategy(o.strategy));
  w.kv_dtype = o.kv_dtype;
  return w;
}

std::string bytes_or_dash(uint64_t b) { return b == 0 ? "-" : units::format_bytes(b); }

Json breakdown_json(const plan::Breakdown& b) {
  Json j = Json::object();
  j["weights_bytes"] = b.weights_bytes;
  j["kv_cache_bytes"] = b.kv_cache_bytes;
  j["activations_bytes"] = b.activations_bytes;
  j["gradients_bytes"] = b.gradients_bytes;
  j["optimizer_bytes"] = b.optimizer_bytes;
  j["adapters_bytes"] = b.adapters_bytes;
  j["overhead_bytes"] = b.overhead_bytes();
  return j;
}

Json gpus_json(const std::vector<plan::GpuCapacity>& gpus) {
  Json a = Json::array();
  for (const auto& g : gpus) a.push_back({{"name", g.name}, {"capacity_bytes", g.capacity_bytes}, {"basis", g.basis}});
  return a;
}

Json plan_json(const plan::FitPlan& p, const plan::ModelShape& shape) {
  const auto& e = p.estimate;
  const auto& w = e.workload;
  Json j = Json::object();
  j["schema"] = "gpuscout.fit/1";
  j["model"] = {{"name", e.model},
                {"model_type", shape.model_type},
                {"source", shape.source},
                {"max_position_embeddings", shape.max_position_embeddings ? Json(*shape.max_position_embeddings) : Json()}};
  j["params"] = e.params.total;
  j["active_params"] = e.params.active;
  j["trainable_params"] = e.trainable_params;
  Json lora_targets = Json::array();
  for (const auto& t : w.lora_targets) lora_targets.push_back(t);
  j["workload"] = {{"mode", plan::name(w.mode)},
                   {"dtype", e.format.name},
                   {"context_tokens", w.context_tokens},
                   {"batch", w.batch},
                   {"tokens", e.tokens},
                   {"optimizer", plan::name(w.optimizer)},
                   {"convention", plan::name(w.convention)},
                   {"grad_checkpointing", w.grad_checkpointing},
                   {"lora_rank", w.mode == plan::Mode::lora || w.mode == plan::Mode::qlora ? Json(w.lora_rank) : Json()},
                   {"lora_targets", w.mode == plan::Mode::lora || w.mode == plan::Mode::qlora ? lora_targets : Json()},
                   {"strategy", plan::name(w.strategy)},
                   {"num_gpus", w.num_gpus},
                   {"kv_dtype", w.kv_dtype.empty() ? Json() : Json(w.kv_dtype)}};
  j["convention"] = {{"bytes_per_param", e.state_bytes_per_param > 0 ? Json(e.state_bytes_per_param) : Json()},
                     {"text", e.convention_text},
                     {"weight_bits", e.format.linear_bits},
                     {"weight_format_note", e.format.note}};
  j["total_bytes"] = e.per_gpu.total_bytes();
  j["all_gpus_bytes"] = e.all_gpus_bytes;
  j["weights_exact"] = e.weights_exact;
  j["gathered_weights_bytes"] = e.gathered_weights_bytes;
  j["breakdown"] = breakdown_json(e.per_gpu);
  j["overhead"] = {{"cuda_context_bytes", e.per_gpu.cuda_context_bytes},
                   {"allocator_slack_bytes", e.per_gpu.allocator_slack_bytes}};
  if (w.num_gpus > 1) {
    Json per = Json::array();
    for (uint64_t i = 0; i < w.num_gpus; ++i) per.push_back(e.per_gpu.total_bytes());
    j["per_gpu_bytes"] = per;
  } else {
    j["per_gpu_bytes"] = nullptr;
  }
  if (p.gpus.empty()) {
    j["fits"] = nullptr;
  } else {
    Json fits = Json::array();
    for (const auto& g : p.gpus)
      fits.push_back({{"name", g.gpu.name},
                      {"capacity_bytes", g.gpu.capacity_bytes},
                      {"basis", g.gpu.basis},
                      {"need_bytes", g.need_bytes},
                      {"headroom_bytes", g.headroom_bytes},
                      {"fits", g.fits}});
    j["fits"] = fits;
  }
  j["fits_all"] = p.fits ? Json(*p.fits) : Json();
  if (p.layer_split) {
    Json per = Json::array();
    for (auto b : p.layer_split->per_gpu_bytes) per.push_back(b);
    j["layer_split"] = {{"per_gpu_bytes", per}, {"fits", p.layer_split->fits}};
  } else {
    j["layer_split"] = nullptr;
  }
  Json sug = Json::array();
  for (const auto& s : p.suggestions)
    sug.push_back({{"change", s.change}, {"flags", s.flags}, {"total_bytes", s.per_gpu_bytes}, {"fits", s.fits}});
  j["suggestions"] = sug;
  Json notes = Json::array();
  for (const auto& n : e.notes) notes.push_back(n);
  for (const auto& n : p.notes) notes.push_back(n);
  j["notes"] = notes;
  Json warnings = Json::array();
  for (const auto& n : e.warnings) warnings.push_back(n);
  j["warnings"] = warnings;
  return j;
}

void print_plan(const plan::FitPlan& p, const plan::ModelShape& shape) {
  const auto& e = p.estimate;
  const auto& w = e.workload;
  const auto& b = e.per_gpu;
  std::string what = fmt::format("{}, {}", plan::name(w.mode), e.format.name);
  if (shape.arch == plan::Arch::decoder || shape.arch == plan::Arch::encoder)
    what += fmt::format(", context {} x batch {}", w.context_tokens, w.batch);
  else
    what += fmt::format(", batch {}", w.batch);
  if (w.mode != plan::Mode::infer) {
    what += fmt::format(", {}", plan::name(w.optimizer));
    if (w.grad_checkpointing) what += ", checkpointing";
  }
  if (w.num_gpus > 1) what += fmt::format(", {} GPUs ({})", w.num_gpus, plan::name(w.strategy));
  std::string params = units::format_count(e.params.total);
  if (e.params.active != e.params.total) params += fmt::format(" ({} active)", units::format_count(e.params.active));
  fmt::print("{}: {} parameters; {}\n", e.model, params, what);
  const char* per = w.num_gpus > 1 ? " per GPU" : "";
  fmt::print("  {:<18} {:>12}\n", "weights", bytes_or_dash(b.weights_bytes));
  fmt::print("  {:<18} {:>12}\n", "KV cache", bytes_or_dash(b.kv_cache_bytes));
  fmt::print("  {:<18} {:>12}\n", "activations", bytes_or_dash(b.activations_bytes));
  fmt::print("  {:<18} {:>12}\n", "gradients", bytes_or_dash(b.gradients_bytes));
  fmt::print("  {:<18} {:>12}\n", "optimizer states", bytes_or_dash(b.optimizer_bytes));
  fmt::print("  {:<18} {:>12}\n", "LoRA adapters", bytes_or_dash(b.adapters_bytes));
  fmt::print("  {:<18} {:>12}\n", "CUDA context", bytes_or_dash(b.cuda_context_bytes));
  fmt::print("  {:<18} {:>12}\n", "allocator slack", bytes_or_dash(b.allocator_slack_bytes));
  fmt::print("  {:<18} {:>12}{}\n", "total", units::format_bytes(b.total_bytes()), per);
  fmt::print("convention: {}\n", e.convention_text);
  if (!e.format.note.empty() && e.format.name != "bf16" && e.format.name != "fp16" && e.format.name != "fp32")
    fmt::print("weights: {}\n", e.format.note);
  for (const auto& g : p.gpus) {
    if (g.fits)
      fmt::print("{} ({}{}): fits, {} to spare\n", g.gpu.name, units::format_bytes(g.gpu.capacity_bytes),
                 g.gpu.basis == "--vram" ? "" : " " + g.gpu.basis,
                 units::format_bytes(static_cast<uint64_t>(g.headroom_bytes)));
    else
      fmt::print("{} ({}{}): does NOT fit, {} short\n", g.gpu.name, units::format_bytes(g.gpu.capacity_bytes),
                 g.gpu.basis == "--vram" ? "" : " " + g.gpu.basis,
                 units::format_bytes(static_cast<uint64_t>(-g.headroom_bytes)));
  }
  if (p.gpus.empty()) fmt::print("no GPU to check against: give --vram 24G, --gpu NAME or --from FILE\n");
  if (p.layer_split) {
    std::vector<std::string> parts;
    for (auto x : p.layer_split->per_gpu_bytes) parts.push_back(units::format_bytes(x));
    fmt::print("split by layers in proportion to memory: {} -> {}\n", text::join(parts, " / "),
               p.layer_split->fits ? "fits" : "does not fit");
  }
  if (!p.suggestions.empty()) {
    fmt::print("what to change:\n");
    for (const auto& s : p.suggestions)
      fmt::print("  {:<66} {:>10}  {:<4}  {}\n", s.change, units::format_bytes(s.per_gpu_bytes), s.fits ? "fits" : "no",
                 s.flags);
  }
  for (const auto& n : e.notes) fmt::print("note: {}\n", n);
  for (const auto& n : p.notes) fmt::print("note: {}\n", n);
}

void print_table(const plan::MaxParamsTable& t, const std::vector<plan::GpuCapacity>& gpus,
                 const plan::Workload& base, bool json) {
  if (json) {
    Json j = Json::object();
    j["schema"] = "gpuscout.fit/1";
    j["capacity_bytes"] = t.capacity_bytes;
    j["gpus"] = gpus_json(gpus);
    j["max_params"] = {{"infer", {{"fp16", t.infer_fp16}, {"int8", t.infer_int8}, {"int4", t.infer_int4}}},
                       {"train", t.train},
                       {"lora", t.lora},
                       {"qlora", t.qlora}};
    j["naive_fp16_params"] = t.naive_fp16;
    j["infer_context_tokens"] = t.infer_context;
    j["train_context_tokens"] = t.train_context;
    j["batch"] = t.batch;
    j["convention"] = plan::name(base.convention);
    j["grad_checkpointing"] = base.grad_checkpointing;
    j["model_family"] = "generic Llama-style decoder (docs/fit.md)";
    fmt::print("{}\n", j.dump(2));
    return;
  }
  const auto& g = gpus.front();
  fmt::print("Largest model that fits {} ({}), batch {}, generic Llama-style shape:\n",
             units::format_bytes(t.capacity_bytes), g.basis == "--vram" ? g.name : g.name + ", " + g.basis, t.batch);
  const auto row = [](const std::string& label, uint64_t params) {
    fmt::print("  {:<58} {:>8}\n", label, params ? units::format_count(params) : std::string("none"));
  };
  row(fmt::format("inference, fp16, {}-token context", t.infer_context), t.infer_fp16);
  row("inference, int8", t.infer_int8);
  row("inference, int4", t.infer_int4);
  row(fmt::format("full training, bf16 mixed AdamW ({}), {} tokens{}", plan::name(base.convention), t.train_context,
                  base.grad_checkpointing ? ", checkpointing" : ""),
      t.train);
  row("LoRA r=16 on q,k,v,o, bf16 base", t.lora);
  row("QLoRA r=16 on q,k,v,o, nf4 base", t.qlora);
  row("the naive rule: 2 bytes per parameter, nothing else", t.naive_fp16);
  if (gpus.size() > 1) fmt::print("note: one GPU's answer (the smallest); sharding across GPUs: gpuscout fit --model ...\n");
}

void run_fit(const FitOptions& o, GlobalOptions& global) {
  if (o.list_models) {
    const auto all = usage(plan::load_catalogue());
    if (o.json) {
      Json a = Json::array();
      for (const auto& e : all)
        a.push_back({{"name", e.name}, {"hf_id", e.hf_id}, {"model_type", e.shape.model_type},
                     {"params", plan::count_params(e.shape).total}});
      fmt::print("{}\n", Json{{"schema", "gpuscout.fit.models/1"}, {"models", a}}.dump(2));
    } else {
      for (const auto& e : all)
        fmt::print("{:<20} {:>8}  {:<10} {}\n", e.name, units::format_count(plan::count_params(e.shape).total),
                   e.shape.model_type, e.hf_id);
    }
    return;
  }
  const int models = int(!o.model.empty()) + int(!o.config.empty()) + int(!o.params.empty());
  if (models > 1) throw UsageError("give only one of --model, --config and --params");
  const plan::Workload workload = make_workload(o);
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
      throw UsageError(fmt::format("--params {}: use 1M to 10T parameters", o.params));
    shape = plan::generic_shape(n);
  }
  const auto gpus = resolve_gpus(o, notes);

  if (models == 0) {
    if (gpus.empty())
      throw UsageError("no GPU found and no model given: give --vram 24G (or --gpu NAME, --from FILE) to see what "
                       "fits, or --model NAME to see what a model needs");
    const auto smallest = *std::min_element(gpus.begin(), gpus.end(), [](const auto& a, const auto& b) {
      return a.capacity_bytes < b.capacity_bytes;
    });
    print_table(plan::max_params_table(smallest.capacity_bytes, workload), {smallest}, workload, o.json);
    return;
  }

  const auto result = usage(plan::plan_fit(shape, workload, gpus));
  for (const auto& wmsg : warnings) fmt::print(stderr, "gpuscout: warning: {}\n", wmsg);
  for (const auto& wmsg : result.estimate.warnings) fmt::print(stderr, "gpuscout: warning: {}\n", wmsg);
  if (o.json) {
    Json j = plan_json(result, shape);
    for (const auto& wmsg : warnings) j["warnings"].push_back(wmsg);
    for (const auto& n : notes) j["notes"].push_back(n);
    fmt::print("{}\n", j.dump(2));
  } else {
    print_plan(result, shape);
    for (const auto& n : notes) fmt::print("note: {}\n", n);
  }
  global.exit_code = 0;
}

}  // namespace

void add_fit_command(CLI::App& app, GlobalOptions& global) {
  auto* sub = app.add_subcommand("fit", "Does a model fit my GPU (term by term), and how big a model fits");
  auto opts = std::make_shared<FitOptions>();
  sub->add_option("--model", opts->model, "A model from the built-in catalogue (--list-models)");
  sub->add_option("--config", opts->config, "A Hugging Face config.json, or a model folder (safetensors for exact bytes)");
  sub->add_option("--params", opts->params, "A generic Llama-style model of this size (7B, 770M)");
  sub->add_option("--vram", opts->vram, "GPU memory, or a list for several cards (24G, 8G,32G)");
  sub->add_option("--gpu", opts->gpu, "A GPU from the catalogue (RTX 4090, A100 80GB)");
  sub->add_option("--from", opts->from, "An inventory saved by `gpuscout info --json` on another machine");
  sub->add_option("--gpus", opts->gpus, "Number of GPUs (with one --vram or --gpu)");
  sub->add_option("--mode", opts->mode, "infer, train, lora or qlora")->capture_default_str();
  sub->add_option("--dtype", opts->dtype,
                  "Weights: fp32 fp16 bf16 fp8 int8 int4 nf4, or GGUF q8_0 q6_k q5_k_m q4_k_m q4_0 q3_k_m q2_k ...");
  sub->add_option("--context", opts->context, "Tokens per sequence (default 4096 inference, 2048 training; 8k = 8192)");
  sub->add_option("--batch", opts->batch, "Sequences per GPU (micro-batch)")->capture_default_str();
  sub->add_option("--optimizer", opts->optimizer, "adamw, adamw8bit, sgd or adafactor")->capture_default_str();
  sub->add_option("--convention", opts->convention,
                  "Bytes per parameter for mixed-precision training: zero (16, ZeRO paper), hf (18, HF Trainer AMP), "
                  "pure (8, bf16 states)")
      ->capture_default_str();
  sub->add_flag("--grad-checkpointing", opts->grad_checkpointing, "Recompute activations in the backward pass");
  sub->add_option("--lora-rank", opts->lora_rank, "LoRA rank")->capture_default_str();
  sub->add_option("--lora-targets", opts->lora_targets, "LoRA target modules: q,k,v,o,gate,up,down or all")
      ->capture_default_str();
  sub->add_option("--strategy", opts->strategy, "Several GPUs: ddp zero1 zero2 zero3 fsdp tp pp");
  sub->add_option("--kv-dtype", opts->kv_dtype, "KV cache type: fp16 (default), fp8, int8, q4_0, fp32");
  sub->add_flag("--json", opts->json, "Print JSON (docs/fit.md)");
  sub->add_flag("--list-models", opts->list_models, "List the built-in model catalogue");
  sub->callback([opts, &global] { run_fit(*opts, global); });
}

}  // namespace gpuscout::cli
