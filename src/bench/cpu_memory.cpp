#include "bench/cpu_memory.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

namespace gpuscout::bench {

uint64_t memory_array_bytes(uint64_t llc_bytes, uint64_t min_bytes, uint64_t available_bytes) {
  uint64_t bytes = std::max(4 * llc_bytes, min_bytes);
  if (available_bytes > 0) bytes = std::min(bytes, available_bytes / 8);
  bytes = std::max<uint64_t>(bytes, 1 << 20);
  return bytes / 64 * 64;
}

namespace {

// Each thread owns one slice [begin, end); threads are released together and the sample is the wall
// time until the last one ends.
template <typename Body>
double parallel_slices(size_t count, int threads, Body body) {
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    const size_t begin = count * static_cast<size_t>(t) / static_cast<size_t>(threads);
    const size_t end = count * static_cast<size_t>(t + 1) / static_cast<size_t>(threads);
    pool.emplace_back([&, begin, end] {
      ready.fetch_add(1);
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      body(begin, end);
    });
  }
  while (ready.load() < threads) std::this_thread::yield();
  const auto t0 = std::chrono::steady_clock::now();
  go.store(true, std::memory_order_release);
  for (auto& th : pool) th.join();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

MemoryRun run_memory(uint64_t array_bytes, int threads, const Method& method) {
  MemoryRun r;
  r.threads = std::max(1, threads);
  const size_t count = array_bytes / sizeof(double);
  r.array_bytes = count * sizeof(double);
  // Uninitialised allocations, first touched by the thread that will use each slice (NUMA placement).
  std::unique_ptr<double[]> a(new double[count]), b(new double[count]), c(new double[count]);
  double* pa = a.get();
  double* pb = b.get();
  double* pc = c.get();
  parallel_slices(count, r.threads, [&](size_t begin, size_t end) {
    fill_random(std::span<double>(pb + begin, end - begin), 11 + begin);
    fill_random(std::span<double>(pc + begin, end - begin), 13 + begin);
    std::memcpy(pa + begin, pb + begin, (end - begin) * sizeof(double));
  });
  r.copy = measure_self_timed([&] {
    return parallel_slices(count, r.threads, [&](size_t begin, size_t end) {
      std::memcpy(pa + begin, pb + begin, (end - begin) * sizeof(double));
    });
  }, method);
  bool ok = true;
  for (size_t i = 0; i < count; i += count / 97 + 1) ok = ok && pa[i] == pb[i];
  const double s = 0.5;
  r.triad = measure_self_timed([&] {
    return parallel_slices(count, r.threads, [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) pa[i] = pb[i] + s * pc[i];
    });
  }, method);
  for (size_t i = 0; i < count; i += count / 89 + 1) ok = ok && pa[i] == pb[i] + s * pc[i];
  r.verified = ok;
  const double bytes = static_cast<double>(r.array_bytes);
  r.copy_gbs = r.copy.stats.median_s > 0 ? 2 * bytes / r.copy.stats.median_s / 1e9 : 0;
  r.triad_gbs = r.triad.stats.median_s > 0 ? 3 * bytes / r.triad.stats.median_s / 1e9 : 0;
  return r;
}

}  // namespace gpuscout::bench
