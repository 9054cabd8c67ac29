// fit, advise and platforms renderers: what they print comes from the value they are given, nothing else.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "advise/advise.hpp"
#include "core/units.hpp"
#include "plan/catalogue.hpp"
#include "plan/estimate.hpp"
#include "report/advice_render.hpp"
#include "report/fit_render.hpp"
#include "report/platforms_render.hpp"
#include "test_support.hpp"

namespace gpuscout::report {
namespace {

using gpuscout::test_support::contains;

std::vector<std::string> keys(const Json& object) {
  std::vector<std::string> out;
  for (const auto& [k, v] : object.items()) out.push_back(k);
  return out;
}

plan::FitPlan llama_plan(uint64_t capacity_bytes) {
  const auto model = plan::find_model("llama-3-8b");
  EXPECT_TRUE(model) << model.error().message;
  auto p = plan::plan_fit(model->shape, plan::Workload{},
                          {{fmt::format("--vram {}", units::format_bytes(capacity_bytes)), capacity_bytes, "--vram"}});
  EXPECT_TRUE(p) << p.error().message;
  return *p;
}

TEST(FitRender, JsonTotalIsTheSumOfTheBreakdown) {
  const auto shape = plan::find_model("llama-3-8b")->shape;
  const auto p = llama_plan(24 * units::GiB);
  const Json j = fit_plan_json(p, shape);
  EXPECT_EQ(j["schema"], "gpuscout.fit/1");
  uint64_t sum = 0;
  for (const auto& [term, bytes] : j["breakdown"].items()) sum += bytes.get<uint64_t>();
  EXPECT_EQ(j["total_bytes"].get<uint64_t>(), sum);
  EXPECT_EQ(sum, p.estimate.per_gpu.total_bytes());
  EXPECT_EQ(j["breakdown"]["overhead_bytes"].get<uint64_t>(),
            j["overhead"]["cuda_context_bytes"].get<uint64_t>() + j["overhead"]["allocator_slack_bytes"].get<uint64_t>());
  ASSERT_EQ(j["fits"].size(), 1u);
  EXPECT_EQ(j["fits"][0]["need_bytes"].get<uint64_t>(), sum);
  EXPECT_EQ(j["fits"][0]["headroom_bytes"].get<int64_t>(), int64_t(24 * units::GiB) - int64_t(sum));
  EXPECT_EQ(j["fits_all"], true);
  EXPECT_TRUE(j["per_gpu_bytes"].is_null());  // one GPU
  EXPECT_TRUE(j["workload"]["lora_rank"].is_null());  // inference
}

TEST(FitRender, TextShowsEachTermTheTotalAndTheVerdict) {
  const auto shape = plan::find_model("llama-3-8b")->shape;
  const auto fits = llama_plan(24 * units::GiB);
  const std::string t = render_fit_plan_text(fits, shape);
  EXPECT_TRUE(t.starts_with("llama-3-8b: 8.0B parameters; infer, bf16, context 4096 x batch 1\n")) << t;
  EXPECT_TRUE(contains(t, "  weights ")) << t;
  EXPECT_TRUE(contains(t, " " + units::format_bytes(fits.estimate.per_gpu.weights_bytes) + "\n")) << t;
  EXPECT_TRUE(contains(t, "  gradients                     -\n")) << t;  // a zero term is a dash
  EXPECT_TRUE(contains(t, units::format_bytes(fits.estimate.per_gpu.total_bytes()) + "\n")) << t;
  EXPECT_TRUE(contains(t, "--vram 24.0 GiB: fits, ")) << t;
  EXPECT_TRUE(t.ends_with("\n"));

  const auto short_of = llama_plan(8 * units::GiB);
  const std::string s = render_fit_plan_text(short_of, shape);
  EXPECT_TRUE(contains(s, "--vram 8.0 GiB: does NOT fit, ")) << s;
  ASSERT_FALSE(short_of.suggestions.empty());
  EXPECT_TRUE(contains(s, "what to change:\n")) << s;
  for (const auto& x : short_of.suggestions) EXPECT_TRUE(contains(s, x.flags + "\n")) << x.flags;
  for (const auto& n : short_of.estimate.notes) EXPECT_TRUE(contains(s, "note: " + n + "\n")) << n;
}

TEST(FitRender, WithoutHardwareFitsIsNull) {
  const auto shape = plan::find_model("gpt2")->shape;
  const auto p = plan::plan_fit(shape, plan::Workload{}, {});
  ASSERT_TRUE(p) << p.error().message;
  const Json j = fit_plan_json(*p, shape);
  EXPECT_TRUE(j["fits"].is_null());
  EXPECT_TRUE(j["fits_all"].is_null());
  EXPECT_TRUE(contains(render_fit_plan_text(*p, shape), "no GPU to check against"));
}

TEST(FitRender, MaxParamsJsonHasTheDocumentedKeys) {
  plan::Workload base;
  const std::vector<plan::GpuCapacity> gpus = {{"--vram 24G", 24 * units::GiB, "--vram"}};
  const auto t = plan::max_params_table(24 * units::GiB, base);
  const Json j = max_params_json(t, gpus, base);
  // docs/fit.md, "Without a model"
  EXPECT_EQ(keys(j), (std::vector<std::string>{"schema", "capacity_bytes", "gpus", "max_params", "naive_fp16_params",
                                               "infer_context_tokens", "train_context_tokens", "batch", "convention",
                                               "grad_checkpointing", "model_family", "sixteen_bit",
                                               "kept_free_bytes", "recipes", "notes"}));
  EXPECT_EQ(keys(j["recipes"]), (std::vector<std::string>{"infer", "train", "lora", "qlora"}));
  EXPECT_EQ(keys(j["max_params"]), (std::vector<std::string>{"infer", "train", "lora", "qlora"}));
  EXPECT_EQ(keys(j["max_params"]["infer"]), (std::vector<std::string>{"fp16", "int8", "int4"}));
  EXPECT_EQ(j["capacity_bytes"].get<uint64_t>(), 24 * units::GiB);
  EXPECT_EQ(j["max_params"]["infer"]["int4"].get<uint64_t>(), t.infer_int4);
  EXPECT_EQ(j["naive_fp16_params"].get<uint64_t>(), 12 * units::GiB);
  EXPECT_EQ(j["gpus"][0]["basis"], "--vram");
}

TEST(FitRender, MaxParamsTextHasOneRowPerWorkloadWithItsRecipe) {
  plan::Workload base;
  plan::MaxParamsTable t;
  t.capacity_bytes = 16 * units::GiB;
  t.infer_context = 4096;
  t.train_context = 2048;
  t.infer_fp16 = 7'000'000'000;
  t.infer_int4 = 27'000'000'000;
  t.naive_fp16 = 8'000'000'000;  // the rest stay 0: "none"
  t.sixteen_bit = "fp16";
  for (const char* r : {"recipe-a", "recipe-b", "recipe-c", "recipe-d", "recipe-e", "recipe-f"}) t.recipes.push_back(r);
  t.notes.push_back("precision: fp16, because Tesla T4 has no bf16");
  const std::string s = render_max_params_text(t, {{"Tesla T4", 16 * units::GiB, "total"}}, base);
  EXPECT_TRUE(s.starts_with("Largest model that fits 16.0 GiB (Tesla T4, total), generic Llama-style shape:\n")) << s;
  EXPECT_EQ(std::count(s.begin(), s.end(), '\n'), 1 + 6 * 2 + 1 + 1);  // header, rows and recipes, naive, note
  EXPECT_TRUE(contains(s, "  inference, fp16 ")) << s;
  EXPECT_TRUE(contains(s, "7.0B\n      recipe-a\n")) << s;
  EXPECT_TRUE(contains(s, "27.0B\n      recipe-c\n")) << s;
  EXPECT_TRUE(contains(s, "    none\n      recipe-f\n")) << s;
  EXPECT_TRUE(contains(s, "note: precision: fp16")) << s;
}

TEST(FitRender, ModelCatalogueHasEveryRow) {
  const auto all = plan::load_catalogue();
  ASSERT_TRUE(all) << all.error().message;
  const Json j = model_catalogue_json(*all);
  EXPECT_EQ(j["schema"], "gpuscout.fit.models/1");
  ASSERT_EQ(j["models"].size(), all->size());
  EXPECT_EQ(j["models"][0]["name"], all->front().name);
  const std::string s = render_model_catalogue_text(*all);
  EXPECT_EQ(size_t(std::count(s.begin(), s.end(), '\n')), all->size());
}

advise::Advice some_advice(std::optional<double> budget_usd) {
  advise::Request req;
  req.budget_usd = budget_usd;
  const auto offers = advise::load_offers();
  EXPECT_TRUE(offers) << offers.error().message;
  return advise::advise(req, catalog::gpus(), *offers, nullptr);
}

TEST(AdviceRender, TextNamesEveryRecommendedCard) {
  const auto a = some_advice(1500);
  ASSERT_FALSE(a.recommendations.empty());
  const std::string s = render_advice_text(a, "1500");
  EXPECT_TRUE(s.starts_with("GPU advice for goal 'learn' (catalogue ")) << s;
  EXPECT_TRUE(contains(s, "Budget: 1500 = $1500\n")) << s;
  int i = 0;
  for (const auto& r : a.recommendations) {
    EXPECT_TRUE(contains(s, fmt::format("  {}. {}  ", ++i, r.gpu->name))) << r.gpu->name;
    for (const auto& why : r.reasons) EXPECT_TRUE(contains(s, "       - " + why + "\n")) << why;
  }
  for (const auto& r : a.rent) EXPECT_TRUE(contains(s, r.platform + "  " + r.offer + "  [" + r.date + "]\n")) << r.offer;
  EXPECT_TRUE(contains(render_advice_text(some_advice(std::nullopt), ""), "Budget: none given")) << s;
}

TEST(AdviceRender, JsonCarriesTheValues) {
  const auto a = some_advice(std::nullopt);
  const Json j = advice_json(a);
  EXPECT_TRUE(j["budget_usd"].is_null());
  EXPECT_EQ(j["goal"], "learn");
  EXPECT_EQ(j["need_bytes"].get<uint64_t>(), a.need_bytes);
  ASSERT_EQ(j["recommendations"].size(), a.recommendations.size());
  ASSERT_FALSE(a.recommendations.empty());
  EXPECT_EQ(j["recommendations"][0]["name"], a.recommendations[0].gpu->name);
  EXPECT_EQ(keys(j["recommendations"][0]), (std::vector<std::string>{"name", "memory_total_bytes", "price_usd",
                                                                      "price_basis", "metric", "metric_name", "score",
                                                                      "reasons"}));
  ASSERT_EQ(j["rent"].size(), a.rent.size());
}

advise::Offer offer(std::string kind, std::string provider, double usd, std::string date) {
  advise::Offer o;
  o.kind = std::move(kind);
  o.provider = std::move(provider);
  o.offer = o.provider + " offer";
  o.gpu = "Tesla T4";
  o.memory_bytes = 16 * units::GiB;
  o.usd_per_hour = usd;
  o.date = std::move(date);
  return o;
}

TEST(PlatformsRender, DateLimitsAndWhere) {
  auto free_tier = offer("free", "Notebook Co", 0, "2026-03-01");
  free_tier.session_hours = 12;
  auto paid = offer("paid", "Rent Co", 0.35, "2026-05-01");
  paid.requirements = "a card";
  const std::vector<advise::Offer> offers = {free_tier, paid};

  const Json j = platforms_json(offers, nullptr);
  EXPECT_EQ(j["prices_date"], "2026-05-01");  // the newest
  EXPECT_TRUE(j["where"].is_null());
  EXPECT_TRUE(j["platform_kind"].is_null());
  ASSERT_EQ(j["options"].size(), 2u);
  EXPECT_EQ(j["options"][0]["limits"], "weekly hours unpublished, sessions up to 12 h");
  EXPECT_EQ(j["options"][1]["limits"], "");
  EXPECT_EQ(j["options"][1]["memory_bytes"].get<uint64_t>(), 16 * units::GiB);

  Inventory colab;
  colab.platform.kind = "colab";
  Gpu t4;
  t4.name = "Tesla T4";
  t4.memory_total_bytes = 15 * units::GiB;
  colab.gpus.push_back(t4);
  const std::string s = render_platforms_text(offers, &colab);
  EXPECT_TRUE(s.starts_with("Where to get a GPU (prices as of 2026-05-01;")) << s;
  EXPECT_TRUE(contains(s, "Here: you are in Google Colab, with Tesla T4 (15.0 GiB)\n")) << s;
  EXPECT_TRUE(contains(s, "  FREE           Notebook Co")) << s;
  EXPECT_TRUE(contains(s, "  $0.35/h        Rent Co")) << s;
  EXPECT_TRUE(contains(s, "            needs: a card\n")) << s;
  EXPECT_EQ(platforms_json(offers, &colab)["platform_kind"], "colab");

  Inventory desk;
  desk.platform.kind = "desktop";
  EXPECT_TRUE(platforms_json(offers, &desk)["where"].is_null());
  EXPECT_TRUE(contains(render_platforms_text({}, nullptr), "(no offer on file for this GPU)"));
}

}  // namespace
}  // namespace gpuscout::report
