#include "advise/advise.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "catalog/gpu_match.hpp"
#include "core/data_files.hpp"
#include "core/data_info.hpp"
#include "core/i18n.hpp"
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
    const std::string symbol = table.column("symbol") ? cells.text("symbol") : std::string();
    if (auto ok = cells.result(); !ok) return std::unexpected(ok.error());
    r.units_per_usd[cur] = *v;
    if (!symbol.empty()) r.symbols[cur] = text::clean_utf8(symbol);
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

namespace {

/// What a Chinese input method types, as ASCII: full-width digits, signs and spaces (U+FF01..U+FF5E, U+3000).
std::string half_width(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == 0xEF && i + 2 < s.size()) {
      const auto b1 = static_cast<unsigned char>(s[i + 1]), b2 = static_cast<unsigned char>(s[i + 2]);
      const unsigned cp = ((c & 0x0Fu) << 12) | ((b1 & 0x3Fu) << 6) | (b2 & 0x3Fu);
      // U+FFE5 (full-width yen sign) stays as it is: it is how a Chinese IME writes the yuan sign.
      if (cp >= 0xFF01 && cp <= 0xFF5E && cp != 0xFF04) {
        out += static_cast<char>(cp - 0xFF01 + 0x21);
        i += 2;
        continue;
      }
    }
    if (c == 0xE3 && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
        static_cast<unsigned char>(s[i + 2]) == 0x80) {  // U+3000 ideographic space
      out += ' ';
      i += 2;
      continue;
    }
    out += s[i];
  }
  return out;
}

struct Sign {
  std::string text, currency;
  bool yen = false;  ///< the half-width yen/yuan sign
};

/// Signs before or after the number, longest first: the table's symbols plus the usual spellings. "¥" is CNY:
/// yuan in China and in this tool (yen users write JPY or 円).
std::vector<Sign> money_signs(const ExchangeRates& rates) {
  std::vector<Sign> signs = {{"￥", "CNY"}, {"¥", "CNY", true}, {"元", "CNY"}, {"人民币", "CNY"}, {"RMB", "CNY"},
                             {"円", "JPY"}, {"US$", "USD"}, {"€", "EUR"},   {"£", "GBP"},     {"₹", "INR"},
                             {"₩", "KRW"}};
  for (const auto& [cur, sym] : rates.symbols)
    if (sym != "¥" && std::none_of(signs.begin(), signs.end(), [&](const Sign& x) { return x.text == sym; }))
      signs.push_back({sym, cur});
  std::stable_sort(signs.begin(), signs.end(), [](const Sign& a, const Sign& b) { return a.text.size() > b.text.size(); });
  return signs;
}

/// Removes a sign at the front (or, with `back`, at the end) of `s`; the sign found, if any.
std::optional<Sign> take_sign(std::string_view& s, const std::vector<Sign>& signs, bool back) {
  const std::string u = upper(s);
  for (const auto& sign : signs) {
    const std::string t = upper(sign.text);
    if (back ? std::string_view(u).ends_with(t) : std::string_view(u).starts_with(t)) {
      if (back) s.remove_suffix(t.size());
      else s.remove_prefix(t.size());
      s = text::trim(s);
      return sign;
    }
  }
  return std::nullopt;
}

}  // namespace

