#pragma once
/// What os/posix/process.cpp and os/posix/atomic_write.cpp tell the lifetime policy (os/posix/lifetime.cpp).
/// Everything here is async-signal-safe unless it says otherwise.
#include <cstdint>
#include <string>

namespace gpuscout::os::posix {

/// A started child (the leader of its own process group) until it is reaped. If a stop signal already came,
/// the group is killed at once: a signal between fork and this call found nothing to kill.
void child_started(int pid);
void child_reaped(int pid);

/// The environment entry ("NAME=1") that marks the next program gpuscout starts and everything it starts; starts
/// the watcher on first use. Not async-signal-safe: call before fork.
std::string next_child_mark();
/// Kills every process whose environment has `mark` (an entry from next_child_mark()), repeatedly, until a pass
/// finds none (bounded). Returns how many were killed.
int kill_marked(const std::string& mark);

/// The watcher's pipe end, which a forked child closes so that only gpuscout keeps it open (-1 when none).
int lifeline_fd();
/// Resets the policy's handlers to the default in a freshly forked child (before exec or the child's call).
void reset_child_signals();

/// 64 bits nobody can guess (the run's mark, temporary file names). Not async-signal-safe.
uint64_t random_u64();

/// The temporary file an atomic write is filling, removed if a signal ends gpuscout (nullptr: none). The path is
/// copied; one at a time.
void set_temporary(const char* path);

}  // namespace gpuscout::os::posix
