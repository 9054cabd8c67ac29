#include "plan/precision_choice.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace gpuscout::plan {

SixteenBit choose_sixteen_bit(const std::vector<GpuCapacity>& gpus) {
  const GpuCapacity* without_bf16 = nullptr;
  const GpuCapacity* known = nullptr;
  for (const auto& g : gpus) {
    if (!g.precision) continue;
    if (!known) known = &g;
    // "unknown" bf16 is not "no": only a sourced absence moves the plan to fp16.
    if (g.precision->bf16 == catalog::Support::no && !without_bf16) without_bf16 = &g;
  }
  if (without_bf16) {
    const auto& p = *without_bf16->precision;
    std::string reason = fmt::format("fp16, because {} ({}) has no bf16", without_bf16->name, p.basis);
    if (p.fp16 == catalog::Support::slow)
      reason += "; fp16 arithmetic is slow on this card, so 16-bit saves memory but not time";
    return {"fp16", reason, true};
  }
  if (known) {
    const bool all = std::ranges::all_of(gpus, [](const GpuCapacity& g) { return g.precision.has_value(); });
    const std::string name = gpus.size() == 1 || !all ? known->name : "every GPU here";
    return {"bf16", fmt::format("bf16, which {} runs natively ({})", name, known->precision->basis), true};
  }
  return {"bf16",
          gpus.empty() ? "" : "bf16 assumed: the card's number formats are not known; cards without bf16 "
                              "(T4, V100, P100, GTX 10/16, RTX 20) use fp16, which needs the same memory",
          false};
}

}  // namespace gpuscout::plan
