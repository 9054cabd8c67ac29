#include "advise/advise.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "catalog/gpu_match.hpp"
#include "core/data_files.hpp"
#include "core/text.hpp"
#include "core/units.hpp"

namespace gpuscout::advise {
namespace {

std::string upper(std::string_view s) {
  std::string r(s);
  for (auto& c : r) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return r;
}

std::string known_currencies(const ExchangeRates& rates) {
  std::vector<std::string> names;
  for (const auto& [k, v] : rates.units_per_usd) names.push_back(k);
  return text::join(names, ", ");
}

std::string gib(uint64_t bytes) { return units::format_bytes(bytes); }

}  // namespace

Result<ExchangeRates> parse_rates(const csv::Table& table) {
  if (auto ok = table.require_columns({"currency", "units_per_usd", "date"}); !ok) return fail(ok.error().message);
  ExchangeRates r;
  for (const auto& row : table.rows()) {
    csv::CellReader cells(table, row);
    const std::string cur = upper(cells.text("currency", csv::Need::required));
    // Units per US dollar: from about 0.3 (KWD) to about 30000 (VND) for real currencies.
    const auto v = cells.number("units_per_usd", 0.0001, 1e7, csv::Need::required);
    const auto date = cells.date("date");
    if (auto ok = cells.result(); !ok) return std::unexpected(ok.error());
    r.units_per_usd[cur] = *v;
    r.date = std::max(r.date, date);
  }
  if (r.units_per_usd.empty()) return fail(table.source() + ": no rates");
  return r;
}

Result<ExchangeRates> load_rates() {
  auto t = core::load_table("exchange_rates.csv");
  if (!t) return fail(t.error().message);
  return parse_rates(*t);
}

Result<Money> parse_money(std::string_view input, const ExchangeRates& rates) {
  std::string_view s = text::trim(input);
  Money m;
  std::string prefix_currency;
  // Currency signs before the number.
  static const std::pair<std::string_view, std::string_view> kSigns[] = {
      {"US$", "USD"}, {"$", "USD"}, {"€", "EUR"}, {"£", "GBP"}, {"¥", "CNY"}, {"₹", "INR"}, {"₩", "KRW"}};
  for (const auto& [sign, cur] : kSigns) {
    if (s.starts_with(sign)) {
      prefix_currency = cur;
      s.remove_prefix(sign.size());
      break;
    }
  }
  size_t i = 0;
  while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.' || s[i] == '-' ||
                          s[i] == '+' || s[i] == ',' || s[i] == '_'))
    ++i;
  const std::string suffix = upper(text::trim(s.substr(i)));
  if (i == 0) return fail(fmt::format("budget '{}' is not a number (examples: 1500, 1500USD, 7000CNY)", input));
  // "1500,00EUR" is 1500 euros and "1,500" is fifteen hundred; a form that could be either is refused.
  auto v = units::parse_amount(s.substr(0, i));
  if (!v) return fail(fmt::format("budget '{}': {}", input, v.error().message));
  if (*v <= 0) return fail(fmt::format("budget '{}' must be positive", input));
  m.amount = *v;
  if (!suffix.empty() && !prefix_currency.empty() && suffix != prefix_currency)
    return fail(fmt::format("budget '{}' names two currencies", input));
  m.currency = !suffix.empty() ? suffix : !prefix_currency.empty() ? prefix_currency : "USD";
  if (!rates.units_per_usd.contains(m.currency))
    return fail(fmt::format("unknown currency '{}' in budget '{}' (known: {})", m.currency, input,
                            known_currencies(rates)));
  return m;
}

Result<double> to_usd(const Money& money, const ExchangeRates& rates) {
  auto it = rates.units_per_usd.find(upper(money.currency));
  if (it == rates.units_per_usd.end())
    return fail(fmt::format("unknown currency '{}' (known: {})", money.currency, known_currencies(rates)));
  return money.amount / it->second;
}

