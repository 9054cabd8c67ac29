#pragma once
/// The 16-bit format a plan defaults to, from the cards it is for: bf16 only where every card runs it natively,
/// else fp16 (training then needs loss scaling). fit, advise and the report ask here, so they agree.
#include <vector>

#include "plan/estimate.hpp"
#include "plan/workload.hpp"

namespace gpuscout::plan {

/// bf16 when every card with known formats has bf16; fp16 when one has not (with a word when fp16 is slow there);
/// bf16 with a reason saying it was assumed when no card's formats are known (or `gpus` is empty).
SixteenBit choose_sixteen_bit(const std::vector<GpuCapacity>& gpus);

}  // namespace gpuscout::plan
