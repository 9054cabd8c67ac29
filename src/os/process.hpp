#pragma once
/// Child processes, always with an argument vector (never a shell) and always with a deadline.
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
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
class Child {
 public:
  Child() = default;
  Child(Child&&) noexcept;
  Child& operator=(Child&&) noexcept;
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child();  ///< kills and reaps a child that was never waited for

  /// Waits until the child exits or the deadline (measured from start) passes, then kills it.
  ProcessResult wait();
  bool started() const { return pid_ > 0; }

 private:
  friend Result<Child> spawn(const std::vector<std::string>&, std::chrono::milliseconds,
                             const std::map<std::string, std::string>&);
  friend Result<Child> fork_call(const std::function<std::string()>&, std::chrono::milliseconds);
  int pid_ = -1;
  int out_fd_ = -1;
  int err_fd_ = -1;
  std::chrono::steady_clock::time_point deadline_{};
};

/// Starts argv[0] (looked up in PATH when it has no '/') with extra environment variables.
/// Stdin is /dev/null. Fails when the program cannot be started.
Result<Child> spawn(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                    const std::map<std::string, std::string>& extra_env = {});
/// spawn() then wait().
Result<ProcessResult> run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                          const std::map<std::string, std::string>& extra_env = {});

/// Runs `call` in a forked child and returns what it returned, through a pipe, as the child's stdout.
/// Isolates code that can hang or crash (a wedged driver, a stale NFS mount) from the report.
Result<Child> fork_call(const std::function<std::string()>& call, std::chrono::milliseconds timeout);

/// Looks a program up in PATH (or checks an explicit path); nullopt when not executable.
std::optional<std::string> find_program(const std::string& name);

}  // namespace gpuscout::os
