#pragma once
/// The measuring method every benchmark shares: warm-up runs excluded (the first call's time kept apart,
/// because it is what a naive one-shot timing measures), then repeats until both a minimum count and a time
/// budget are reached, then median and spread. Times are seconds (steady clock, or CUDA events in the plugin).
#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace gpuscout::bench {

struct Method {
  int warmup = 1;
  int min_repeats = 3;
  int max_repeats = 50;
  double budget_s = 0.5;  ///< measured time after warm-up to reach before stopping
};

struct Stats {
  double median_s = 0;
  double min_s = 0;
  double max_s = 0;
  double spread_pct = 0;  ///< 100 x (max - min) / median over the kept samples
};

struct Measurement {
  double first_call_s = 0;         ///< the first warm-up run (0 when there was no warm-up)
  int warmups = 0;
  std::vector<double> samples_s;   ///< every measured run, in order
  Stats stats;
};

/// Median, min, max, spread of samples (all zero when empty). Pure.
Stats summarize(std::span<const double> samples_s);

/// Runs `run` per Method and times each call. Stops early (fewer samples) when stop_requested().
Measurement measure(const std::function<void()>& run, const Method& method);
/// The same, for a run that times itself and returns its seconds (threads released together, events).
Measurement measure_self_timed(const std::function<double()>& run, const Method& method);

/// Set from the SIGINT handler; every loop polls it so Ctrl-C ends a benchmark within one repeat.
std::atomic<bool>& stop_flag();
inline bool stop_requested() { return stop_flag().load(std::memory_order_relaxed); }

/// Thrown out of a benchmark when stop_requested(): nothing partial is reported or saved.
struct Interrupted {};
void throw_if_stopped();

/// Async-signal-safe: records `signal` and sets stop_flag(). (The signal handler has already killed every child,
/// the GPU child among them, so a hung driver cannot delay the exit: os/lifetime.hpp.)
void request_stop(int signal);
/// bench's os::StopHook: request_stop(), and bench ends by itself (128 + signal, nothing saved).
bool stop_on_signal(int signal);
/// The signal request_stop() recorded; 0 when none.
int stop_signal();
/// Clears stop_flag() and stop_signal() before a run.
void reset_stop();

/// Fills with uniform values in [-1, 1) from a fixed seed (splitmix64): random, never zeros, reproducible.
void fill_random(std::span<float> out, uint64_t seed);
void fill_random(std::span<double> out, uint64_t seed);

}  // namespace gpuscout::bench
