#pragma once
/// The one process-lifetime policy for every child gpuscout starts (a driver probe, Python, srun, pdsh, ssh, nvcc):
/// nothing it started outlives it, whatever ends it.
///
/// - SIGINT, SIGTERM and SIGHUP (Ctrl-C, `kill`, a closed terminal): every running child's process group is killed
///   and reaped, then gpuscout ends by the same signal, unless a command's stop hook takes over (bench unwinds its
///   loops and says "nothing saved"). A second signal of the same kind ends gpuscout at once.
/// - A child that left its group (`setsid`, a daemon's double fork) is still found: every started program carries a
///   mark in its environment, inherited by whatever it starts (the mark build systems use to find a job's
///   processes), and the processes that carry it are killed when the child is waited for, on a signal and at exit.
/// - SIGKILL of gpuscout, or a crash: each child has PR_SET_PDEATHSIG, and a small watcher process (started with
///   the first program) sees gpuscout's end on a pipe and kills whatever carries the run's mark.
/// On Windows every child runs in a job object that the system ends with gpuscout; the hook works the same.
namespace gpuscout::os {

/// A command's own answer to a stop signal, called from the signal handler after the children are gone (so only
/// async-signal-safe work: set a flag). Returns true when the command stops by itself and ends 128+signal.
using StopHook = bool (*)(int signal);

/// Installs the policy's signal handlers; main() calls it once, before any command runs. A signal the parent
/// ignored (nohup's SIGHUP) stays ignored.
void guard_children();

/// Installs `hook` for this object's lifetime.
class ScopedStopHook {
 public:
  explicit ScopedStopHook(StopHook hook);
  ~ScopedStopHook();
  ScopedStopHook(const ScopedStopHook&) = delete;
  ScopedStopHook& operator=(const ScopedStopHook&) = delete;

 private:
  StopHook previous_;
};

/// The stop signal that arrived, 0 when none.
int stop_signal();

}  // namespace gpuscout::os
