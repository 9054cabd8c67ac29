#pragma once
/// Child processes, always with an argument vector (never a shell) and always with a deadline.
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace gpuscout::os {

struct ProcessResult {
  int exit_code = -1;     ///< exit status, or -1 when killed by a signal or the deadline
  int signal = 0;         ///< signal that ended it, if any
  bool timed_out = false; ///< the deadline passed and the child was killed
  std::string out;        ///< standard output (capped)
  std::string err;        ///< standard error (capped)
};

/// A started child whose output is collected later, so several probes can run at once.
/// The child leads its own process group, and the group is what gets killed: at the deadline, when the
/// Child is destroyed unwaited, and, once the leader has ended, whatever it left running in the group.
/// So `sh -c 'sleep 100 &'` or a driver's helper process never outlives the probe.
class Child {
 public:
  Child();
  Child(Child&&) noexcept;
  Child& operator=(Child&&) noexcept;
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child();  ///< kills (the whole group) and reaps a child that was never waited for

  /// Waits until the child exits or the deadline (measured from start) passes, then kills its group.
  ProcessResult wait();
  bool started() const;
  /// The child's process id, which on POSIX is also its process group id (-1 once waited for): lets a signal
  /// handler stop the group at once.
  int pid() const;

  /// What the running child is, per operating system (os/posix/process.cpp, os/windows/process.cpp).
  struct State;
  explicit Child(std::unique_ptr<State> state);

 private:
  std::unique_ptr<State> state_;
};

/// Starts argv[0] (looked up in PATH when it has no '/') with extra environment variables.
/// Stdin is /dev/null. Fails when the program cannot be started. The child and what it starts live under
/// os/lifetime.hpp's policy: its group is killed on a stop signal, and on POSIX it dies with the thread that
/// started it (PR_SET_PDEATHSIG: start children from a thread that outlives them) and carries the run's mark.
Result<Child> spawn(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                    const std::map<std::string, std::string>& extra_env = {});
/// spawn() then wait().
Result<ProcessResult> run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                          const std::map<std::string, std::string>& extra_env = {});

#ifndef _WIN32
/// Runs `call` in a forked child and returns what it returned, through a pipe of its own, as the result's
/// `out`. Whatever the child prints on its fd 1 and fd 2 (a driver's printf or error message) is the
/// result's `err`, never the user's terminal and never mixed into `out`. A thrown exception becomes exit
/// code 3 with `out` = "exception: <what>". The child dies with the thread that forked it (PR_SET_PDEATHSIG),
/// so Ctrl-C on gpuscout does not leave a hung driver call behind.
/// Isolates code that can hang or crash (a wedged driver, a stale NFS mount) from the report.
Result<Child> fork_call(const std::function<std::string()>& call, std::chrono::milliseconds timeout);
#endif

/// A call that can hang or crash (a driver's, a dead file server's), run isolated in a child by name, so that it
/// works the same on every system: forked on POSIX (as fork_call), and on Windows, which cannot fork, gpuscout
/// re-runs its own executable with a hidden first argument that run_isolated_if_asked answers. The child's
/// payload comes back as the result's `out`, anything else it prints as `err`; a thrown exception is exit code 3
/// with `out` = "exception: <what>".
using IsolatedFunction = std::string (*)(const std::string& argument);
/// Registers `function` under `name` (at static initialisation, by the module that owns the call).
bool register_isolated(const char* name, IsolatedFunction function);
Result<Child> call_isolated(const std::string& name, const std::string& argument, std::chrono::milliseconds timeout);
/// The hidden first argument of an isolated child (Windows).
inline constexpr const char* kIsolatedChildFlag = "--gpuscout-isolated-child";
/// For main(), first thing: when the arguments ask for an isolated call, runs it, writes its payload and returns
/// the exit code to end with; nullopt for an ordinary run. A program that links libgpuscout on Windows calls it too.
std::optional<int> run_isolated_if_asked(const std::vector<std::string>& args);

/// Looks a program up in PATH (or checks an explicit path); nullopt when not executable.
std::optional<std::string> find_program(const std::string& name);
/// The same over the folders of `search_path` (colon-separated, as $PATH), for a PATH that is not this process's.
std::optional<std::string> find_program(const std::string& name, std::string_view search_path);
/// An existing regular file (after links) that this user may execute: a folder is not a program.
bool is_executable_file(const std::string& path);

}  // namespace gpuscout::os
