/* The CUDA plugin's arithmetic, kept apart from CUDA so the host's unit tests can check it without a GPU
 * (tests/unit/bench_plugin_rules_test.cpp): the size fallback after an out-of-memory, how many back-to-back calls
 * one timing sample holds, the driver/runtime compatibility rule and the note that says why n shrank.
 * Header-only C++17 (nvcc builds the plugin as C++17); nothing here calls CUDA. */
#ifndef GPUSCOUT_CUDA_PLUGIN_RULES_H
#define GPUSCOUT_CUDA_PLUGIN_RULES_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>

namespace gpuscout_plugin {

inline size_t round_down(size_t v, size_t m) { return std::max(m, v / m * m); }

/* fp8 GEMMs (cuBLASLt) need every dimension a multiple of 16; the others run any n. */
inline int gemm_multiple(bool fp8) { return fp8 ? 16 : 1; }

/* Bytes of one GEMM of size n with `sets` rotating input pairs: sets x (A, B) + C + 64 MiB of headroom for
 * cuBLAS's workspace and the check buffers. */
inline size_t gemm_bytes(int n, int sets, size_t in_size, size_t out_size) {
  const size_t nn = static_cast<size_t>(n) * static_cast<size_t>(n);
  return static_cast<size_t>(sets) * 2 * nn * in_size + nn * out_size + (size_t{64} << 20);
}

/* The size and input-set count a GEMM starts with: shrinks n by 3/4 steps until one set fits in 90% of the free
 * memory, then takes as many sets (<= 8) as make the inputs 3 x L2 and still fit. */
struct GemmShape {
  int n = 0;
  int sets = 1;
};

inline GemmShape plan_gemm(int n_asked, bool fp8, size_t free_bytes, size_t l2_bytes, size_t in_size,
                           size_t out_size) {
  GemmShape s;
  const size_t multiple = static_cast<size_t>(gemm_multiple(fp8));
  s.n = static_cast<int>(round_down(static_cast<size_t>(n_asked), multiple));
  const size_t budget = free_bytes / 10 * 9;
  while (s.n > 256 && gemm_bytes(s.n, 1, in_size, out_size) > budget)
    s.n = static_cast<int>(round_down(static_cast<size_t>(s.n) * 3 / 4, 256));
  const size_t nn = static_cast<size_t>(s.n) * static_cast<size_t>(s.n);
  const size_t per_set = std::max<size_t>(1, 2 * nn * in_size);
  s.sets = static_cast<int>(std::min<size_t>(std::max<size_t>((3 * l2_bytes) / per_set + 1, 1), 8));
  while (s.sets > 1 && gemm_bytes(s.n, s.sets, in_size, out_size) > budget) --s.sets;
  return s;
}

/* The next try after an allocation failed: first a single input set, then half the size (a multiple of 256,
 * or of 16 for fp8), until n = 256. False when there is nothing smaller left to try. */
inline bool next_gemm_try(GemmShape& s, bool fp8) {
  if (s.sets > 1) {
    s.sets = 1;
    return true;
  }
  if (s.n <= 256) return false;
  s.n = static_cast<int>(round_down(static_cast<size_t>(s.n) / 2, fp8 ? 16 : 256));
  return true;
}

/* Allocates the GEMM's buffers through `try_alloc(element_count_per_matrix, sets)` (true when every buffer of that
 * size was allocated), shrinking per next_gemm_try after each failure. The element count is recomputed from the
 * current n on every try: the fallback is pointless if it asks for the old size again. False when even n = 256
 * does not fit. */
template <typename TryAlloc>
bool allocate_gemm(GemmShape& s, bool fp8, TryAlloc try_alloc) {
  for (;;) {
    const size_t nn = static_cast<size_t>(s.n) * static_cast<size_t>(s.n);
    if (try_alloc(nn, s.sets)) return true;
    if (!next_gemm_try(s, fp8)) return false;
  }
}

/* Why the GEMM ran another n than asked, or "" when it ran the size asked. fp8's rounding to a multiple of 16
 * is not a memory shortage. */
inline void size_note(char* out, size_t len, int n_ran, int n_asked, bool fp8) {
  if (!out || len == 0) return;
  out[0] = '\0';
  if (n_ran == n_asked) return;
  const int rounded = static_cast<int>(round_down(static_cast<size_t>(n_asked), static_cast<size_t>(gemm_multiple(fp8))));
  if (n_ran == rounded)
    std::snprintf(out, len, "ran n=%d instead of %d: fp8 GEMMs need a multiple of 16", n_ran, n_asked);
  else
    std::snprintf(out, len, "ran n=%d instead of %d: not enough free GPU memory", n_ran, n_asked);
}

/* Back-to-back calls per timing sample: enough that one sample lasts about target_s, so the host's launch cost
 * and the event resolution (about 0.5 us) vanish against it; at least 1, at most max_calls. call_s is the time
 * of one call measured in the warm-up. */
inline int calls_per_sample(double call_s, double target_s, int max_calls) {
  if (!(call_s > 0) || !(target_s > 0)) return 1;
  const double want = target_s / call_s;
  if (want >= max_calls) return std::max(1, max_calls);
  return std::max(1, static_cast<int>(want + 0.999999));
}

/* CUDA's minor-version compatibility: a runtime of CUDA X.y runs on any driver of CUDA X.0 or newer (R580 for
 * 13.x), so only the major versions are compared. Versions as cudaDriverGetVersion gives them (13000 = 13.0). */
inline bool driver_runs_runtime(int driver_version, int runtime_version) {
  if (driver_version <= 0) return false;
  return driver_version / 1000 >= runtime_version / 1000;
}

/* All-reduce bus bandwidth in GB/s, nccl-tests' definition (NVIDIA/nccl-tests, doc/PERFORMANCE.md): algorithm
 * bandwidth = bytes / time, bus bandwidth = algbw x 2(n-1)/n, the rate each rank's slowest link must carry in a ring,
 * so it compares with a link's speed whatever the rank count. 0 when not measurable. */
inline double allreduce_bus_gbs(double bytes, double seconds, int ranks) {
  if (!(seconds > 0) || !(bytes > 0) || ranks < 2) return 0;
  const double algbw = bytes / seconds / 1e9;
  return algbw * 2.0 * (ranks - 1) / ranks;
}

/* Rank r's input is r + 1 in every element, so the sum over n ranks is n(n+1)/2: exact in float32 far beyond any
 * GPU count, and a rank missing or counted twice changes it. */
inline float allreduce_input(int rank) { return static_cast<float>(rank + 1); }
inline float allreduce_expected(int ranks) { return static_cast<float>(ranks * (ranks + 1) / 2); }

/* The per-rank buffer size: the asked size (a multiple of 4 bytes), halved while send + receive buffers would take
 * more than half the smallest free memory of the ranks, down to 1 MiB. */
inline size_t allreduce_bytes(uint64_t asked, size_t min_free_bytes) {
  size_t size = round_down(static_cast<size_t>(asked), 4);
  while (size > (size_t{1} << 20) && 2 * size > min_free_bytes / 2) size = round_down(size / 2, 4);
  return size;
}

}  // namespace gpuscout_plugin

#endif /* GPUSCOUT_CUDA_PLUGIN_RULES_H */
