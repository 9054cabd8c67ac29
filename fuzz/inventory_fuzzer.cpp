// libFuzzer target: any bytes as a saved inventory (`gpuscout info --json`, read by --from), then everything a
// command does with one: diagnose, `info`/`doctor` text and JSON, `device`, `fit --from` (the no-model table and
// a model's plan), `platforms --from`, `advise --from`, and `report --markdown/--html` with redaction.
// Another person's file must give a clear error or a correct answer: an exception or a sanitizer report is a bug.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "advise/advise.hpp"
#include "catalog/catalog.hpp"
#include "diagnose/diagnose.hpp"
#include "inventory/json.hpp"
#include "plan/catalogue.hpp"
#include "plan/estimate.hpp"
#include "report/advice_render.hpp"
#include "report/doctor_text.hpp"
#include "report/fit_render.hpp"
#include "report/html.hpp"
#include "report/markdown.hpp"
#include "report/memory_plan.hpp"
#include "report/platforms_render.hpp"
#include "report/privacy.hpp"
#include "scratch_file.hpp"

namespace {

using namespace gpuscout;

void doctor_and_info(const Inventory& inv, const diagnose::Verdict& verdict) {
  Json j = inventory_to_json(inv);
  (void)j.dump(2);  // info --json
  j["verdict"] = diagnose::to_json(verdict);
  (void)j.dump(2);  // doctor --json
  for (bool color : {false, true}) {
    (void)report::render_inventory_text(inv, {color});
    (void)report::render_verdict_text(verdict, {color});
  }
  (void)diagnose::best_device(inv);
  (void)diagnose::choose_torch(inv);
}

void fit_from(const Inventory& inv) {
  const auto gpus = plan::gpu_capacities(inv);
  if (gpus.empty()) return;
  plan::Workload workload;
  const auto smallest = *std::min_element(gpus.begin(), gpus.end(), [](const auto& a, const auto& b) {
    return a.capacity_bytes < b.capacity_bytes;
  });
  const auto table = plan::max_params_table(smallest.capacity_bytes, workload);
  (void)report::max_params_json(table, {smallest}, workload).dump(2);
  (void)report::render_max_params_text(table, {smallest}, workload);
  static const auto model = plan::find_model("llama-3.1-8b");
  if (!model) return;
  if (auto fit = plan::plan_fit(model->shape, workload, gpus)) {
    (void)report::fit_plan_json(*fit, model->shape).dump(2);
    (void)report::render_fit_plan_text(*fit, model->shape);
  }
}

void platforms_and_advise(const Inventory& inv) {
  static const auto offers = [] {
    auto all = advise::load_offers().value_or(std::vector<advise::Offer>{});
    advise::sort_cheapest_first(all);
    return all;
  }();
  (void)report::platforms_json(offers, &inv).dump(2);
  (void)report::render_platforms_text(offers, &inv);
  advise::Request request;
  request.budget_usd = 2000;
  const auto advice = advise::advise(request, catalog::gpus(), offers, &inv);
  (void)report::advice_json(advice).dump(2);
  (void)report::render_advice_text(advice, "2000");
}

void report_pages(const Inventory& inv, const diagnose::Verdict& verdict) {
  const auto ctx = report::privacy_context(inv, /*this_machine=*/false);
  (void)report::render_markdown(inv, verdict, {true}, ctx);
  (void)report::render_markdown(inv, verdict, {false}, ctx);
  report::HtmlInput in;
  in.inventory = report::redact_inventory(inv, ctx);
  in.inventory_source = "Read from fuzz.json";
  in.verdict = verdict;
  in.bench_source = "No benchmark";
  in.memory = report::build_memory_plans(in.inventory, std::nullopt);
  in.generated_at = "2026-01-01T00:00:00Z";
  in.nonce = "fuzz";
  (void)report::render_html(in);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static fuzz::ScratchFile file(".json");
  const auto& path = file.write({reinterpret_cast<const char*>(data), size});
  auto inv = load_inventory_file(path);
  if (!inv) return 0;
  const auto verdict = diagnose::diagnose(*inv);
  doctor_and_info(*inv, verdict);
  fit_from(*inv);
  platforms_and_advise(*inv);
  report_pages(*inv, verdict);
  return 0;
}
