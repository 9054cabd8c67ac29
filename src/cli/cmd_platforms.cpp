// platforms: free tiers and paid rentals in one table, cheapest first, with limits and the steps to get a GPU.
#include <cstdio>

#include <fmt/format.h>

#include "advise/advise.hpp"
#include "cli/commands.hpp"
#include "cli/inventory_source.hpp"
#include "core/error.hpp"
#include "core/text.hpp"
#include "core/units.hpp"
#include "inventory/json.hpp"

namespace gpuscout::cli {
namespace {

struct PlatformsOptions {
  std::string gpu, from;
  bool json = false;
  bool no_probe = false;
};

std::string limits(const advise::Offer& o) {
  std::vector<std::string> parts;
  if (o.free_hours_per_week) parts.push_back(fmt::format("~{:.0f} GPU-h/week", *o.free_hours_per_week));
  else if (o.kind == "free") parts.push_back("weekly hours unpublished");
  if (o.session_hours) parts.push_back(fmt::format("sessions up to {:.0f} h", *o.session_hours));
  return text::join(parts, ", ");
}

/// "you are in Colab with a Tesla T4" when the inventory says so; "" elsewhere.
std::string where_you_are(const Inventory& inv) {
  const std::string& k = inv.platform.kind;
  if (k != "colab" && k != "kaggle") return "";
  std::string place = k == "colab" ? "Google Colab" : "Kaggle";
  if (inv.gpus.empty()) return fmt::format("you are in {} without a GPU runtime: switch the accelerator on (steps below)", place);
  std::vector<std::string> names;
  for (const auto& g : inv.gpus)
    names.push_back(g.memory_total_bytes ? fmt::format("{} ({})", g.name, units::format_bytes(*g.memory_total_bytes))
                                         : g.name);
  return fmt::format("you are in {}, with {}", place, text::join(names, ", "));
}

}  // namespace

void add_platforms_command(CLI::App& app, GlobalOptions& global) {
  auto* sub = app.add_subcommand("platforms", "Free and paid places to get a GPU, cheapest first, with limits and steps");
  auto o = std::make_shared<PlatformsOptions>();
  sub->add_option("--gpu", o->gpu, "Only offers of this GPU (catalogue name or alias: T4, A100 80GB, RTX 4090)");
  sub->add_option("--from", o->from, "Read a saved `gpuscout info --json` instead of probing this machine");
  sub->add_flag("--no-probe", o->no_probe, "Do not look at this machine");
  sub->add_flag("--json", o->json, "Print JSON");
  sub->callback([o, &global] {
    auto offers_r = advise::load_offers();
    if (!offers_r) throw UsageError(offers_r.error().message);
    auto offers = std::move(*offers_r);
    if (!o->gpu.empty()) {
      const auto* want = catalog::find_gpu_by_name(o->gpu);
      if (!want) {
        auto close = catalog::closest_gpu_names(o->gpu);
        throw UsageError(fmt::format("unknown GPU '{}'{}", o->gpu,
                                     close.empty() ? "" : " (did you mean: " + text::join(close, ", ") + "?)"));
      }
      std::erase_if(offers, [&](const advise::Offer& x) { return catalog::find_gpu_by_name(x.gpu) != want; });
    }
    advise::sort_cheapest_first(offers);
    std::optional<Inventory> inv;
    if (!o->from.empty() || !o->no_probe) inv = obtain_inventory({o->from, /*python=*/false});
    const std::string where = inv ? where_you_are(*inv) : "";
    std::string date;
    for (const auto& x : offers) date = std::max(date, x.date);

    std::string out;
    if (o->json) {
      Json j;
      j["prices_date"] = date;
      j["where"] = where.empty() ? Json(nullptr) : Json(where);
      j["platform_kind"] = inv ? Json(inv->platform.kind) : Json(nullptr);
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
      out = j.dump(2) + "\n";
    } else {
      out += fmt::format("Where to get a GPU (prices as of {}; per GPU-hour; cheapest first)\n", date);
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
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);
    global.exit_code = 0;
  });
}

}  // namespace gpuscout::cli
