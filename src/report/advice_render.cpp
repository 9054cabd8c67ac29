#include "report/advice_render.hpp"

#include <fmt/format.h>

#include "core/units.hpp"

namespace gpuscout::report {

Json advice_json(const advise::Advice& a) {
  Json j;
  j["catalogue_date"] = a.catalogue_date;
  j["rates_date"] = a.rates_date;
  j["prices_date"] = a.prices_date;
  j["goal"] = std::string(advise::name(a.goal));
  j["need_bytes"] = a.need_bytes;
  j["need_basis"] = a.need_basis;
  j["budget_usd"] = a.budget_usd ? Json(*a.budget_usd) : Json(nullptr);
  Json recs = Json::array();
  for (const auto& r : a.recommendations) {
    Json x;
    x["name"] = r.gpu->name;
    x["memory_total_bytes"] = r.gpu->memory_bytes.value_or(0);
    x["price_usd"] = r.price_usd;
    x["price_basis"] = r.price_basis;
    x["metric"] = r.metric;
    x["metric_name"] = r.metric_name;
    x["score"] = r.score;
    x["reasons"] = r.reasons;
    recs.push_back(x);
  }
  j["recommendations"] = recs;
  Json rent = Json::array();
  for (const auto& r : a.rent)
    rent.push_back(Json{{"platform", r.platform}, {"offer", r.offer}, {"gpu", r.gpu}, {"usd_per_hour", r.usd_per_hour}});
  j["rent"] = rent;
  j["break_even_months"] = a.break_even_months ? Json(*a.break_even_months) : Json(nullptr);
  j["break_even"] = a.break_even_text;
  j["notes"] = a.notes;
  j["warnings"] = a.warnings;
  return j;
}

std::string render_advice_text(const advise::Advice& a, std::string_view budget_text) {
  std::string s;
  s += fmt::format("GPU advice for goal '{}' (catalogue {}, rental prices {}, exchange rates {})\n",
                   advise::name(a.goal), a.catalogue_date, a.prices_date, a.rates_date);
  s += fmt::format("Memory need: {} ({})\n", units::format_bytes(a.need_bytes), a.need_basis);
  s += a.budget_usd ? fmt::format("Budget: {} = ${:.0f}\n", budget_text, *a.budget_usd)
                    : std::string("Budget: none given (ranking every priced GPU; --budget AMOUNT[CUR])\n");
  s += "\nBuy, best value first:\n";
  int i = 0;
  for (const auto& r : a.recommendations) {
    s += fmt::format("  {}. {}  {}  ${:.0f}  score {:.1f}\n", ++i, r.gpu->name,
                     units::format_bytes(r.gpu->memory_bytes.value_or(0)), r.price_usd, r.score);
    for (const auto& why : r.reasons) s += fmt::format("       - {}\n", why);
  }
  if (a.recommendations.empty()) s += "  (none)\n";
  s += "\nRent instead (cheapest first, per GPU-hour):\n";
  for (const auto& r : a.rent) s += fmt::format("  ${:.2f}/h  {}  {}\n", r.usd_per_hour, r.platform, r.offer);
  if (a.rent.empty()) s += "  (no rental on file with enough memory)\n";
  if (!a.break_even_text.empty()) s += "\nBuy or rent: " + a.break_even_text + "\n";
  if (!a.notes.empty()) {
    s += "\nNotes:\n";
    for (const auto& n : a.notes) s += "  - " + n + "\n";
  }
  if (!a.warnings.empty()) {
    s += "\nTraps:\n";
    for (const auto& w : a.warnings) s += "  - " + w + "\n";
  }
  return s;
}

}  // namespace gpuscout::report
