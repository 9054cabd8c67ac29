#include "report/fit_render.hpp"

#include <fmt/format.h>

#include "core/i18n.hpp"

#include "core/text.hpp"
#include "core/units.hpp"

namespace gpuscout::report {
namespace {

std::string bytes_or_dash(uint64_t b) { return b == 0 ? "-" : units::format_bytes(b); }

Json breakdown_json(const plan::Breakdown& b) {
  Json j = Json::object();
  j["weights_bytes"] = b.weights_bytes;
  j["kv_cache_bytes"] = b.kv_cache_bytes;
  j["activations_bytes"] = b.activations_bytes;
  j["gradients_bytes"] = b.gradients_bytes;
  j["optimizer_bytes"] = b.optimizer_bytes;
  j["optimizer_step_bytes"] = b.optimizer_step_bytes;
  j["adapters_bytes"] = b.adapters_bytes;
  j["overhead_bytes"] = b.overhead_bytes();
  j["kept_free_bytes"] = b.kept_free_bytes;
  return j;
}

Json gpus_json(const std::vector<plan::GpuCapacity>& gpus) {
  Json a = Json::array();
  for (const auto& g : gpus) a.push_back({{"name", g.name}, {"capacity_bytes", g.capacity_bytes}, {"basis", g.basis}});
  return a;
}

/// The workload as run: the defaults the estimate resolved (context, dtype, batch, strategy).
Json workload_json(const plan::Estimate& e) {
  const auto& w = e.workload;
  Json lora_targets = Json::array();
  for (const auto& t : w.lora_targets) lora_targets.push_back(t);
  const bool lora = w.mode == plan::Mode::lora || w.mode == plan::Mode::qlora;
  const Json j = {{"mode", plan::name(w.mode)},
                  {"dtype", e.format.name},
                  {"context_tokens", w.context_tokens},
                  {"batch", w.batch},
                  {"tokens", e.tokens},
                  {"optimizer", plan::name(w.optimizer)},
                  {"convention", plan::name(w.convention)},
                  {"grad_checkpointing", w.grad_checkpointing},
                  {"expandable_segments", w.expandable_segments},
                  {"lora_rank", lora ? Json(w.lora_rank) : Json()},
                  {"lora_targets", lora ? lora_targets : Json()},
                  {"strategy", plan::name(w.strategy)},
                  {"num_gpus", w.num_gpus},
                  {"kv_dtype", w.kv_dtype.empty() ? Json() : Json(w.kv_dtype)}};
  return j;
}

}  // namespace

Json fit_plan_json(const plan::FitPlan& p, const plan::ModelShape& shape) {
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
  j["workload"] = workload_json(e);
  j["precision"] = {{"dtype", e.format.name},
                    {"chosen_by", e.dtype_chosen_by},
                    {"reason", e.dtype_reason.empty() ? Json() : Json(e.dtype_reason)}};
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

namespace {

/// The mode as the plan's first line names it (the code itself, "infer", is what --mode and the JSON use).
const char* mode_text(plan::Mode mode) {
  switch (mode) {
    case plan::Mode::infer: return tr("infer");
    case plan::Mode::train: return tr("train");
    case plan::Mode::lora: return tr("lora");
    case plan::Mode::qlora: return tr("qlora");
  }
  return "?";
}

}  // namespace

std::string render_fit_plan_text(const plan::FitPlan& p, const plan::ModelShape& shape) {
  const auto& e = p.estimate;
  const auto& w = e.workload;
  const auto& b = e.per_gpu;
  std::string what = fmt::format("{}, {}", mode_text(w.mode), e.format.name);
  if (shape.arch == plan::Arch::decoder || shape.arch == plan::Arch::encoder)
    what += trf(", context {} x batch {}", w.context_tokens, w.batch);
  else
    what += trf(", batch {}", w.batch);
  if (w.mode != plan::Mode::infer) {
    what += fmt::format(", {}", plan::name(w.optimizer));
    if (w.grad_checkpointing) what += tr(", checkpointing");
  }
  if (w.num_gpus > 1) what += fmt::format(", {} GPUs ({})", w.num_gpus, plan::name(w.strategy));
  std::string params = units::format_count(e.params.total);
  if (e.params.active != e.params.total) params += trf(" ({} active)", units::format_count(e.params.active));

  std::string s = trf("{}: {} parameters; {}\n", e.model, params, what);
  const auto term = [&s](const char* label, uint64_t bytes) {
    s += fmt::format("  {:<18} {:>12}\n", label, bytes_or_dash(bytes));
  };
  term(tr("weights"), b.weights_bytes);
  term(tr("KV cache"), b.kv_cache_bytes);
  term(tr("activations"), b.activations_bytes);
  term(tr("gradients"), b.gradients_bytes);
  term(tr("optimizer states"), b.optimizer_bytes);
  term(tr("optimizer step"), b.optimizer_step_bytes);
  term(tr("LoRA adapters"), b.adapters_bytes);
  term(tr("CUDA context"), b.cuda_context_bytes);
  term(tr("allocator slack"), b.allocator_slack_bytes);
  if (b.kept_free_bytes > 0) term(tr("left free"), b.kept_free_bytes);
  s += fmt::format("  {:<18} {:>12}{}\n", tr("total"), units::format_bytes(b.total_bytes()),
                   w.num_gpus > 1 ? tr(" per GPU") : "");
  s += trf("convention: {}\n", e.convention_text);
  if (!e.format.note.empty() && e.format.name != "bf16" && e.format.name != "fp16" && e.format.name != "fp32")
    s += trf("weights: {}\n", e.format.note);
  for (const auto& g : p.gpus) {
    // A --vram name already says the size it read ("--vram 16 GB = 14.9 GiB").
    const std::string card =
        g.gpu.basis == "--vram" ? g.gpu.name
                                : fmt::format("{} ({} {})", g.gpu.name, units::format_bytes(g.gpu.capacity_bytes),
                                              tr(g.gpu.basis));
    if (g.fits)
      s += trf("{}: fits, {} to spare{}\n", card, units::format_bytes(static_cast<uint64_t>(g.headroom_bytes)),
                       b.kept_free_bytes > 0 ? trf(" besides the {} left free", units::format_bytes(b.kept_free_bytes))
                                             : std::string());
    else
      s += trf("{}: does NOT fit, {} short\n", card, units::format_bytes(static_cast<uint64_t>(-g.headroom_bytes)));
  }
  if (p.gpus.empty()) s += tr("no GPU to check against: give --vram 24G, --gpu NAME or --from FILE\n");
  if (p.layer_split) {
    std::vector<std::string> parts;
    for (auto x : p.layer_split->per_gpu_bytes) parts.push_back(units::format_bytes(x));
    s += trf("split by layers in proportion to memory: {} -> {}\n", text::join(parts, " / "),
                     p.layer_split->fits ? tr("fits") : tr("does not fit"));
  }
  if (!p.suggestions.empty()) {
    s += tr("what to change:\n");
    for (const auto& x : p.suggestions)
      s += fmt::format("  {:<66} {:>10}  {:<4}  {}\n", x.change, units::format_bytes(x.per_gpu_bytes),
                       x.fits ? tr("fits") : tr("no"), x.flags);
  }
  for (const auto& n : e.notes) s += trf("note: {}\n", n);
  for (const auto& n : p.notes) s += trf("note: {}\n", n);
  return s;
}

Json max_params_json(const plan::MaxParamsTable& t, const std::vector<plan::GpuCapacity>& gpus,
                     const plan::Workload& base) {
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
  j["sixteen_bit"] = t.sixteen_bit;
  j["kept_free_bytes"] = t.kept_free_bytes;
  const auto recipe = [&t](size_t i) { return i < t.recipes.size() ? Json(t.recipes[i]) : Json(); };
  j["recipes"] = {{"infer", {{"fp16", recipe(0)}, {"int8", recipe(1)}, {"int4", recipe(2)}}},
                  {"train", recipe(3)},
                  {"lora", recipe(4)},
                  {"qlora", recipe(5)}};
  Json notes = Json::array();
  for (const auto& n : t.notes) notes.push_back(n);
  j["notes"] = notes;
  return j;
}

std::string render_max_params_text(const plan::MaxParamsTable& t, const std::vector<plan::GpuCapacity>& gpus,
                                   const plan::Workload& base) {
  const auto& g = gpus.front();
  std::string s = trf("Largest model that fits {} ({}), generic Llama-style shape:\n",
                              units::format_bytes(t.capacity_bytes),
                              g.basis == "--vram" ? g.name : g.name + ", " + tr(g.basis));
  size_t i = 0;
  const auto row = [&](const std::string& label, uint64_t params) {
    s += fmt::format("  {:<52} {:>8}\n", label, params ? units::format_count(params) : std::string(tr("none")));
    if (i < t.recipes.size()) s += fmt::format("      {}\n", t.recipes[i]);
    ++i;
  };
  row(trf("inference, {}", t.sixteen_bit), t.infer_fp16);
  row(tr("inference, int8"), t.infer_int8);
  row(tr("inference, int4"), t.infer_int4);
  row(trf("full training{}", base.grad_checkpointing ? tr(", checkpointing") : ""), t.train);
  row("LoRA", t.lora);
  row("QLoRA", t.qlora);
  s += fmt::format("  {:<52} {:>8}\n", tr("the naive rule: 2 bytes per parameter, nothing else"),
                   units::format_count(t.naive_fp16));
  for (const auto& n : t.notes) s += trf("note: {}\n", n);
  if (gpus.size() > 1) s += tr("note: one GPU's answer (the smallest); sharding across GPUs: gpuscout fit --model ...\n");
  return s;
}

Json model_catalogue_json(const std::vector<plan::CatalogueEntry>& catalogue) {
  Json a = Json::array();
  for (const auto& e : catalogue)
    a.push_back({{"name", e.name}, {"hf_id", e.hf_id}, {"model_type", e.shape.model_type},
                 {"params", plan::count_params(e.shape).total}});
  return Json{{"schema", "gpuscout.fit.models/1"}, {"models", a}};
}

std::string render_model_catalogue_text(const std::vector<plan::CatalogueEntry>& catalogue) {
  std::string s;
  for (const auto& e : catalogue)
    s += fmt::format("{:<20} {:>8}  {:<10} {}\n", e.name, units::format_count(plan::count_params(e.shape).total),
                     e.shape.model_type, e.hf_id);
  return s;
}

}  // namespace gpuscout::report
