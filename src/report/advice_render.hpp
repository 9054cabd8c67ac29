#pragma once
/// `gpuscout advise` as text and JSON. Formats only: the ranking, rentals and break-even come from
/// advise::advise. Money is USD (`*_usd`, "$1500"; rentals "$0.35/h" per GPU-hour), memory in bytes in JSON
/// (`need_bytes`, `memory_total_bytes`) and GiB in text. The text renderer returns the whole output.
#include <string>
#include <string_view>

#include "advise/advise.hpp"
#include "inventory/json.hpp"

namespace gpuscout::report {

/// Keys: catalogue_date, rates_date, prices_date, goal, need_bytes, need_basis, budget_usd (null: no budget),
/// recommendations [{name, memory_total_bytes, price_usd, price_basis, metric, metric_name, score, reasons}],
/// rent [{platform, offer, gpu, usd_per_hour}], break_even_months (null: never pays back), break_even, notes,
/// warnings.
Json advice_json(const advise::Advice& advice);
/// Sections: the header (goal, dates), memory need, budget, "Buy, best value first" (each card with its
/// reasons), "Rent instead", "Buy or rent", "Notes" and "Traps" (the last three only when not empty).
/// `budget_text` is the budget as the user wrote it ("7000CNY"), shown beside its USD value.
std::string render_advice_text(const advise::Advice& advice, std::string_view budget_text);

}  // namespace gpuscout::report
