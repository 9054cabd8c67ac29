// The process-lifetime policy on Windows (os/lifetime.hpp). Every child runs in a job object that kills it with
// its tree when the job's last handle closes, which the system does when gpuscout ends, however it ends; so the
// handlers here only give a command's stop hook its say. Ctrl-C reaches the console's children by itself.
#include "os/lifetime.hpp"

#include <atomic>
#include <csignal>

namespace gpuscout::os {
namespace {

constinit std::atomic<int> g_signal{0};
constinit std::atomic<StopHook> g_hook{nullptr};

void on_stop_signal(int signal) {
  g_signal.store(signal);
  std::signal(signal, SIG_DFL);  // a second signal of the kind ends gpuscout at once
  if (const StopHook hook = g_hook.load(); hook && hook(signal)) return;
  std::raise(signal);
}

}  // namespace

void guard_children() {
  for (int signal : {SIGINT, SIGTERM}) std::signal(signal, on_stop_signal);
}

ScopedStopHook::ScopedStopHook(StopHook hook) : previous_(g_hook.exchange(hook)) {}
ScopedStopHook::~ScopedStopHook() { g_hook.store(previous_); }

int stop_signal() { return g_signal.load(); }

}  // namespace gpuscout::os
