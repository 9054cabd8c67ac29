#include "report/platforms_render.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/i18n.hpp"
#include "core/text.hpp"
#include "core/units.hpp"

namespace gpuscout::report {
namespace {

std::string limits(const advise::Offer& o) {
  std::vector<std::string> parts;
  if (o.free_hours_per_week) parts.push_back(trf("~{:.0f} GPU-h/week", *o.free_hours_per_week));
  else if (o.kind == "free") parts.push_back(tr("weekly hours unpublished"));
  if (o.session_hours) parts.push_back(trf("sessions up to {:.0f} h", *o.session_hours));
  // TRANSLATORS: the separator between the limits of one offer.
  return text::join(parts, tr(", "));
}

/// The hosted notebooks the probe names (platform kind -> data/platforms.csv's provider).
std::string notebook_place(std::string_view kind) {
  if (kind == "colab") return "Google Colab";
  if (kind == "kaggle") return "Kaggle";
  if (kind == "aistudio") return "Baidu AI Studio";
  return "";
}

/// "you are in Google Colab, with Tesla T4 (15.0 GiB)" when the inventory says so; "" elsewhere.
std::string where_you_are(const Inventory* inv) {
  if (!inv) return "";
  const std::string place = notebook_place(inv->platform.kind);
  if (place.empty()) return "";
  if (inv->gpus.empty()) return trf("you are in {} without a GPU runtime: switch the accelerator on (steps below)", place);
  std::vector<std::string> names;
  for (const auto& g : inv->gpus)
    names.push_back(g.memory_total_bytes ? fmt::format("{} ({})", g.name, units::format_bytes(*g.memory_total_bytes))
                                         : g.name);
  return trf("you are in {}, with {}", place, text::join(names, ", "));
}

/// "FREE", "$0.35/h", "¥2.00-2.80/h" (a price published in its own currency is shown in it).
std::string price_cell(const advise::Offer& o, const advise::Display& d) {
  if (o.kind == "free") return tr("FREE");
  if (o.price_per_hour) return advise::format_local(*o.price_per_hour, o.price_max_per_hour, o.currency, d) + "/h";
  return fmt::format("${:.2f}/h", o.usd_per_hour);
}

std::string newest_date(const std::vector<advise::Offer>& offers) {
  std::string date;
  for (const auto& x : offers) date = std::max(date, x.date);
  return date;
}

}  // namespace

Json platforms_json(const std::vector<advise::Offer>& offers, const Inventory* here) {
  const std::string where = where_you_are(here);
  Json j;
  j["schema"] = "gpuscout.platforms/1";
  j["prices_date"] = newest_date(offers);
  j["where"] = where.empty() ? Json(nullptr) : Json(where);
  j["platform_kind"] = here ? Json(here->platform.kind) : Json(nullptr);
  Json arr = Json::array();
  for (const auto& x : offers) {
    Json e;
    e["kind"] = x.kind;
    e["provider"] = x.provider;
    e["offer"] = tr(x.offer);
    e["gpu"] = x.gpu;
    e["gpu_count"] = x.gpu_count;
    e["memory_bytes"] = x.memory_bytes ? Json(*x.memory_bytes) : Json(nullptr);
    e["usd_per_hour"] = x.usd_per_hour;
    e["price_per_hour"] = x.price_per_hour ? Json(*x.price_per_hour) : Json(nullptr);
    e["price_max_per_hour"] = x.price_max_per_hour ? Json(*x.price_max_per_hour) : Json(nullptr);
    e["currency"] = x.currency.empty() ? Json(nullptr) : Json(x.currency);
    e["region"] = x.region == "cn" ? "cn" : "global";
    e["free_hours_per_week"] = x.free_hours_per_week ? Json(*x.free_hours_per_week) : Json(nullptr);
    e["session_hours"] = x.session_hours ? Json(*x.session_hours) : Json(nullptr);
    e["limits"] = limits(x);
    e["requirements"] = tr(x.requirements);
    e["steps"] = tr(x.steps);
    e["note"] = x.note.empty() ? Json(nullptr) : Json(tr(x.note));
    e["url"] = x.url;
    e["date"] = x.date;
    arr.push_back(e);
  }
  j["options"] = arr;
  return j;
}

std::string render_platforms_text(const std::vector<advise::Offer>& offers, const Inventory* here,
                                  const advise::Display& display, std::string_view region) {
  const std::string where = where_you_are(here);
  std::string out = region == "cn"
                        ? trf("Where to get a GPU (prices as of {}; per GPU-hour; China first, then the rest; cheapest first)\n",
                              newest_date(offers))
                        : trf("Where to get a GPU (prices as of {}; per GPU-hour; cheapest first)\n", newest_date(offers));
  if (!where.empty()) out += trf("Here: {}\n", where);
  out += "\n";
  for (const auto& x : offers) {
    out += fmt::format("  {:<14} {:<28} {}{}  [{}]\n", price_cell(x, display), x.provider, tr(x.offer),
                       x.memory_bytes ? fmt::format(" ({})", units::format_bytes(*x.memory_bytes)) : "", x.date);
    if (auto l = limits(x); !l.empty()) out += "            " + trf("limits: {}", l) + "\n";
    if (!x.note.empty()) out += "            " + trf("note: {}", tr(x.note)) + "\n";
    if (!x.requirements.empty()) out += "            " + trf("needs: {}", tr(x.requirements)) + "\n";
    if (!x.steps.empty()) out += "            " + trf("steps: {}", tr(x.steps)) + "\n";
  }
  if (offers.empty()) out += tr("  (no offer on file for this GPU)\n");
  return out;
}

}  // namespace gpuscout::report
