#pragma once
/// `gpuscout fit` as text and JSON (schema gpuscout.fit/1, documented in docs/fit.md). Formats only: every
/// number comes from plan::plan_fit or plan::max_params_table. JSON keeps bytes and parameter counts exact
/// (`*_bytes`, `*_params`, integers); text shows them as GiB/MiB ("16.4 GiB") and counts as "8.0B" / "839M".
/// Text renderers return the whole output, each line ending in '\n'; the caller prints it.
#include <string>
#include <vector>

#include "inventory/json.hpp"
#include "plan/catalogue.hpp"
#include "plan/estimate.hpp"

namespace gpuscout::report {

/// One model's plan: model, workload as run, convention, total and breakdown per GPU, each GPU's fit,
/// the layer split, suggestions, then notes (the estimate's, then the plan's) and the estimate's warnings.
Json fit_plan_json(const plan::FitPlan& plan, const plan::ModelShape& shape);
/// The same as a table of terms ("-" for a zero term), one line per GPU ("fits, X to spare" / "does NOT fit,
/// X short"), "what to change" and "note:" lines. Warnings are not included (the CLI sends them to stderr).
std::string render_fit_plan_text(const plan::FitPlan& plan, const plan::ModelShape& shape);

/// The no-model table: the largest generic model per workload for `table.capacity_bytes`. `gpus` are the
/// cards the table describes (the first one names the capacity in text); `base` gives convention and
/// checkpointing. Keys: schema, capacity_bytes, gpus, max_params {infer {fp16, int8, int4}, train, lora, qlora},
/// naive_fp16_params, infer_context_tokens, train_context_tokens, batch, convention, grad_checkpointing,
/// model_family.
Json max_params_json(const plan::MaxParamsTable& table, const std::vector<plan::GpuCapacity>& gpus,
                     const plan::Workload& base);
/// The same as one line per workload ("none" when not even a 1M-parameter model fits). `gpus` must not be empty.
std::string render_max_params_text(const plan::MaxParamsTable& table, const std::vector<plan::GpuCapacity>& gpus,
                                   const plan::Workload& base);

/// `fit --list-models`: schema gpuscout.fit.models/1, {name, hf_id, model_type, params} per row.
Json model_catalogue_json(const std::vector<plan::CatalogueEntry>& catalogue);
/// One line per row: name, parameter count ("8.0B"), model_type, Hugging Face id.
std::string render_model_catalogue_text(const std::vector<plan::CatalogueEntry>& catalogue);

}  // namespace gpuscout::report