Result<Money> parse_money(std::string_view input, const ExchangeRates& rates) {
  const std::string normal = half_width(text::trim(input));
  std::string_view s = text::trim(normal);
  const auto signs = money_signs(rates);
  const auto prefix = take_sign(s, signs, false);
  const auto suffix_sign = take_sign(s, signs, true);
  size_t i = 0;
  while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.' || s[i] == '-' ||
                          s[i] == '+' || s[i] == ',' || s[i] == '_'))
    ++i;
  const std::string code = upper(text::trim(s.substr(i)));
  if (i == 0)
    return fail(trf("budget '{}' is not a number (examples: 1500, 1500USD, 3000元, ￥3000, 900EUR)", input));
  // "1500,00EUR" is 1500 euros and "1,500" is fifteen hundred; a form that could be either is refused.
  auto v = units::parse_amount(s.substr(0, i));
  if (!v) return fail(trf("budget '{}': {}", input, v.error().message));
  if (*v <= 0) return fail(trf("budget '{}' must be positive", input));
  std::vector<std::string> named;
  for (const auto* sign : {prefix ? &*prefix : nullptr, suffix_sign ? &*suffix_sign : nullptr})
    if (sign) named.push_back(sign->currency);
  if (!code.empty()) named.push_back(code == "RMB" ? "CNY" : code);
  for (const auto& n : named)
    if (n != named.front()) return fail(trf("budget '{}' names two currencies", input));
  Money m;
  m.amount = *v;
  m.currency = named.empty() ? "USD" : named.front();
  m.yen_sign_read_as_cny = m.currency == "CNY" && ((prefix && prefix->yen) || (suffix_sign && suffix_sign->yen));
  if (!rates.units_per_usd.contains(m.currency))
    return fail(trf("unknown currency '{}' in budget '{}' (known: {})", m.currency, input, known_currencies(rates)));
  return m;
}

Result<double> to_usd(const Money& money, const ExchangeRates& rates) {
  auto it = rates.units_per_usd.find(upper(money.currency));
  if (it == rates.units_per_usd.end())
    return fail(trf("unknown currency '{}' (known: {})", money.currency, known_currencies(rates)));
  return money.amount / it->second;
}

Display display_for(const std::string& currency, const ExchangeRates& rates) {
  Display d;
  d.rate_date = rates.date;
  d.symbols = rates.symbols;
  const std::string cur = upper(currency);
  auto it = rates.units_per_usd.find(cur);
  if (it == rates.units_per_usd.end()) return d;
  d.currency = cur;
  d.units_per_usd = it->second;
  auto sym = rates.symbols.find(cur);
  d.symbol = sym != rates.symbols.end() ? sym->second : cur + " ";
  d.symbols = rates.symbols;
  return d;
}