Result<std::map<std::string, double>> parse_prices(std::string_view text, const std::string& source,
                                                   const ExchangeRates& rates) {
  auto t = csv::parse(text, source);
  if (!t) return fail(t.error().message);
  if (auto ok = t->require_columns({"name", "price"}); !ok) return fail(ok.error().message);
  const size_t name_col = *t->column("name") + 1, price_col = *t->column("price") + 1;
  const auto cur_col = t->column("currency");
  std::map<std::string, double> out;
  for (const auto& row : t->rows()) {
    const auto gpu_name = text::trim(t->cell(row, "name"));
    const auto match = catalog::match_gpu({.name = gpu_name});
    const auto* g = match ? match->spec : nullptr;
    if (!g)
      return fail(fmt::format("{}:{}: column {} (name): unknown GPU '{}'{}", source, row.line, name_col, gpu_name,
                              catalog::did_you_mean(gpu_name)));
    // A shop's price list is typed by people too: the same forms as --budget ("1,599.00", "1599,00").
    auto price = units::parse_amount(t->cell(row, "price"));
    if (!price || *price <= 0)
      return fail(fmt::format("{}:{}: column {} (price): {}", source, row.line, price_col,
                              price ? fmt::format("'{}' is not a positive amount", t->cell(row, "price"))
                                    : price.error().message));
    Money m{*price, "USD"};
    if (cur_col) {
      const std::string cur = upper(text::trim(t->cell(row, "currency")));
      if (!cur.empty()) m.currency = cur;
    }
    auto usd = to_usd(m, rates);
    if (!usd)
      return fail(fmt::format("{}:{}: column {} (currency): {}", source, row.line, cur_col ? *cur_col + 1 : 0,
                              usd.error().message));
    out[g->name] = *usd;
  }
  return out;
}

namespace {

/// One platforms.csv row; problems are left in `c` for the caller to check.
Offer read_offer(csv::CellReader& c) {
  Offer o;
  o.kind = c.one_of("kind", {"free", "paid"});
  o.provider = c.text("provider", csv::Need::required);
  o.offer = c.text("offer", csv::Need::required);
  o.gpu = c.text("gpu", csv::Need::required);
  if (auto n = c.whole("gpu_count", 1, 1024)) o.gpu_count = static_cast<int>(*n);
  o.memory_bytes = c.whole("memory_bytes", 1, 1ull << 50);
  o.usd_per_hour = c.number("usd_per_hour", 0, 1e5, csv::Need::required).value_or(0);
  o.free_hours_per_week = c.number("free_hours_per_week", 0.01, 168);
  o.session_hours = c.number("session_hours", 0.01, 10000);
  o.requirements = c.text("requirements");
  o.steps = c.text("steps");
  o.region = c.text("region");
  o.url = c.text("url");
  o.source = c.text("source");
  o.date = c.date("date");
  return o;
}

}  // namespace

Result<std::vector<Offer>> parse_offers(const csv::Table& t) {
  if (auto ok = t.require_columns({"kind", "provider", "offer", "gpu", "gpu_count", "memory_bytes", "usd_per_hour",
                                   "free_hours_per_week", "session_hours", "requirements", "steps", "region", "url",
                                   "source", "date"});
      !ok)
    return fail(ok.error().message);
  std::vector<Offer> out;
  for (const auto& row : t.rows()) {
    csv::CellReader cells(t, row);
    Offer o = read_offer(cells);
    if (auto ok = cells.result(); !ok) return std::unexpected(ok.error());
    out.push_back(std::move(o));
  }
  return out;
}

Result<std::vector<Offer>> load_offers() {
  auto t = core::load_table("platforms.csv");
  if (!t) return fail(t.error().message);
  return parse_offers(*t);
}

void sort_cheapest_first(std::vector<Offer>& offers) {
  std::stable_sort(offers.begin(), offers.end(), [](const Offer& a, const Offer& b) {
    const bool fa = a.kind == "free", fb = b.kind == "free";
    if (fa != fb) return fa;
    return a.usd_per_hour < b.usd_per_hour;
  });
}

Result<Goal> parse_goal(std::string_view s) {
  const auto l = text::to_lower(text::trim(s));
  if (l == "learn") return Goal::learn;
  if (l == "build") return Goal::build;
  if (l == "research") return Goal::research;
  if (l == "llm") return Goal::llm;
  return fail(fmt::format("unknown goal '{}' (use learn, build, research or llm)", s));
}

std::string_view name(Goal g) {
  switch (g) {
    case Goal::learn: return "learn";
    case Goal::build: return "build";
    case Goal::research: return "research";
    case Goal::llm: return "llm";
  }
  return "learn";
}

uint64_t default_need_bytes(Goal g) {
  switch (g) {
    case Goal::learn: return 8 * units::GiB;      // course notebooks, small CNNs, fine-tuning BERT-base
    case Goal::build: return 12 * units::GiB;     // fine-tuning mid-size vision/NLP models, SD inference
    case Goal::research: return 24 * units::GiB;  // full training runs of mid-size models
    case Goal::llm: return 24 * units::GiB;       // 7-8B models at 16 bits, 30B at 4 bits
  }
  return 8 * units::GiB;
}

