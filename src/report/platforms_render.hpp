#pragma once
/// `gpuscout platforms` as text and JSON. Formats only: the offers arrive filtered and in order
/// (advise::sort_cheapest_first). Prices are USD per GPU-hour, free hours per week and session lengths in hours,
/// memory per GPU in bytes in JSON and GiB in text. The prices date is the newest offer's date ("" when none).
/// The text renderer returns the whole output.
#include <string>
#include <string_view>
#include <vector>

#include "advise/advise.hpp"
#include "inventory/inventory.hpp"
#include "inventory/json.hpp"

namespace gpuscout::report {

/// `here`: this machine (or a saved one) when known, else null. In Colab or Kaggle it names the place and its
/// GPUs ("where"); elsewhere "where" is null. Keys: prices_date, where, platform_kind (null without `here`),
/// options [{kind, provider, offer, gpu, gpu_count, memory_bytes, usd_per_hour, free_hours_per_week,
/// session_hours, limits, requirements, steps, url, date}].
Json platforms_json(const std::vector<advise::Offer>& offers, const Inventory* here);
/// A header with the prices date, "Here: ..." in Colab or Kaggle, then one block per offer ("FREE" or
/// "$0.35/h", provider, offer, memory; limits, needs and steps when known).
/// `display` carries the currency signs for prices published in a local currency (CNY rows show "¥2.00-2.80/h");
/// `region` "cn" says China comes first. Each offer shows its date; a note (Colab and Kaggle need Google access).
std::string render_platforms_text(const std::vector<advise::Offer>& offers, const Inventory* here,
                                  const advise::Display& display = {}, std::string_view region = "global");

}  // namespace gpuscout::report
