#pragma once
/// advise and platforms: what to buy, what to rent, what is free. Pure functions of the data tables, the
/// user's request and an Inventory (so they run as well on a saved `info --json`). Money is USD in
/// `*_usd` names; a budget in another currency is converted with data/exchange_rates.csv (dated).
/// Bad user input (budget, currency, GPU name, --prices file) comes back as an Error whose message a user
/// can act on; the CLI turns it into a UsageError (exit 2).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.hpp"
#include "core/csv.hpp"
#include "core/error.hpp"
#include "inventory/inventory.hpp"

namespace gpuscout::advise {

// ---- money -------------------------------------------------------------------------------------------------

struct ExchangeRates {
  std::map<std::string, double> units_per_usd;  ///< "CNY" -> 7.26
  std::map<std::string, std::string> symbols;   ///< "CNY" -> "¥", "USD" -> "$" (the table's symbol column)
  std::string date;                              ///< newest row's date
};
/// Parses exchange_rates.csv (currency,units_per_usd,...,date). Rates must be positive numbers.
Result<ExchangeRates> parse_rates(const csv::Table& table);
/// The built-in (or --data) table.
Result<ExchangeRates> load_rates();

struct Money {
  double amount = 0;
  std::string currency = "USD";
  /// The half-width sign "¥" was read as yuan (CNY), not yen: the output says so (write 7000JPY for yen).
  bool yen_sign_read_as_cny = false;
};
/// "1500", "1500USD", "7000 CNY", "7000cny", "3000元", "3000RMB", "￥3000" (full-width, as a Chinese IME types
/// it; full-width digits too), "¥3000", "$1500", "US$1500", "€900", "£800", "₹90000", "₩2000000", "5000円",
/// and the table's other signs (A$, CA$, HK$, S$, R$, MX$). "¥" means CNY (yuan), whatever the language: yen
/// users write JPY or 円; the half-width sign sets `yen_sign_read_as_cny`. Rejects negatives, zero, non-numbers,
/// two currencies and unknown currencies (listing the known ones).
Result<Money> parse_money(std::string_view text, const ExchangeRates& rates);
/// amount in USD.
Result<double> to_usd(const Money& money, const ExchangeRates& rates);

/// How amounts are shown: in `currency` (the budget's), at `units_per_usd`, with its sign; the rate's date.
struct Display {
  std::string currency = "USD", symbol = "$", rate_date;
  double units_per_usd = 1;
  std::map<std::string, std::string> symbols;  ///< every currency's sign, for prices published in another one
};
/// The display for a currency of the table (USD when unknown).
Display display_for(const std::string& currency, const ExchangeRates& rates);
/// "¥11,613", "$1,599", "€1,494" (whole units; `decimals` for hourly prices: "¥2.50").
std::string format_money(double usd, const Display& display, int decimals = 0);
/// An amount already in `currency` ("¥2.00-2.80" for a range): its sign, else the code before it.
std::string format_local(double amount, std::optional<double> amount_max, const std::string& currency,
                         const Display& display);

// ---- prices and offers -----------------------------------------------------------------------------------

/// --prices FILE: columns `name,price` plus optional `currency` (default USD). Names are catalogue names or
/// aliases; a bad cell names the file, line and column; an unknown name suggests the closest ones.
Result<std::map<std::string, double>> parse_prices(std::string_view text, const std::string& source,
                                                   const ExchangeRates& rates);

struct Offer {
  std::string kind;  ///< free | paid
  std::string provider, offer, gpu;
  int gpu_count = 1;
  std::optional<uint64_t> memory_bytes;  ///< per GPU
  double usd_per_hour = 0;               ///< per GPU-hour (for a local price: converted by price_in_usd)
  /// The price as the provider publishes it, per GPU-hour, in `currency` ("CNY"); a range when `price_max_per_hour`.
  std::optional<double> price_per_hour, price_max_per_hour;
  std::string currency;
  std::optional<double> free_hours_per_week, session_hours;
  std::string requirements, steps, note, region, url, source, date;
};
Result<std::vector<Offer>> parse_offers(const csv::Table& table);
/// The table's offers, local prices converted to USD (the low end of a range) with `rates`.
Result<std::vector<Offer>> load_offers(const ExchangeRates& rates);
/// The same with the built-in (or --data) rates.
Result<std::vector<Offer>> load_offers();
/// Fills usd_per_hour of the offers priced in a local currency; an unknown currency is an error.
Result<void> price_in_usd(std::vector<Offer>& offers, const ExchangeRates& rates);
/// Free first, then by price per GPU-hour; stable otherwise.
void sort_cheapest_first(std::vector<Offer>& offers);

// ---- regions ---------------------------------------------------------------------------------------------

/// The regions the platforms table knows: "cn" (mainland China) and "global" (everything else).
/// --region: "cn", "china", "中国", "zh" or "global", "intl", "world" (any case); an error names the input.
Result<std::string> parse_region(std::string_view text);
/// The region the language implies: Chinese means China first.
std::string default_region();
/// Whether an offer is in `region` (a row's empty or other region, such as us-east-1, counts as global).
bool in_region(const Offer& offer, std::string_view region);
/// The offers in `region` first (free, then cheapest), then the rest (free, then cheapest).
void order_for_region(std::vector<Offer>& offers, std::string_view region);

// ---- advice ----------------------------------------------------------------------------------------------

enum class Goal { learn, build, research, llm };
Result<Goal> parse_goal(std::string_view s);
std::string_view name(Goal g);
/// Memory a goal needs when nothing more precise is given.
uint64_t default_need_bytes(Goal g);

struct Request {
  std::optional<double> budget_usd;     ///< none: rank everything
  Goal goal = Goal::learn;
  std::optional<uint64_t> need_bytes;   ///< --need-vram or from --model; none: from the goal
  std::string need_basis;               ///< "--need-vram 24G", "llama-3-8b lora: 19.2 GiB"
  double hours_per_week = 10;
  bool hours_given = false;
  double tariff_usd_per_kwh = 0.15;
  std::map<std::string, double> prices_usd;  ///< catalogue name -> price (from --prices)
  size_t top = 5;
  std::string region = "global";             ///< rentals and free tiers of this region first
  bool whole_pc = false;                     ///< --whole-pc: advice on buying a whole desktop
  Display display;                           ///< the budget's currency, for the notes that name amounts
};

struct Recommendation {
  const catalog::GpuSpec* gpu = nullptr;
  double price_usd = 0;
  std::string price_basis;  ///< "--prices", "street price 2026-01", "launch price 2022, no street price on file"
  double metric = 0;        ///< TFLOP/s or GB/s
  std::string metric_name;  ///< "dense bf16 tensor TFLOP/s (FP32 accumulate)" or "memory bandwidth GB/s"
  double score = 0;         ///< metric per 1000 USD
  std::vector<std::string> reasons;
};

struct RentOption {
  std::string platform, offer, gpu;
  double usd_per_hour = 0;
  std::optional<double> price_per_hour, price_max_per_hour;  ///< as published, in `currency`
  std::string currency, date;
};

struct Advice {
  std::string catalogue_date, rates_date, prices_date;
  Goal goal = Goal::learn;
  uint64_t need_bytes = 0;
  std::string need_basis;
  std::optional<double> budget_usd;
  std::vector<Recommendation> recommendations;
  std::vector<RentOption> rent;  ///< cheapest first
  std::optional<double> break_even_months;
  std::string break_even_text;
  std::vector<std::string> notes;     ///< when not to buy, inventory-based advice
  std::vector<std::string> warnings;  ///< traps
  Display display;                    ///< the budget's currency (set by the caller; USD by default)
};

/// The metric that matters for a goal, and its name; nullopt when the row lacks it.
std::optional<double> goal_metric(const catalog::GpuSpec& g, Goal goal, std::string* metric_name = nullptr);

/// Months until buying beats renting: price / (rent/h x hours/month - TDP kW x hours/month x tariff).
/// nullopt when renting costs no more than the power (buying never pays back) or the inputs are not positive.
std::optional<double> break_even_months(double price_usd, double rent_usd_per_hour, double hours_per_month,
                                        double tdp_w, double tariff_usd_per_kwh);

/// Warns about each table the advice rests on (the catalogue, rental prices, exchange rates) whose newest row is
/// more than core::kStaleAfterDays before `today` (YYYY-MM-DD): prices move faster than that.
void add_stale_warnings(Advice& advice, std::string_view today);

/// Ranks, explains and compares; `inventory` may be null (nothing known about this machine).
Advice advise(const Request& request, const std::vector<catalog::GpuSpec>& gpus, const std::vector<Offer>& offers,
              const Inventory* inventory);

}  // namespace gpuscout::advise