std::optional<double> goal_metric(const catalog::GpuSpec& g, Goal goal, std::string* metric_name) {
  auto set = [&](const char* n) {
    if (metric_name) *metric_name = n;
  };
  if (goal == Goal::llm) {
    set("memory bandwidth GB/s (LLM inference is bandwidth-bound)");
    return g.memory_bandwidth_gbs;
  }
  if (g.bf16_tensor_tflops) {
    set("dense bf16 tensor TFLOP/s (FP32 accumulate)");
    return g.bf16_tensor_tflops;
  }
  if (g.fp16_tensor_tflops) {
    set("dense fp16 tensor TFLOP/s (FP32 accumulate; no bf16)");
    return g.fp16_tensor_tflops;
  }
  if (g.fp32_tflops) {
    set("fp32 TFLOP/s (no tensor cores)");
    return g.fp32_tflops;
  }
  return std::nullopt;
}

std::optional<double> break_even_months(double price_usd, double rent_usd_per_hour, double hours_per_month,
                                        double tdp_w, double tariff_usd_per_kwh) {
  if (price_usd <= 0 || rent_usd_per_hour <= 0 || hours_per_month <= 0) return std::nullopt;
  const double power = std::max(0.0, tdp_w) / 1000.0 * hours_per_month * std::max(0.0, tariff_usd_per_kwh);
  const double saved = rent_usd_per_hour * hours_per_month - power;
  if (saved <= 0) return std::nullopt;
  return price_usd / saved;
}

namespace {

/// Whether the newest stable Linux PyTorch build still ships code for this capability.
std::optional<bool> torch_supports(const std::string& cc) {
  const catalog::TorchBuild* newest = nullptr;
  for (const auto& b : catalog::torch_builds()) {
    if (b.channel != "stable" || b.platform != "linux-x86_64" || !b.cuda) continue;
    if (!newest || b.released > newest->released) newest = &b;
  }
  if (!newest) return std::nullopt;
  // Any build of the newest release (several CUDA variants) counts.
  for (const auto& b : catalog::torch_builds()) {
    if (b.channel == "stable" && b.platform == "linux-x86_64" && b.cuda && b.torch == newest->torch &&
        catalog::arch_list_runs(b.arch_list, b.ptx, cc))
      return true;
  }
  return false;
}

std::string newest_torch() {
  std::string best, rel;
  for (const auto& b : catalog::torch_builds())
    if (b.channel == "stable" && b.released > rel) rel = b.released, best = b.torch;
  return best;
}


}  // namespace

