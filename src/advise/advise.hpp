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
  std::string date;                              ///< newest row's date
};
/// Parses exchange_rates.csv (currency,units_per_usd,...,date). Rates must be positive numbers.
Result<ExchangeRates> parse_rates(const csv::Table& table);
/// The built-in (or --data) table.
Result<ExchangeRates> load_rates();

struct Money {
  double amount = 0;
  std::string currency = "USD";
};
/// "1500", "1500USD", "7000 CNY", "7000cny", "$1500", "€900", "¥7000" (yen sign read as CNY).
/// Rejects negatives, zero, non-numbers and unknown currencies (listing the known ones).
Result<Money> parse_money(std::string_view text, const ExchangeRates& rates);
/// amount in USD.
Result<double> to_usd(const Money& money, const ExchangeRates& rates);

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
  double usd_per_hour = 0;               ///< per GPU-hour
  std::optional<double> free_hours_per_week, session_hours;
  std::string requirements, steps, region, url, source, date;
};
Result<std::vector<Offer>> parse_offers(const csv::Table& table);
Result<std::vector<Offer>> load_offers();
/// Free first, then by price per GPU-hour; stable otherwise.
void sort_cheapest_first(std::vector<Offer>& offers);

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
};

/// The metric that matters for a goal, and its name; nullopt when the row lacks it.
std::optional<double> goal_metric(const catalog::GpuSpec& g, Goal goal, std::string* metric_name = nullptr);

/// Months until buying beats renting: price / (rent/h x hours/month - TDP kW x hours/month x tariff).
/// nullopt when renting costs no more than the power (buying never pays back) or the inputs are not positive.
std::optional<double> break_even_months(double price_usd, double rent_usd_per_hour, double hours_per_month,
                                        double tdp_w, double tariff_usd_per_kwh);

/// Ranks, explains and compares; `inventory` may be null (nothing known about this machine).
Advice advise(const Request& request, const std::vector<catalog::GpuSpec>& gpus, const std::vector<Offer>& offers,
              const Inventory* inventory);

}  // namespace gpuscout::advise
