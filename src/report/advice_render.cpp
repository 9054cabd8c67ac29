#include "report/advice_render.hpp"

#include <fmt/format.h>

#include "core/i18n.hpp"
#include "core/units.hpp"

namespace gpuscout::report {

Json advice_json(const advise::Advice& a) {
  Json j;
  j["schema"] = "gpuscout.advise/1";
  j["catalogue_date"] = a.catalogue_date;
  j["rates_date"] = a.rates_date;
  j["prices_date"] = a.prices_date;
  j["goal"] = std::string(advise::name(a.goal));
  j["need_bytes"] = a.need_bytes;
  j["need_basis"] = a.need_basis;
  j["budget_usd"] = a.budget_usd ? Json(*a.budget_usd) : Json(nullptr);
  j["currency"] = a.display.currency;
  j["units_per_usd"] = a.display.units_per_usd;
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
    rent.push_back(Json{{"platform", r.platform},
                        {"offer", r.offer},
                        {"gpu", r.gpu},
                        {"usd_per_hour", r.usd_per_hour},
                        {"price_per_hour", r.price_per_hour ? Json(*r.price_per_hour) : Json(nullptr)},
                        {"price_max_per_hour", r.price_max_per_hour ? Json(*r.price_max_per_hour) : Json(nullptr)},
                        {"currency", r.currency.empty() ? Json(nullptr) : Json(r.currency)},
                        {"date", r.date}});
  j["rent"] = rent;
  j["break_even_months"] = a.break_even_months ? Json(*a.break_even_months) : Json(nullptr);
  j["break_even"] = a.break_even_text;
  j["notes"] = a.notes;
  j["warnings"] = a.warnings;
  return j;
}

namespace {

/// "¥11,613 ($1,599)" in the budget's currency, or "$1,599" when it is USD.
std::string money(double usd, const advise::Display& d, int decimals = 0) {
  if (d.currency == "USD") return advise::format_money(usd, d, decimals);
  return fmt::format("{} ({})", advise::format_money(usd, d, decimals), advise::format_money(usd, advise::Display{}, decimals));
}

std::string rent_price(const advise::RentOption& r, const advise::Display& d) {
  if (r.price_per_hour) return advise::format_local(*r.price_per_hour, r.price_max_per_hour, r.currency, d);
  return money(r.usd_per_hour, d, 2);  // a USD price in the budget's currency, USD beside it
}

}  // namespace

std::string render_advice_text(const advise::Advice& a, std::string_view budget_text) {
  const auto& d = a.display;
  std::string s;
  s += trf("GPU advice for goal '{}' (catalogue {}, rental prices {}, exchange rates {})\n", advise::name(a.goal),
           a.catalogue_date, a.prices_date, a.rates_date);
  s += trf("Memory need: {} ({})\n", units::format_bytes(a.need_bytes), a.need_basis);
  if (!a.budget_usd) s += tr("Budget: none given (ranking every priced GPU; --budget AMOUNT[CUR])\n");
  else if (d.currency == "USD") s += trf("Budget: {} = ${:.0f}\n", budget_text, *a.budget_usd);
  else s += trf("Budget: {} = ${:.0f} (exchange rate of {})\n", budget_text, *a.budget_usd, d.rate_date);
  s += tr("\nBuy, best value first:\n");
  int i = 0;
  for (const auto& r : a.recommendations) {
    s += fmt::format("  {}. {}  {}  {}  {}\n", ++i, r.gpu->name, units::format_bytes(r.gpu->memory_bytes.value_or(0)),
                     money(r.price_usd, d), trf("score {:.1f}", r.score));
    for (const auto& why : r.reasons) s += fmt::format("       - {}\n", why);
  }
  if (a.recommendations.empty()) s += tr("  (none: see the notes below for what this budget gets)\n");
  s += tr("\nRent instead (cheapest first, per GPU-hour):\n");
  for (const auto& r : a.rent)
    s += fmt::format("  {}/h  {}  {}  [{}]\n", rent_price(r, d), r.platform, tr(r.offer), r.date);
  if (a.rent.empty()) s += tr("  (no rental on file with enough memory)\n");
  if (!a.break_even_text.empty()) s += trf("\nBuy or rent: {}\n", a.break_even_text);
  if (!a.notes.empty()) {
    s += tr("\nNotes:\n");
    for (const auto& n : a.notes) s += "  - " + n + "\n";
  }
  if (!a.warnings.empty()) {
    s += tr("\nTraps:\n");
    for (const auto& w : a.warnings) s += "  - " + w + "\n";
  }
  return s;
}

}  // namespace gpuscout::report
