#pragma once
/// The memory a CUDA context with PyTorch loaded takes on a GPU, by architecture and by inference or training, from
/// data/cuda_context.csv (the "*" row for an architecture nobody measured).
#include <cstdint>
#include <string>
#include <string_view>

namespace gpuscout::plan {

/// Bytes per GPU for a card of `architecture` ("Hopper"; "" when no card is known).
uint64_t cuda_context_bytes(std::string_view architecture, bool training);

/// The table's load error, "" when it loaded (for --data checks).
std::string cuda_context_error();

}  // namespace gpuscout::plan
