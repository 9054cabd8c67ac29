// advise: which GPU to buy (or whether to rent), from the dated catalogue, a budget, a goal and this machine.
#include <fmt/format.h>

#include "advise/advise.hpp"
#include "cli/commands.hpp"
#include "cli/usage.hpp"
#include "cli/inventory_source.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "core/error.hpp"
#include "core/data_info.hpp"
#include "core/i18n.hpp"
#include "core/units.hpp"
#include "core/user_file.hpp"
#include "plan/catalogue.hpp"
#include "plan/estimate.hpp"
#include "plan/precision_choice.hpp"
#include "report/advice_render.hpp"

namespace gpuscout::cli {
namespace {

struct AdviseOptions {
  std::string budget, goal = "learn", need_vram, model, mode = "infer", prices, from, region;
  bool whole_pc = false;
  double hours_per_week = -1;
  double tariff = 0.15;
  size_t top = 5;
  bool json = false;
  bool no_probe = false;
};

std::string read_file(const std::string& path) {
  auto read = core::read_user_file(path);
  if (!read) throw UsageError(trf("--prices {}", read.error().message));
  return std::move(*read);
}

}  // namespace

void add_advise_command(CLI::App& app, GlobalOptions& global) {
  auto* sub = app.add_subcommand("advise", tr("Which GPU to buy for deep learning, or whether to rent or use a free tier"));
  auto o = std::make_shared<AdviseOptions>();
  sub->add_option("--budget", o->budget, tr("Most you will spend: 1500, 1500USD, 3000元, ￥3000, 3000RMB, 900EUR (¥ is yuan)"));
  sub->add_option("--goal", o->goal, tr("learn | build | research | llm (default learn)"));
  sub->add_option("--need-vram", o->need_vram, tr("GPU memory you need (24G); overrides the goal's default"));
  sub->add_option("--model", o->model, tr("A model from the fit catalogue; its memory need sets --need-vram"));
  sub->add_option("--mode", o->mode, tr("With --model: infer | train | lora | qlora (default infer)"));
  sub->add_option("--hours-per-week", o->hours_per_week, tr("GPU hours per week, for buy-vs-rent (default 10)"))
      ->check(finite_number(0, 168, /*min_excluded=*/true));
  sub->add_option("--tariff", o->tariff, tr("Electricity price in USD per kWh (default 0.15)"))
      ->check(finite_number(0, 10));
  sub->add_option("--prices", o->prices, tr("CSV with columns name,price[,currency]: your shop's prices"))->type_name("FILE");
  sub->add_option("--top", o->top, tr("How many GPUs to list (default 5)"))->transform(whole_number(1, 1000));
  sub->add_option("--region", o->region, tr("cn | global: rentals and free tiers of this region first (default: cn in Chinese, else global)"));
  sub->add_flag("--whole-pc", o->whole_pc, tr("Advice on buying a whole desktop around the card"));
  sub->add_option("--from", o->from, tr("Read a saved `gpuscout info --json` instead of probing this machine"))->type_name("FILE");
  sub->add_flag("--no-probe", o->no_probe, tr("Do not look at this machine"));
  sub->add_flag("--json", o->json, tr("Print JSON"));
  sub->callback([o, &global] {
    const auto rates = usage(advise::load_rates());
    advise::Request req;
    req.goal = usage(advise::parse_goal(o->goal));
    req.region = o->region.empty() ? advise::default_region() : usage(advise::parse_region(o->region));
    req.whole_pc = o->whole_pc;
    bool yen_read_as_cny = false;
    if (!o->budget.empty()) {
      const auto money = usage(advise::parse_money(o->budget, rates));
      req.budget_usd = usage(advise::to_usd(money, rates));
      req.display = advise::display_for(money.currency, rates);
      yen_read_as_cny = money.yen_sign_read_as_cny && i18n::current() != i18n::Language::zh;
    } else {
      req.display = advise::display_for(req.region == "cn" ? "CNY" : "USD", rates);
    }
    if (o->hours_per_week > 0) {  // -1: not given (the option's check refuses anything else outside (0, 168])
      req.hours_per_week = o->hours_per_week;
      req.hours_given = true;
    }
    req.tariff_usd_per_kwh = o->tariff;
    req.top = o->top;
    std::optional<Inventory> inv;
    if (!o->from.empty() || !o->no_probe) inv = obtain_inventory({o->from, /*python=*/false});
    if (!o->need_vram.empty()) {
      const auto size = parse_memory_size(o->need_vram, "--need-vram");
      req.need_bytes = size.bytes;
      req.need_basis = "--need-vram " + size.reading;  // the option as typed: not translated
    } else if (!o->model.empty()) {
      const auto entry = usage(plan::find_model(o->model));
      plan::Workload w;
      w.mode = usage(plan::parse_mode(o->mode));
      // The 16-bit format of the card on this machine (bf16 and fp16 need the same memory; the basis names it).
      w.sixteen_bit = plan::choose_sixteen_bit(inv ? plan::gpu_capacities(*inv) : std::vector<plan::GpuCapacity>{});
      const auto est = usage(plan::estimate(entry.shape, w));
      req.need_bytes = est.per_gpu.total_bytes();
      req.need_basis = trf("{} {} in {} on one GPU (fit estimator)", entry.name, plan::name(w.mode), est.format.name);
    }
    if (!o->prices.empty()) req.prices_usd = usage(advise::parse_prices(read_file(o->prices), o->prices, rates));
    auto offers = usage(advise::load_offers(rates));

    auto advice = advise::advise(req, catalog::gpus(), offers, inv ? &*inv : nullptr);
    advice.rates_date = rates.date;
    advise::add_stale_warnings(advice, core::today());
    // "¥" is yuan here; a reader who meant yen is told how to write it.
    if (yen_read_as_cny) advice.notes.insert(advice.notes.begin(), tr("¥ was read as yuan (CNY); for yen write JPY, as in 150000JPY"));
    if (o->json) print(report::advice_json(advice).dump(2) + "\n");
    else print_text(report::render_advice_text(advice, o->budget));
    global.exit_code = 0;
  });
}

}  // namespace gpuscout::cli