namespace {

/// 11613 -> "11,613" (decimals 0) or 2.5 -> "2.50".
std::string grouped(double value, int decimals) {
  if (decimals > 0) return fmt::format("{:.{}f}", value, decimals);
  const std::string digits = fmt::format("{:.0f}", std::fabs(value));
  std::string out = value <= -0.5 ? "-" : "";
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

std::string format_money(double usd, const Display& display, int decimals) {
  return display.symbol + grouped(usd * display.units_per_usd, decimals);
}

std::string format_local(double amount, std::optional<double> amount_max, const std::string& currency,
                         const Display& display) {
  const auto sym = display.symbols.find(upper(currency));
  std::string out = (sym != display.symbols.end() ? sym->second : currency + " ") + grouped(amount, 2);
  if (amount_max && *amount_max > amount) out += "-" + grouped(*amount_max, 2);
  return out;
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
      return fail(trf("{}:{}: column {} (name): unknown GPU '{}'{}", source, row.line, name_col, gpu_name,
                              catalog::did_you_mean(gpu_name)));
    // A shop's price list is typed by people too: the same forms as --budget ("1,599.00", "1599,00").
    auto price = units::parse_amount(t->cell(row, "price"));
    if (!price || *price <= 0)
      return fail(trf("{}:{}: column {} (price): {}", source, row.line, price_col,
                              price ? trf("'{}' is not a positive amount", t->cell(row, "price"))
                                    : price.error().message));
    Money m{*price, "USD"};
    if (cur_col) {
      const std::string cur = upper(text::trim(t->cell(row, "currency")));
      if (!cur.empty()) m.currency = cur;
    }
    auto usd = to_usd(m, rates);
    if (!usd)
      return fail(trf("{}:{}: column {} (currency): {}", source, row.line, cur_col ? *cur_col + 1 : 0,
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
  o.price_per_hour = c.number("price_per_hour", 0, 1e7);
  o.price_max_per_hour = c.number("price_max_per_hour", 0, 1e7);
  o.currency = upper(c.text("currency"));
  if (o.price_per_hour.has_value() != !o.currency.empty())
    c.fail("currency", "must be given with price_per_hour (and only then)");
  // A price in a local currency is converted later (price_in_usd); otherwise the USD price is required.
  o.usd_per_hour = c.number("usd_per_hour", 0, 1e5, o.price_per_hour ? csv::Need::optional : csv::Need::required)
                       .value_or(0);
  o.free_hours_per_week = c.number("free_hours_per_week", 0.01, 168);
  o.session_hours = c.number("session_hours", 0.01, 10000);
  o.requirements = c.text("requirements");
  o.steps = c.text("steps");
  o.note = c.text("note");
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

Result<void> price_in_usd(std::vector<Offer>& offers, const ExchangeRates& rates) {
  for (auto& o : offers) {
    if (!o.price_per_hour) continue;
    auto usd = to_usd({*o.price_per_hour, o.currency}, rates);
    if (!usd) return fail(fmt::format("platforms.csv: {} {}: {}", o.provider, o.offer, usd.error().message));
    o.usd_per_hour = *usd;
  }
  return {};
}

Result<std::vector<Offer>> load_offers(const ExchangeRates& rates) {
  auto t = core::load_table("platforms.csv");
  if (!t) return fail(t.error().message);
  auto offers = parse_offers(*t);
  if (!offers) return offers;
  if (auto ok = price_in_usd(*offers, rates); !ok) return std::unexpected(ok.error());
  return offers;
}

Result<std::vector<Offer>> load_offers() {
  auto rates = load_rates();
  if (!rates) return std::unexpected(rates.error());
  return load_offers(*rates);
}

Result<std::string> parse_region(std::string_view text) {
  const std::string r = text::to_lower(text::trim(text));
  if (r == "cn" || r == "china" || r == "zh" || r == "中国" || r == "mainland") return std::string("cn");
  if (r == "global" || r == "intl" || r == "world" || r == "international") return std::string("global");
  return fail(trf("unknown region '{}' (use cn or global)", text));
}

std::string default_region() { return i18n::current() == i18n::Language::zh ? "cn" : "global"; }

bool in_region(const Offer& offer, std::string_view region) {
  const bool china = offer.region == "cn";
  return region == "cn" ? china : !china;
}

void order_for_region(std::vector<Offer>& offers, std::string_view region) {
  sort_cheapest_first(offers);
  std::stable_partition(offers.begin(), offers.end(), [&](const Offer& o) { return in_region(o, region); });
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
  return fail(trf("unknown goal '{}' (use learn, build, research or llm)", s));
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
    set(tr("memory bandwidth GB/s (LLM inference is bandwidth-bound)"));
    return g.memory_bandwidth_gbs;
  }
  if (g.bf16_tensor_tflops) {
    set(tr("dense bf16 tensor TFLOP/s (FP32 accumulate)"));
    return g.bf16_tensor_tflops;
  }
  if (g.fp16_tensor_tflops) {
    set(tr("dense fp16 tensor TFLOP/s (FP32 accumulate; no bf16)"));
    return g.fp16_tensor_tflops;
  }
  if (g.fp32_tflops) {
    set(tr("fp32 TFLOP/s (no tensor cores)"));
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

/// The price advise ranks a card at, and where it came from; nullopt for a card with no price on file.
std::optional<std::pair<double, std::string>> price_of(const catalog::GpuSpec& g, const Request& req) {
  if (auto it = req.prices_usd.find(g.name); it != req.prices_usd.end())
    return std::pair{it->second, std::string(tr("price: from --prices"))};
  if (g.street_price_usd)
    return std::pair{*g.street_price_usd,
                     trf("price: street price {}", g.street_price_date.empty() ? tr("(undated)") : g.street_price_date)};
  if (g.launch_price_usd)
    return std::pair{*g.launch_price_usd,
                     trf("price: launch price {}, no street price on file",
                         g.launch_year ? std::to_string(*g.launch_year) : std::string(tr("(year unknown)")))};
  return std::nullopt;
}

/// A card PyTorch's CUDA wheels run on.
bool cuda_card(const catalog::GpuSpec& g) { return g.vendor == "nvidia"; }

void add_caveats(const catalog::GpuSpec& g, std::vector<std::string>& reasons) {
  if (g.form_factor == "datacenter-passive")
    reasons.push_back(tr("passively cooled data-centre card: needs a server chassis with forced airflow"));
  else if (g.form_factor == "datacenter")
    reasons.push_back(tr("data-centre card: server power and cooling"));
  if (g.vendor == "amd") reasons.push_back(tr("AMD: PyTorch via ROCm on Linux only, not on Windows"));
  if (g.vendor == "intel") reasons.push_back(tr("Intel: PyTorch via XPU backend; fewer libraries than CUDA"));
  if (g.compute_capability && g.vendor == "nvidia") {
    // Linux wheels: the platform a card bought for deep learning runs (diagnose asks the same of the probed OS).
    const auto releases = catalog::torch_releases();
    if (!releases.empty() && !catalog::newest_release_for(*g.compute_capability, "linux-x86_64", releases).current)
      reasons.push_back(trf("trap: PyTorch {} wheels no longer ship code for compute capability {}", releases.front(),
                            *g.compute_capability));
  }
  if (!g.software_support.empty()) reasons.push_back(trf("software: {}", tr(g.software_support)));
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
    r.reasons.push_back(trf("memory {} >= need {}", gib(*g.memory_bytes), gib(need)));
    r.reasons.push_back(trf("{:.1f} {} / ${:.0f} = {:.1f} per $1000", r.metric, r.metric_name, r.price_usd, r.score));
    r.reasons.push_back(r.price_basis);
    if (g.used_price_usd)  // shown, not ranked: a used card's price depends on its condition
      r.reasons.push_back(trf("used: about ${:.0f} second-hand (not used for the ranking)", *g.used_price_usd));
    add_caveats(g, r.reasons);
    out.push_back(std::move(r));
  }
  std::stable_sort(out.begin(), out.end(), [](const Recommendation& x, const Recommendation& y) { return x.score > y.score; });
  // A learner's course, Colab, Kaggle and most tutorials assume CUDA: a ROCm or XPU card costs a beginner days of
  // set-up before the first lesson runs, whatever its value per dollar. For `learn`, CUDA cards come first.
  if (req.goal == Goal::learn)
    std::stable_partition(out.begin(), out.end(), [](const Recommendation& r) { return cuda_card(*r.gpu); });
  return out;
}

void explain_ranks(std::vector<Recommendation>& recs, Goal goal) {
  for (size_t i = 1; i < recs.size(); ++i) {
    const auto& prev = recs[i - 1];
    if (goal == Goal::learn && cuda_card(*prev.gpu) && !cuda_card(*recs[i].gpu))
      recs[i].reasons.push_back(tr("listed after the NVIDIA cards: courses, Colab, Kaggle and most tutorials assume "
                                   "CUDA, and setting up ROCm or XPU costs a beginner days (`--goal build` ranks by "
                                   "value alone)"));
    else
      recs[i].reasons.push_back(
          trf("ranked below {}: {:.1f} vs {:.1f} per $1000", prev.gpu->name, recs[i].score, prev.score));
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
    notes.push_back(trf("keep your {} ({}): it already has the {} this goal needs, so there is no need to buy one to {}",
                        have_name, gib(*g.memory_total_bytes), gib(a.need_bytes), text::code(name(a.goal))));
  if (a.recommendations.empty()) return;
  const auto& top = a.recommendations.front();
  if (have.spec && have.spec->name == top.gpu->name) {
    notes.push_back(trf("you already have a {}: the top pick", have_name));
    return;
  }
  const double more_memory = (static_cast<double>(top.gpu->memory_bytes.value_or(0)) -
                              static_cast<double>(*g.memory_total_bytes)) / static_cast<double>(units::GiB);
  std::vector<std::string> gains;
  if (have.metric && *have.metric > 0 && top.metric > *have.metric)
    gains.push_back(fmt::format("{:.1f}x {}", top.metric / *have.metric, top.metric_name));
  if (more_memory > 0.5) gains.push_back(trf("{:.0f} GiB more memory, for bigger models and batches", more_memory));
  if (gains.empty()) return;
  const std::string gain = text::join(gains, tr(" and "));
  const std::string top_memory = gib(top.gpu->memory_bytes.value_or(0));
  notes.push_back(enough ? trf("buying a {} ({}) would give {}", top.gpu->name, top_memory, gain)
                         : trf("upgrading your {} to a {} ({}) would give {}", have_name, top.gpu->name, top_memory, gain));
}

/// The hosted notebooks the probe names, as platforms.csv names their providers.
std::string_view notebook_name(std::string_view kind) {
  if (kind == "colab") return "Google Colab";
  if (kind == "kaggle") return "Kaggle";
  if (kind == "aistudio") return "Baidu AI Studio";
  return {};
}

/// Notes about the machine advise runs on (into `notes`); drops the cards that are no upgrade of the one owned.
/// Returns whether an owned card filtered the list.
bool machine_notes(const Inventory& inv, const Request& req, Advice& a, std::vector<std::string>& notes) {
  const bool laptop = inv.platform.laptop || inv.platform.kind == "laptop";
  const bool notebook = !notebook_name(inv.platform.kind).empty();
  if (notebook)
    notes.push_back(trf("you are in {} (a hosted notebook): advice is for buying your own GPU",
                        notebook_name(inv.platform.kind)));
  if (laptop)
    notes.push_back(tr("this is a laptop: its GPU cannot be replaced and it cannot take a desktop GPU; the list is "
                       "for a desktop (or an external enclosure over Thunderbolt, slower)"));
  const auto have = owned_gpu(inv, req.goal);
  const bool owned = !laptop && !notebook && have;
  if (owned) {
    drop_non_upgrades(*have, a.recommendations);
    compare_with_owned(*have, a, notes);
    if (*have->gpu->memory_total_bytes < a.need_bytes)
      a.warnings.push_back(trf("your {} has {}, below the {} this goal needs", have->gpu->name,
                               gib(*have->gpu->memory_total_bytes), gib(a.need_bytes)));
  }
  uint64_t lo = UINT64_MAX, hi = 0;
  for (const auto& g : inv.gpus)
    if (g.memory_total_bytes && !g.integrated) lo = std::min(lo, *g.memory_total_bytes), hi = std::max(hi, *g.memory_total_bytes);
  if (hi > 0 && lo != hi)
    notes.push_back(trf("GPUs of different memory ({} to {}): data-parallel training (DDP) holds a full copy per GPU, so "
                        "the smallest card ({}) limits the model and batch; sharding (FSDP/ZeRO-3) splits weights, "
                        "gradients and optimizer states across cards, but each shard is still sized for the smallest",
                        gib(lo), gib(hi), gib(lo)));
  return owned;
}

/// Paid rentals with enough memory per GPU: the request's region first, each part cheapest first.
std::vector<Offer> paid_rentals(const std::vector<Offer>& offers, uint64_t need, std::string_view region) {
  std::vector<Offer> paid;
  for (const auto& o : offers)
    if (o.kind == "paid" && o.memory_bytes && *o.memory_bytes >= need) paid.push_back(o);
  order_for_region(paid, region);
  return paid;
}

/// Break-even for the top pick against the cheapest comparable rental (at least its memory and metric).
void break_even(const Request& req, const std::vector<Offer>& paid_in_order, Advice& a) {
  if (a.recommendations.empty()) return;
  std::vector<Offer> paid = paid_in_order;
  sort_cheapest_first(paid);
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
    a.break_even_text =
        trf("no rental on file matches {} (memory and {}): no break-even computed", top.gpu->name, top.metric_name);
    return;
  }
  a.break_even_months = break_even_months(top.price_usd, best->usd_per_hour, hours_per_month,
                                          top.gpu->tdp_w.value_or(0), req.tariff_usd_per_kwh);
  const std::string assumed = req.hours_given ? "" : tr(" (assumed; --hours-per-week)");
  // In the budget's currency; a rental priced in its own currency (yuan) keeps it.
  const std::string price = format_money(top.price_usd, a.display);
  const std::string rent = best->price_per_hour
                               ? format_local(*best->price_per_hour, best->price_max_per_hour, best->currency, a.display)
                               : format_money(best->usd_per_hour, a.display, 2);
  a.break_even_text =
      a.break_even_months
          ? trf("buying {} ({}) beats renting {} at {} ({}/h) after {:.1f} months at {:.0f} h/week{} (power {} W at "
                "${:.2f}/kWh)",
                top.gpu->name, price, best->gpu, best->provider, rent, *a.break_even_months, req.hours_per_week,
                assumed, top.gpu->tdp_w.value_or(0), req.tariff_usd_per_kwh)
          : trf("renting {} at {} ({}/h) costs less than the power to run {}: buying never pays back", best->gpu,
                best->provider, rent, top.gpu->name);
}

/// The free tiers of the region, by provider, for a sentence ("Baidu AI Studio, Kaggle").
std::string free_providers(const std::vector<Offer>& offers, std::string_view region) {
  std::vector<std::string> names;
  for (const auto& o : offers)
    if (o.kind == "free" && in_region(o, region) && std::find(names.begin(), names.end(), o.provider) == names.end())
      names.push_back(o.provider);
  return text::join(names, ", ");
}

/// A budget that buys no card in the catalogue: what it does buy (hours of the cheapest rental, a free tier, a
/// used card), so the answer is never just "none".
void small_budget_notes(const Request& req, const std::vector<Offer>& paid, const std::vector<Offer>& offers,
                        Advice& a) {
  if (!req.budget_usd || !a.recommendations.empty()) return;
  const std::string budget = format_money(*req.budget_usd, a.display);
  if (!paid.empty()) {
    const Offer& o = paid.front();  // the region's cheapest first
    a.notes.push_back(trf("{} rents about {:.0f} hours of {} at {} ({}/h, prices of {})", budget,
                          *req.budget_usd / o.usd_per_hour, o.gpu, o.provider,
                          o.price_per_hour ? format_local(*o.price_per_hour, o.price_max_per_hour, o.currency, a.display)
                                           : fmt::format("${:.2f}", o.usd_per_hour),
                          o.date));
  }
  if (const auto free = free_providers(offers, req.region); !free.empty())
    a.notes.push_back(trf("or spend nothing: free GPU notebooks ({}); see `gpuscout platforms`", free));
  a.notes.push_back(trf("a used card with at least {} of memory may fit {}: see the traps below before buying one",
                        gib(a.need_bytes), budget));
}

/// When not to buy at all, and the traps every buyer should know.
void general_notes(const Request& req, bool laptop, const std::vector<Offer>& offers, Advice& a) {
  const bool small_budget = req.budget_usd && a.recommendations.empty();  // its notes name the free tiers already
  if (req.goal == Goal::learn && (laptop || req.hours_per_week <= 10) && !small_budget) {
    auto free = free_providers(offers, req.region);
    if (free.empty()) free = "`gpuscout platforms`";  // no free tier on file for the region
    a.notes.push_back(laptop ? trf("for learning at {:.0f} h/week on a laptop, start free: {}; see `gpuscout platforms`",
                                   req.hours_per_week, free)
                             : trf("for learning at {:.0f} h/week, start free: {}; see `gpuscout platforms`",
                                   req.hours_per_week, free));
  }
  if (a.break_even_months && *a.break_even_months > 36)
    a.notes.push_back(
        trf("break-even after {:.0f} months (over 3 years): renting is cheaper at this usage", *a.break_even_months));
  a.warnings.push_back(tr("cards with 3-4 GB (GTX 1060 3GB, 1050) cannot hold most current models: the catalogue "
                          "filter drops them below the memory need"));
  a.warnings.push_back(tr("a laptop GPU is slower than the desktop card of the same name (lower power limit; the "
                          "laptop RTX 4090 has 16 GB, not 24)"));
  a.warnings.push_back(tr("a used or ex-mining card: test it under load before paying, check the memory size "
                          "(a 3 GB version looks like the 6 GB one) and prefer a seller who takes it back"));
  if (!a.recommendations.empty() && a.recommendations.front().gpu->form_factor != "laptop")
    a.warnings.push_back(tr("several cards in one case: open-air cards (Founders Edition and most gaming cards) "
                            "stacked together overheat and slow down; use blower-style or server cards, or leave a "
                            "slot free between them"));
}

/// Advice on buying a whole desktop around the card (--whole-pc), from the FAQ's rules.
void whole_pc_notes(const Request& req, Advice& a) {
  if (!req.whole_pc) return;
  a.notes.push_back(tr("if you have never built a PC, buy a whole desktop with the card in it rather than the card "
                       "alone: it costs more than the card, but the power supply, case and drivers come matched"));
  a.notes.push_back(tr("a laptop cannot take a desktop GPU, and its own GPU cannot be upgraded: for a machine you "
                       "will use for years, a desktop is the better buy"));
  a.notes.push_back(tr("the budget above is for the card: a desktop around it also needs a power supply sized for the "
                       "card's power (see its watts), a case with airflow, and at least as much RAM as GPU memory"));
}

}  // namespace

void add_stale_warnings(Advice& a, std::string_view today) {
  const std::pair<const std::string*, const char*> tables[] = {
      {&a.catalogue_date, N_("The GPU catalogue (specs and purchase prices) dates from {0}, {1} months before today: "
                             "street prices and new cards may have changed. Newer tables: --data DIR")},
      {&a.prices_date, N_("The rental prices date from {0}, {1} months before today: check the provider's page before "
                          "you pay. Newer tables: --data DIR")},
      {&a.rates_date, N_("The exchange rates date from {0}, {1} months before today: converted prices may be off. "
                         "Newer tables: --data DIR")},
  };
  for (const auto& [date, message] : tables) {
    const auto age = core::days_between(*date, today);
    if (age && *age > core::kStaleAfterDays) a.warnings.push_back(trf(message, *date, *age / 30));
  }
}

Advice advise(const Request& req, const std::vector<catalog::GpuSpec>& gpus, const std::vector<Offer>& offers,
              const Inventory* inv) {
  Advice a;
  a.display = req.display;
  a.catalogue_date = catalog::gpus_date();
  a.goal = req.goal;
  a.budget_usd = req.budget_usd;
  a.need_bytes = req.need_bytes.value_or(default_need_bytes(req.goal));
  a.need_basis = req.need_bytes ? req.need_basis : trf("default for goal '{}'", name(req.goal));
  for (const auto& o : offers) a.prices_date = std::max(a.prices_date, o.date);

  a.recommendations = candidates(req, gpus, a.need_bytes);
  std::vector<std::string> machine;  // the machine's notes come after the general ones, as the reader meets them
  const bool owned = inv && machine_notes(*inv, req, a, machine);
  explain_ranks(a.recommendations, req.goal);
  if (req.top > 0 && a.recommendations.size() > req.top) a.recommendations.resize(req.top);
  if (a.recommendations.empty()) {
    const std::string need = gib(a.need_bytes);
    if (req.budget_usd) {
      const std::string budget = format_money(*req.budget_usd, a.display);
      a.notes.push_back(owned ? trf("no GPU in the catalogue with {} or more that beats the GPU you have within {}", need,
                                    budget)
                              : trf("no new GPU in the catalogue with {} or more within {}", need, budget));
    } else {
      a.notes.push_back(owned ? trf("no priced GPU in the catalogue has {} or more that beats the GPU you have: rent", need)
                              : trf("no priced GPU in the catalogue has {} or more: rent", need));
    }
  }
  const auto paid = paid_rentals(offers, a.need_bytes, req.region);
  for (const auto& o : paid) {
    if (a.rent.size() >= 5) break;
    a.rent.push_back({o.provider, o.offer, o.gpu, o.usd_per_hour, o.price_per_hour, o.price_max_per_hour, o.currency,
                      o.date});
  }
  break_even(req, paid, a);
  small_budget_notes(req, paid, offers, a);
  const bool laptop = inv && (inv->platform.laptop || inv->platform.kind == "laptop");
  general_notes(req, laptop, offers, a);
  whole_pc_notes(req, a);
  a.notes.insert(a.notes.end(), machine.begin(), machine.end());
  return a;
}

}  // namespace gpuscout::advise
