#include "bench/harness.hpp"

#include <signal.h>

#include <algorithm>
#include <chrono>

namespace gpuscout::bench {

Stats summarize(std::span<const double> samples_s) {
  Stats s;
  if (samples_s.empty()) return s;
  std::vector<double> v(samples_s.begin(), samples_s.end());
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  s.median_s = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  s.min_s = v.front();
  s.max_s = v.back();
  s.spread_pct = s.median_s > 0 ? 100.0 * (s.max_s - s.min_s) / s.median_s : 0.0;
  return s;
}

std::atomic<bool>& stop_flag() {
  static std::atomic<bool> flag{false};
  return flag;
}

void throw_if_stopped() {
  if (stop_requested()) throw Interrupted{};
}

namespace {
// Plain lock-free atomics with constant initialisation: safe to touch from a signal handler.
constinit std::atomic<int> g_stop_signal{0};
static_assert(std::atomic<int>::is_always_lock_free);
}  // namespace

void request_stop(int signal) {
  g_stop_signal.store(signal);
  stop_flag().store(true);
}

bool stop_on_signal(int signal) {
  request_stop(signal);
  return true;
}

int stop_signal() { return g_stop_signal.load(); }

void reset_stop() {
  g_stop_signal.store(0);
  stop_flag().store(false);
}


Measurement measure_self_timed(const std::function<double()>& run, const Method& method) {
  Measurement m;
  for (int i = 0; i < method.warmup; ++i) {
    throw_if_stopped();
    const double dt = run();
    if (i == 0) m.first_call_s = dt;
    ++m.warmups;
  }
  double total = 0;
  while (static_cast<int>(m.samples_s.size()) < std::max(1, method.max_repeats)) {
    if (static_cast<int>(m.samples_s.size()) >= method.min_repeats && total >= method.budget_s) break;
    throw_if_stopped();
    const double dt = run();
    m.samples_s.push_back(dt);
    total += dt;
  }
  m.stats = summarize(m.samples_s);
  return m;
}

Measurement measure(const std::function<void()>& run, const Method& method) {
  return measure_self_timed(
      [&run] {
        const auto t0 = std::chrono::steady_clock::now();
        run();
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      },
      method);
}

namespace {
uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
// 53 random bits -> [0, 1) -> [-1, 1); exact zero has probability 2^-53.
double uniform_pm1(uint64_t& state) {
  return static_cast<double>(splitmix64(state) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}
}  // namespace

void fill_random(std::span<float> out, uint64_t seed) {
  uint64_t state = seed;
  for (float& x : out) x = static_cast<float>(uniform_pm1(state));
}

void fill_random(std::span<double> out, uint64_t seed) {
  uint64_t state = seed;
  for (double& x : out) x = uniform_pm1(state);
}

}  // namespace gpuscout::bench