Advice advise(const Request& req, const std::vector<catalog::GpuSpec>& gpus, const std::vector<Offer>& offers,
              const Inventory* inv) {
  Advice a;
  a.catalogue_date = catalog::gpus_date();
  a.goal = req.goal;
  a.budget_usd = req.budget_usd;
  a.need_bytes = req.need_bytes.value_or(default_need_bytes(req.goal));
  a.need_basis = req.need_bytes ? req.need_basis : fmt::format("default for goal '{}'", name(req.goal));
  for (const auto& o : offers) a.prices_date = std::max(a.prices_date, o.date);

  const bool laptop = inv && (inv->platform.laptop || inv->platform.kind == "laptop");
  const bool notebook = inv && (inv->platform.kind == "colab" || inv->platform.kind == "kaggle");

  // Candidates.
  for (const auto& g : gpus) {
    if (g.form_factor == "laptop") continue;  // not sold on their own
    if (!g.memory_bytes || *g.memory_bytes < a.need_bytes) continue;
    Recommendation r;
    r.gpu = &g;
    if (auto it = req.prices_usd.find(g.name); it != req.prices_usd.end()) {
      r.price_usd = it->second;
      r.price_basis = "price: from --prices";
    } else if (g.street_price_usd) {
      r.price_usd = *g.street_price_usd;
      r.price_basis = fmt::format("price: street price {}", g.street_price_date.empty() ? "(undated)" : g.street_price_date);
    } else if (g.launch_price_usd) {
      r.price_usd = *g.launch_price_usd;
      r.price_basis = fmt::format("price: launch price {}, no street price on file",
                                  g.launch_year ? std::to_string(*g.launch_year) : "(year unknown)");
    } else {
      continue;  // no price: cannot rank by value
    }
    if (req.budget_usd && r.price_usd > *req.budget_usd) continue;
    auto metric = goal_metric(g, req.goal, &r.metric_name);
    if (!metric || *metric <= 0) continue;
    r.metric = *metric;
    r.score = r.metric / r.price_usd * 1000.0;
    r.reasons.push_back(fmt::format("memory {} >= need {}", gib(*g.memory_bytes), gib(a.need_bytes)));
    r.reasons.push_back(fmt::format("{:.1f} {} / ${:.0f} = {:.1f} per $1000", r.metric, r.metric_name, r.price_usd,
                                    r.score));
    r.reasons.push_back(r.price_basis);
    if (g.form_factor == "datacenter-passive")
      r.reasons.push_back("passively cooled data-centre card: needs a server chassis with forced airflow");
    else if (g.form_factor == "datacenter")
      r.reasons.push_back("data-centre card: server power and cooling");
    if (g.vendor == "amd") r.reasons.push_back("AMD: PyTorch via ROCm on Linux only, not on Windows");
    if (g.vendor == "intel") r.reasons.push_back("Intel: PyTorch via XPU backend; fewer libraries than CUDA");
    if (g.compute_capability && g.vendor == "nvidia") {
      if (auto ok = torch_supports(*g.compute_capability); ok && !*ok)
        r.reasons.push_back(fmt::format("trap: PyTorch {} wheels no longer ship code for compute capability {}",
                                        newest_torch(), *g.compute_capability));
    }
    if (!g.software_support.empty()) r.reasons.push_back("software: " + g.software_support);
    a.recommendations.push_back(std::move(r));
  }
  std::stable_sort(a.recommendations.begin(), a.recommendations.end(),
                   [](const Recommendation& x, const Recommendation& y) { return x.score > y.score; });
  for (size_t i = 1; i < a.recommendations.size(); ++i) {
    const auto& prev = a.recommendations[i - 1];
    auto& r = a.recommendations[i];
    r.reasons.push_back(fmt::format("ranked below {}: {:.1f} vs {:.1f} per $1000", prev.gpu->name, r.score,
                                    prev.score));
  }
  if (req.top > 0 && a.recommendations.size() > req.top) a.recommendations.resize(req.top);
  if (a.recommendations.empty())
    a.notes.push_back(req.budget_usd
                          ? fmt::format("no GPU in the catalogue with {} or more within ${:.0f}: rent instead, or "
                                        "raise the budget",
                                        gib(a.need_bytes), *req.budget_usd)
                          : fmt::format("no priced GPU in the catalogue has {} or more: rent", gib(a.need_bytes)));

  // Rentals with enough memory per GPU, cheapest first, one per offer.
  std::vector<Offer> paid;
  for (const auto& o : offers)
    if (o.kind == "paid" && o.memory_bytes && *o.memory_bytes >= a.need_bytes) paid.push_back(o);
  sort_cheapest_first(paid);
  for (const auto& o : paid) {
    if (a.rent.size() >= 5) break;
    a.rent.push_back({o.provider, o.offer, o.gpu, o.usd_per_hour});
  }

  // Break-even for the top pick against the cheapest comparable rental (at least its memory and metric).
  const double hours_per_month = req.hours_per_week * 52.0 / 12.0;
  if (!a.recommendations.empty()) {
    const auto& top = a.recommendations.front();
    const Offer* best = nullptr;
    for (const auto& o : paid) {
      const auto om = catalog::match_gpu({.name = o.gpu});
      const auto* og = om ? om->spec : nullptr;
      if (!og || !og->memory_bytes || *og->memory_bytes < *top.gpu->memory_bytes) continue;
      auto m = goal_metric(*og, req.goal);
      if (!m || *m < top.metric * 0.9) continue;
      best = &o;
      break;  // paid is sorted cheapest first
    }
    if (best) {
      a.break_even_months = break_even_months(top.price_usd, best->usd_per_hour, hours_per_month,
                                              top.gpu->tdp_w.value_or(0), req.tariff_usd_per_kwh);
      a.break_even_text =
          a.break_even_months
              ? fmt::format("buying {} (${:.0f}) beats renting {} at {} (${:.2f}/h) after {:.1f} months at {:.0f} h/week{}"
                            " (power {} W at ${:.2f}/kWh)",
                            top.gpu->name, top.price_usd, best->gpu, best->provider, best->usd_per_hour,
                            *a.break_even_months, req.hours_per_week, req.hours_given ? "" : " (assumed; --hours-per-week)",
                            top.gpu->tdp_w.value_or(0), req.tariff_usd_per_kwh)
              : fmt::format("renting {} at {} (${:.2f}/h) costs less than the power to run {}: buying never pays back",
                            best->gpu, best->provider, best->usd_per_hour, top.gpu->name);
    } else {
      a.break_even_text = fmt::format("no rental on file matches {} (memory and {}): no break-even computed",
                                      top.gpu->name, top.metric_name);
    }
  }

  // When not to buy.
  if (req.goal == Goal::learn && (laptop || req.hours_per_week <= 10))
    a.notes.push_back(fmt::format(
        "for learning at {:.0f} h/week{}, start free: Kaggle (~30 GPU-h/week, P100 or 2x T4) or Google Colab (T4, "
        "limits unpublished); see `gpuscout platforms`",
        req.hours_per_week, laptop ? " on a laptop" : ""));
  if (a.break_even_months && *a.break_even_months > 36)
    a.notes.push_back(fmt::format("break-even after {:.0f} months (over 3 years): renting is cheaper at this usage",
                                  *a.break_even_months));

  // The machine we are on.
  if (inv) {
    if (notebook)
      a.notes.push_back(fmt::format("you are in {} (a hosted notebook): advice is for buying your own GPU",
                                    inv->platform.kind));
    if (laptop)
      a.notes.push_back("this is a laptop: its GPU cannot be replaced and it cannot take a desktop GPU; the list is "
                        "for a desktop (or an external enclosure over Thunderbolt, slower)");
    std::vector<const Gpu*> discrete;
    for (const auto& g : inv->gpus)
      if (g.memory_total_bytes) discrete.push_back(&g);
    if (!laptop && !notebook && !discrete.empty() && !a.recommendations.empty()) {
      const auto* have = discrete.front();
      // A saved inventory may predate this catalogue: match the card itself, its recorded row name as a hint.
      const auto hm = catalog::match_gpu({have->catalog_name.value_or(have->name), have->pci_vendor_id,
                                          have->pci_device_id, have->memory_total_bytes});
      const auto* spec = hm && !hm->mig_profile ? hm->spec : nullptr;
      const auto& top = a.recommendations.front();
      auto have_metric = spec ? goal_metric(*spec, req.goal) : std::nullopt;
      if (spec && spec->name == top.gpu->name)
        a.notes.push_back(fmt::format("you already have a {}: the top pick", spec->name));
      else if (have_metric && *have_metric > 0)
        a.notes.push_back(fmt::format("upgrade from {} ({}, {:.1f}) to {} ({}, {:.1f}): {:.1f}x {}, memory {:+.1f} GiB",
                                      spec->name, gib(*have->memory_total_bytes), *have_metric, top.gpu->name,
                                      gib(*top.gpu->memory_bytes), top.metric, top.metric / *have_metric,
                                      top.metric_name,
                                      (static_cast<double>(*top.gpu->memory_bytes) -
                                       static_cast<double>(*have->memory_total_bytes)) /
                                          static_cast<double>(units::GiB)));
      else
        a.notes.push_back(fmt::format("upgrade from {} ({}) to {} ({})", have->name, gib(*have->memory_total_bytes),
                                      top.gpu->name, gib(*top.gpu->memory_bytes)));
      if (*have->memory_total_bytes < a.need_bytes)
        a.warnings.push_back(fmt::format("your {} has {}, below the {} this goal needs", have->name,
                                         gib(*have->memory_total_bytes), gib(a.need_bytes)));
    }
    if (discrete.size() > 1) {
      uint64_t lo = UINT64_MAX, hi = 0;
      for (const auto* g : discrete) lo = std::min(lo, *g->memory_total_bytes), hi = std::max(hi, *g->memory_total_bytes);
      if (lo != hi)
        a.notes.push_back(fmt::format(
            "GPUs of different memory ({} to {}): data-parallel training (DDP) holds a full copy per GPU, so the "
            "smallest card ({}) limits the model and batch; sharding (FSDP/ZeRO-3) splits weights, gradients and "
            "optimizer states across cards, but each shard is still sized for the smallest",
            gib(lo), gib(hi), gib(lo)));
    }
  }

  // Traps.
  a.warnings.push_back("cards with 3-4 GB (GTX 1060 3GB, 1050) cannot hold most current models: the catalogue "
                       "filter drops them below the memory need");
  a.warnings.push_back("a laptop GPU is slower than the desktop card of the same name (lower power limit; the "
                       "laptop RTX 4090 has 16 GB, not 24)");
  return a;
}

}  // namespace gpuscout::advise
