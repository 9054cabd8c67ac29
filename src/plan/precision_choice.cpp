#include "plan/precision_choice.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/i18n.hpp"

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
    const std::string reason =
        p.fp16 == catalog::Support::slow
            ? trf("fp16, because {} ({}) has no bf16; fp16 arithmetic is slow on this card, so 16-bit saves memory "
                  "but not time",
                  without_bf16->name, p.basis)
            : trf("fp16, because {} ({}) has no bf16", without_bf16->name, p.basis);
    return {"fp16", reason, true};
  }
  if (known) {
    const bool all = std::ranges::all_of(gpus, [](const GpuCapacity& g) { return g.precision.has_value(); });
    if (gpus.size() == 1 || !all)
      return {"bf16", trf("bf16, which {} runs natively ({})", known->name, known->precision->basis), true};
    return {"bf16", trf("bf16, which every GPU here runs natively ({})", known->precision->basis), true};
  }
  return {"bf16",
          gpus.empty() ? "" : tr("bf16 assumed: the card's number formats are not known; cards without bf16 "
                                 "(T4, V100, P100, GTX 10/16, RTX 20) use fp16, which needs the same memory"),
          false};
}

}  // namespace gpuscout::plan
