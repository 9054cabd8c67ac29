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

namespace {

/// The price advise ranks a card at, and where it came from; nullopt for a card with no price on file.
std::optional<std::pair<double, std::string>> price_of(const catalog::GpuSpec& g, const Request& req) {
  if (auto it = req.prices_usd.find(g.name); it != req.prices_usd.end()) return std::pair{it->second, std::string("price: from --prices")};
  if (g.street_price_usd)
    return std::pair{*g.street_price_usd,
                     fmt::format("price: street price {}", g.street_price_date.empty() ? "(undated)" : g.street_price_date)};
  if (g.launch_price_usd)
    return std::pair{*g.launch_price_usd, fmt::format("price: launch price {}, no street price on file",
                                                      g.launch_year ? std::to_string(*g.launch_year) : "(year unknown)")};
  return std::nullopt;
}

void add_caveats(const catalog::GpuSpec& g, std::vector<std::string>& reasons) {
  if (g.form_factor == "datacenter-passive")
    reasons.push_back("passively cooled data-centre card: needs a server chassis with forced airflow");
  else if (g.form_factor == "datacenter")
    reasons.push_back("data-centre card: server power and cooling");
  if (g.vendor == "amd") reasons.push_back("AMD: PyTorch via ROCm on Linux only, not on Windows");
  if (g.vendor == "intel") reasons.push_back("Intel: PyTorch via XPU backend; fewer libraries than CUDA");
  if (g.compute_capability && g.vendor == "nvidia") {
    if (auto ok = torch_supports(*g.compute_capability); ok && !*ok)
      reasons.push_back(fmt::format("trap: PyTorch {} wheels no longer ship code for compute capability {}",
                                    newest_torch(), *g.compute_capability));
  }
  if (!g.software_support.empty()) reasons.push_back("software: " + g.software_support);
}

/// Every card with the memory the goal needs, a price within the budget and the goal's metric, best value first.
std::vector<Recommendation> candidates(const Request& req, const std::vector<catalog::GpuSpec>& gpus, uint64_t need) {
  std::vector<Recommendation> out;
  for (const auto& g : gpus) {
    if (g.form_factor == "laptop") continue;  // not sold on their own
    if (!g.memory_bytes || *g.memory_bytes < need) continue;
    const auto price = price_of(g, req);
    if (!price || (req.budget_usd && price->first > *req.budget_usd)) continue;
    Recommendation r;
    r.gpu = &g;
    std::tie(r.price_usd, r.price_basis) = *price;
    auto metric = goal_metric(g, req.goal, &r.metric_name);
    if (!metric || *metric <= 0) continue;
    r.metric = *metric;
    r.score = r.metric / r.price_usd * 1000.0;
    r.reasons.push_back(fmt::format("memory {} >= need {}", gib(*g.memory_bytes), gib(need)));
    r.reasons.push_back(fmt::format("{:.1f} {} / ${:.0f} = {:.1f} per $1000", r.metric, r.metric_name, r.price_usd,
                                    r.score));
    r.reasons.push_back(r.price_basis);
    add_caveats(g, r.reasons);
    out.push_back(std::move(r));
  }
  std::stable_sort(out.begin(), out.end(), [](const Recommendation& x, const Recommendation& y) { return x.score > y.score; });
  return out;
}

void explain_ranks(std::vector<Recommendation>& recs) {
  for (size_t i = 1; i < recs.size(); ++i) {
    const auto& prev = recs[i - 1];
    recs[i].reasons.push_back(fmt::format("ranked below {}: {:.1f} vs {:.1f} per $1000", prev.gpu->name, recs[i].score,
                                          prev.score));
  }
}

/// The GPU the user already has: its catalogue row and the goal's metric for it.
struct OwnedGpu {
  const Gpu* gpu = nullptr;
  const catalog::GpuSpec* spec = nullptr;
  std::optional<double> metric;
};

/// The owned GPU with the most memory that the catalogue knows (a saved inventory may predate this catalogue:
/// the card is matched itself, its recorded row name as a hint).
std::optional<OwnedGpu> owned_gpu(const Inventory& inv, Goal goal) {
  std::optional<OwnedGpu> best;
  for (const auto& g : inv.gpus) {
    if (!g.memory_total_bytes || g.integrated) continue;
    const auto m = catalog::match_gpu({g.catalog_name.value_or(g.name), g.pci_vendor_id, g.pci_device_id,
                                       g.memory_total_bytes});
    OwnedGpu o{&g, m && !m->mig_profile ? m->spec : nullptr, std::nullopt};
    if (o.spec) o.metric = goal_metric(*o.spec, goal);
    if (!best || *g.memory_total_bytes > *best->gpu->memory_total_bytes) best = o;
  }
  return best;
}

/// A card no faster and no larger than the one owned is not an upgrade.
void drop_non_upgrades(const OwnedGpu& have, std::vector<Recommendation>& recs) {
  if (!have.metric || *have.metric <= 0) return;
  std::erase_if(recs, [&](const Recommendation& r) {
    return r.metric <= *have.metric && r.gpu->memory_bytes.value_or(0) <= *have.gpu->memory_total_bytes;
  });
}

/// What buying the top pick would gain over the card owned, or the advice to keep it.
void compare_with_owned(const OwnedGpu& have, const Advice& a, std::vector<std::string>& notes) {
  const Gpu& g = *have.gpu;
  const std::string have_name = have.spec ? have.spec->name : g.name;
  const bool enough = *g.memory_total_bytes >= a.need_bytes;
  if (enough)
    notes.push_back(fmt::format("keep your {} ({}): it already has the {} this goal needs, so there is no need to buy "
                                "one to {}",
                                have_name, gib(*g.memory_total_bytes), gib(a.need_bytes), name(a.goal)));
  if (a.recommendations.empty()) return;
  const auto& top = a.recommendations.front();
  if (have.spec && have.spec->name == top.gpu->name) {
    notes.push_back(fmt::format("you already have a {}: the top pick", have_name));
    return;
  }
  const double more_memory = (static_cast<double>(top.gpu->memory_bytes.value_or(0)) -
                              static_cast<double>(*g.memory_total_bytes)) / static_cast<double>(units::GiB);
  std::vector<std::string> gains;
  if (have.metric && *have.metric > 0 && top.metric > *have.metric)
    gains.push_back(fmt::format("{:.1f}x {}", top.metric / *have.metric, top.metric_name));
  if (more_memory > 0.5) gains.push_back(fmt::format("{:.0f} GiB more memory, for bigger models and batches", more_memory));
  if (!gains.empty())
    notes.push_back(fmt::format("{} {} ({}) would give {}", enough ? "buying a" : "upgrading your " + have_name + " to a",
                                top.gpu->name, gib(top.gpu->memory_bytes.value_or(0)), fmt::join(gains, " and ")));
}

/// Notes about the machine advise runs on (into `notes`); drops the cards that are no upgrade of the one owned.
/// Returns whether an owned card filtered the list.
bool machine_notes(const Inventory& inv, const Request& req, Advice& a, std::vector<std::string>& notes) {
  const bool laptop = inv.platform.laptop || inv.platform.kind == "laptop";
  const bool notebook = inv.platform.kind == "colab" || inv.platform.kind == "kaggle";
  if (notebook)
    notes.push_back(fmt::format("you are in {} (a hosted notebook): advice is for buying your own GPU",
                                inv.platform.kind));
  if (laptop)
    notes.push_back("this is a laptop: its GPU cannot be replaced and it cannot take a desktop GPU; the list is "
                    "for a desktop (or an external enclosure over Thunderbolt, slower)");
  const auto have = owned_gpu(inv, req.goal);
  const bool owned = !laptop && !notebook && have;
  if (owned) {
    drop_non_upgrades(*have, a.recommendations);
    compare_with_owned(*have, a, notes);
    if (*have->gpu->memory_total_bytes < a.need_bytes)
      a.warnings.push_back(fmt::format("your {} has {}, below the {} this goal needs", have->gpu->name,
                                       gib(*have->gpu->memory_total_bytes), gib(a.need_bytes)));
  }
  uint64_t lo = UINT64_MAX, hi = 0;
  for (const auto& g : inv.gpus)
    if (g.memory_total_bytes && !g.integrated) lo = std::min(lo, *g.memory_total_bytes), hi = std::max(hi, *g.memory_total_bytes);
  if (hi > 0 && lo != hi)
    notes.push_back(fmt::format(
        "GPUs of different memory ({} to {}): data-parallel training (DDP) holds a full copy per GPU, so the "
        "smallest card ({}) limits the model and batch; sharding (FSDP/ZeRO-3) splits weights, gradients and "
        "optimizer states across cards, but each shard is still sized for the smallest",
        gib(lo), gib(hi), gib(lo)));
  return owned;
}

/// Paid rentals with enough memory per GPU, cheapest first.
std::vector<Offer> paid_rentals(const std::vector<Offer>& offers, uint64_t need) {
  std::vector<Offer> paid;
  for (const auto& o : offers)
    if (o.kind == "paid" && o.memory_bytes && *o.memory_bytes >= need) paid.push_back(o);
  sort_cheapest_first(paid);
  return paid;
}

/// Break-even for the top pick against the cheapest comparable rental (at least its memory and metric).
void break_even(const Request& req, const std::vector<Offer>& paid, Advice& a) {
  if (a.recommendations.empty()) return;
  const double hours_per_month = req.hours_per_week * 52.0 / 12.0;
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
  if (!best) {
    a.break_even_text = fmt::format("no rental on file matches {} (memory and {}): no break-even computed",
                                    top.gpu->name, top.metric_name);
    return;
  }
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
}

/// When not to buy at all, and the traps every buyer should know.
void general_notes(const Request& req, bool laptop, Advice& a) {
  if (req.goal == Goal::learn && (laptop || req.hours_per_week <= 10))
    a.notes.push_back(fmt::format(
        "for learning at {:.0f} h/week{}, start free: Kaggle (~30 GPU-h/week, P100 or 2x T4) or Google Colab (T4, "
        "limits unpublished); see `gpuscout platforms`",
        req.hours_per_week, laptop ? " on a laptop" : ""));
  if (a.break_even_months && *a.break_even_months > 36)
    a.notes.push_back(fmt::format("break-even after {:.0f} months (over 3 years): renting is cheaper at this usage",
                                  *a.break_even_months));
  a.warnings.push_back("cards with 3-4 GB (GTX 1060 3GB, 1050) cannot hold most current models: the catalogue "
                       "filter drops them below the memory need");
  a.warnings.push_back("a laptop GPU is slower than the desktop card of the same name (lower power limit; the "
                       "laptop RTX 4090 has 16 GB, not 24)");
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

  a.recommendations = candidates(req, gpus, a.need_bytes);
  std::vector<std::string> machine;  // the machine's notes come after the general ones, as the reader meets them
  const bool owned = inv && machine_notes(*inv, req, a, machine);
  explain_ranks(a.recommendations);
  if (req.top > 0 && a.recommendations.size() > req.top) a.recommendations.resize(req.top);
  const std::string beats = owned ? " that beats the GPU you have" : "";
  if (a.recommendations.empty())
    a.notes.push_back(req.budget_usd
                          ? fmt::format("no GPU in the catalogue with {} or more{} within ${:.0f}: rent instead, or "
                                        "raise the budget",
                                        gib(a.need_bytes), beats, *req.budget_usd)
                          : fmt::format("no priced GPU in the catalogue has {} or more{}: rent", gib(a.need_bytes),
                                        beats));
  const auto paid = paid_rentals(offers, a.need_bytes);
  for (const auto& o : paid) {
    if (a.rent.size() >= 5) break;
    a.rent.push_back({o.provider, o.offer, o.gpu, o.usd_per_hour});
  }
  break_even(req, paid, a);
  const bool laptop = inv && (inv->platform.laptop || inv->platform.kind == "laptop");
  general_notes(req, laptop, a);
  a.notes.insert(a.notes.end(), machine.begin(), machine.end());
  return a;
}

}  // namespace gpuscout::advise
