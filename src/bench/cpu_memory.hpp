#pragma once
/// Memory bandwidth, STREAM style: copy (a = b, 2 x 8 bytes per element counted) and triad
/// (a = b + s c, 3 x 8 bytes), fp64 arrays far larger than the last-level cache, one thread per core.
#include <cstdint>

#include "bench/harness.hpp"

namespace gpuscout::bench {

struct MemoryRun {
  uint64_t array_bytes = 0;
  int threads = 1;
  Measurement copy;
  Measurement triad;
  double copy_gbs = 0;   ///< 1e9 bytes per second
  double triad_gbs = 0;
  bool verified = false;
};

/// Array size: max(4 x LLC, min_bytes), capped at available/8 (three arrays fit with room to spare).
uint64_t memory_array_bytes(uint64_t llc_bytes, uint64_t min_bytes, uint64_t available_bytes);

MemoryRun run_memory(uint64_t array_bytes, int threads, const Method& method);

}  // namespace gpuscout::bench
