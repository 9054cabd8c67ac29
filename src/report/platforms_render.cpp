#include "report/platforms_render.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/text.hpp"
#include "core/units.hpp"

namespace gpuscout::report {
namespace {

std::string limits(const advise::Offer& o) {
  std::vector<std::string> parts;
  if (o.free_hours_per_week) parts.push_back(fmt::format("~{:.0f} GPU-h/week", *o.free_hours_per_week));
  else if (o.kind == "free") parts.push_back("weekly hours unpublished");
  if (o.session_hours) parts.push_back(fmt::format("sessions up to {:.0f} h", *o.session_hours));
  return text::join(parts, ", ");
}

/// "you are in Google Colab, with Tesla T4 (15.0 GiB)" when the inventory says so; "" elsewhere.
std::string where_you_are(const Inventory* inv) {
  if (!inv) return "";
  const std::string& k = inv->platform.kind;
  if (k != "colab" && k != "kaggle") return "";
  std::string place = k == "colab" ? "Google Colab" : "Kaggle";
  if (inv->gpus.empty()) return fmt::format("you are in {} without a GPU runtime: switch the accelerator on (steps below)", place);
  std::vector<std::string> names;
  for (const auto& g : inv->gpus)
    names.push_back(g.memory_total_bytes ? fmt::format("{} ({})", g.name, units::format_bytes(*g.memory_total_bytes))
                                         : g.name);
  return fmt::format("you are in {}, with {}", place, text::join(names, ", "));
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
  j["prices_date"] = newest_date(offers);
  j["where"] = where.empty() ? Json(nullptr) : Json(where);
  j["platform_kind"] = here ? Json(here->platform.kind) : Json(nullptr);
  Json arr = Json::array();
  for (const auto& x : offers) {
    Json e;
    e["kind"] = x.kind;
    e["provider"] = x.provider;
    e["offer"] = x.offer;
    e["gpu"] = x.gpu;
    e["gpu_count"] = x.gpu_count;
    e["memory_bytes"] = x.memory_bytes ? Json(*x.memory_bytes) : Json(nullptr);
    e["usd_per_hour"] = x.usd_per_hour;
    e["free_hours_per_week"] = x.free_hours_per_week ? Json(*x.free_hours_per_week) : Json(nullptr);
    e["session_hours"] = x.session_hours ? Json(*x.session_hours) : Json(nullptr);
    e["limits"] = limits(x);
    e["requirements"] = x.requirements;
    e["steps"] = x.steps;
    e["url"] = x.url;
    e["date"] = x.date;
    arr.push_back(e);
  }
  j["options"] = arr;
  return j;
}

std::string render_platforms_text(const std::vector<advise::Offer>& offers, const Inventory* here) {
  const std::string where = where_you_are(here);
  std::string out = fmt::format("Where to get a GPU (prices as of {}; per GPU-hour; cheapest first)\n",
                                newest_date(offers));
  if (!where.empty()) out += "Here: " + where + "\n";
  out += "\n";
  for (const auto& x : offers) {
    out += fmt::format("  {:<9} {:<28} {}{}\n", x.kind == "free" ? "FREE" : fmt::format("${:.2f}/h", x.usd_per_hour),
                       x.provider, x.offer,
                       x.memory_bytes ? fmt::format(" ({})", units::format_bytes(*x.memory_bytes)) : "");
    if (auto l = limits(x); !l.empty()) out += "            limits: " + l + "\n";
    if (!x.requirements.empty()) out += "            needs: " + x.requirements + "\n";
    if (!x.steps.empty()) out += "            steps: " + x.steps + "\n";
  }
  if (offers.empty()) out += "  (no offer on file for this GPU)\n";
  return out;
}

}  // namespace gpuscout::report
