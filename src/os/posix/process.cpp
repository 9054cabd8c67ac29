#include "os/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio_ext.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "core/text.hpp"
#include "os/native.hpp"
#include "os/posix/children.hpp"

extern char** environ;

namespace gpuscout::os {
namespace {

constexpr size_t kMaxOutput = 16u << 20;

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

constexpr long long kPollSliceMs = 50;

bool make_pipe(int fds[2]) { return ::pipe2(fds, O_CLOEXEC) == 0; }

// spawn() and fork_call() make each child the leader of its own process group, so one signal to the group
// reaches whatever it started (python's multiprocessing, a driver's helper). Falls back to the leader alone
// where the group cannot be signalled.
void kill_group(pid_t pid) {
  if (::kill(-pid, SIGKILL) != 0) ::kill(pid, SIGKILL);
}

// Whether the leader has ended, without reaping it: while it is an unreaped zombie its pid (and so its
// group id) cannot be reused, which keeps kill_group() from reaching a stranger.
bool leader_exited(pid_t pid) {
  siginfo_t info{};
  if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) return errno == ECHILD;
  return info.si_pid == pid;
}

// Waits for the leader and returns its wait status.
int reap(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  return status;
}

// Every forked child, first thing (signals are blocked since before the fork): the leader of its own group, killed
// with the thread that forked it, gpuscout's stop handlers gone, the watcher's pipe closed.
void become_own_child(pid_t parent) {
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(4);  // the parent died before the line above took effect
  posix::reset_child_signals();
  if (const int lifeline = posix::lifeline_fd(); lifeline > 2) ::close(lifeline);
}

// Blocks every signal for the lifetime of the object: across a fork, so that neither side runs a handler in
// between (the child restores the mask itself, once its handlers are reset).
class SignalsBlocked {
 public:
  SignalsBlocked() {
    sigset_t all;
    sigfillset(&all);
    ::pthread_sigmask(SIG_SETMASK, &all, &old_);
  }
  ~SignalsBlocked() { restore(); }
  void restore() const { ::pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  SignalsBlocked(const SignalsBlocked&) = delete;
  SignalsBlocked& operator=(const SignalsBlocked&) = delete;

 private:
  sigset_t old_{};
};

// The forked side of fork_call: own process group, the payload on a descriptor above 2 that nothing else
// writes to, and fd 1 and fd 2 on the error pipe, so a library's printf can neither reach the user's
// terminal nor corrupt the payload.
[[noreturn]] void run_forked_child(const std::function<std::string()>& call, pid_t parent, const int out[2],
                                   const int err[2], const SignalsBlocked& blocked) {
  become_own_child(parent);
  blocked.restore();
  // The parent's unflushed stdio output was copied by fork; printing it again here would duplicate it.
  __fpurge(stdout);
  __fpurge(stderr);
  const int payload_fd = ::fcntl(out[1], F_DUPFD_CLOEXEC, 3);
  if (payload_fd < 0) ::_exit(4);
  if (const int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC); null_fd >= 0) {
    ::dup2(null_fd, 0);
    if (null_fd > 2) ::close(null_fd);
  }
  ::dup2(err[1], 1);
  ::dup2(err[1], 2);
  for (int fd : {out[0], err[0], out[1], err[1]})
    if (fd > 2) ::close(fd);
  const auto [payload, code] = native::run_catching(call);
  (void)native::write_payload(native::PayloadChannel{payload_fd}, payload);
  std::fflush(stdout);
  std::fflush(stderr);
  // _exit: the parent's atexit handlers and static destructors must not run twice.
  ::_exit(code);
}

}  // namespace

struct Child::State {
  int pid_ = -1;
  int out_fd_ = -1;
  int err_fd_ = -1;
  std::string mark_;  ///< the environment entry a started program and its descendants carry (empty: forked)
  /// Kills and reaps the group, then whatever carries the mark (what left the group with setsid).
  int end();
  std::chrono::steady_clock::time_point deadline_{};
  /// Reads both pipes until they close (true) or the deadline passes (false).
  bool drain_until_closed(ProcessResult& result);
  ~State();
};

Child::Child() = default;
Child::Child(std::unique_ptr<State> state) : state_(std::move(state)) {}
Child::Child(Child&&) noexcept = default;
Child& Child::operator=(Child&& other) noexcept {
  if (this != &other) state_ = std::move(other.state_);  // the old child (if any) is killed and reaped
  return *this;
}
Child::~Child() = default;
bool Child::started() const { return state_ && state_->pid_ > 0; }
int Child::pid() const { return state_ ? state_->pid_ : -1; }

int Child::State::end() {
  kill_group(pid_);
  const int status = reap(pid_);
  posix::child_reaped(pid_);
  pid_ = -1;
  if (!mark_.empty()) posix::kill_marked(mark_);
  return status;
}

Child::State::~State() {
  if (pid_ > 0) end();
  close_fd(out_fd_);
  close_fd(err_fd_);
}

bool Child::State::drain_until_closed(ProcessResult& result) {
  bool leader_done = false;
  while (out_fd_ >= 0 || err_fd_ >= 0) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline_) return false;
    if (!leader_done && leader_exited(pid_)) {
      // The leader is done; what it started and left holding our pipes would keep us waiting until the
      // deadline. Its output is already in the pipes.
      leader_done = true;
      kill_group(pid_);
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - now).count();
    pollfd fds[2];
    nfds_t n = 0;
    if (out_fd_ >= 0) fds[n++] = pollfd{out_fd_, POLLIN, 0};
    if (err_fd_ >= 0) fds[n++] = pollfd{err_fd_, POLLIN, 0};
    // Short slices, so a leader that exits while a helper keeps the pipes open is noticed promptly.
    const int rc = ::poll(fds, n, static_cast<int>(std::min<long long>(left, kPollSliceMs)) + 1);
    if (rc < 0 && errno == EINTR) continue;
    if (rc < 0) return true;
    for (nfds_t i = 0; i < n; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buffer[65536];
      const ssize_t got = ::read(fds[i].fd, buffer, sizeof buffer);
      std::string& sink = fds[i].fd == out_fd_ ? result.out : result.err;
      if (got > 0) {
        if (sink.size() < kMaxOutput) sink.append(buffer, static_cast<size_t>(got));
      } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
        if (fds[i].fd == out_fd_) close_fd(out_fd_);
        else close_fd(err_fd_);
      }
    }
  }
  return true;
}

ProcessResult Child::wait() {
  ProcessResult result;
  if (!state_ || state_->pid_ <= 0) return result;
  auto& pid_ = state_->pid_;
  auto& out_fd_ = state_->out_fd_;
  auto& err_fd_ = state_->err_fd_;
  const auto& deadline_ = state_->deadline_;
  // A leader that ended in time is not a timeout, even if something that left its group kept the pipes open.
  result.timed_out = !state_->drain_until_closed(result) && !leader_exited(pid_);
  // Output closed: the leader is exiting; give it until the deadline to end.
  while (!result.timed_out && !leader_exited(pid_)) {
    if (std::chrono::steady_clock::now() >= deadline_) result.timed_out = true;
    else ::usleep(500);
  }
  // Past the deadline the whole group goes; after a normal end, whatever it left running in its group
  // (a daemon that closed its pipes) goes too: a probe's helpers never outlive it.
  const int status = state_->end();
  if (WIFEXITED(status) && !result.timed_out) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  close_fd(out_fd_);
  close_fd(err_fd_);
  return result;
}

bool is_executable_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

std::optional<std::string> find_program(const std::string& name, std::string_view search_path) {
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string::npos) {
    if (is_executable_file(name)) return name;
    return std::nullopt;
  }
  for (auto dir : text::split(search_path, ':')) {
    if (dir.empty()) continue;
    std::string candidate = std::string(dir) + "/" + name;
    if (is_executable_file(candidate)) return candidate;
  }
  return std::nullopt;
}

std::optional<std::string> find_program(const std::string& name) {
  const char* path = std::getenv("PATH");
  return find_program(name, path ? path : "/usr/local/bin:/usr/bin:/bin");
}

namespace {

// What an exec'd child gets, built before the fork: between fork and exec it may only make system calls.
struct ExecImage {
  std::vector<std::string> args, env;
  std::vector<char*> argp, envp;
  ExecImage(const std::vector<std::string>& argv, const std::map<std::string, std::string>& extra_env,
            const std::string& mark)
      : args(argv) {
    for (char** e = environ; e && *e; ++e) {
      std::string_view entry(*e);
      const auto eq = entry.find('=');
      if (eq != std::string_view::npos && extra_env.count(std::string(entry.substr(0, eq)))) continue;
      env.emplace_back(entry);
    }
    for (const auto& [k, v] : extra_env) env.push_back(k + "=" + v);
    env.push_back(mark);
    for (auto& a : args) argp.push_back(a.data());
    argp.push_back(nullptr);
    for (auto& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
  }
};

// The forked side of spawn. fork and exec rather than posix_spawn: PR_SET_PDEATHSIG (kept across exec) needs code
// between the two. A failure is reported as errno on `report`, which closes unread on a successful exec.
[[noreturn]] void exec_child(const std::string& program, const ExecImage& image, pid_t parent, int out, int err,
                             int report, const SignalsBlocked& blocked) {
  become_own_child(parent);
  const int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (null_fd >= 0 && ::dup2(null_fd, 0) >= 0 && ::dup2(out, 1) >= 0 && ::dup2(err, 2) >= 0) {
    blocked.restore();
    ::execve(program.c_str(), image.argp.data(), image.envp.data());
  }
  const int code = errno;
  (void)!::write(report, &code, sizeof code);
  ::_exit(127);
}

}  // namespace

Result<Child> spawn(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                    const std::map<std::string, std::string>& extra_env) {
  if (argv.empty()) return fail("spawn: empty argument vector");
  const auto program = find_program(argv[0]);
  if (!program) return fail(fmt::format("{}: not found in PATH", argv[0]));
  std::string mark = posix::next_child_mark();
  const ExecImage image(argv, extra_env, mark);

  int out[2], err[2], report[2];
  if (!make_pipe(out)) return fail(fmt::format("pipe: {}", std::strerror(errno)));
  if (!make_pipe(err)) {
    ::close(out[0]);
    ::close(out[1]);
    return fail(fmt::format("pipe: {}", std::strerror(errno)));
  }
  if (!make_pipe(report)) {
    for (int fd : {out[0], out[1], err[0], err[1]}) ::close(fd);
    return fail(fmt::format("pipe: {}", std::strerror(errno)));
  }
  const pid_t parent = ::getpid();
  pid_t pid = -1;
  {
    const SignalsBlocked blocked;
    pid = ::fork();
    if (pid == 0) exec_child(*program, image, parent, out[1], err[1], report[1], blocked);
    if (pid > 0) {
      ::setpgid(pid, pid);  // also here, so a kill of the group right after fork cannot miss it
      posix::child_started(pid);
    }
  }
  const int fork_errno = errno;
  for (int fd : {out[1], err[1], report[1]}) ::close(fd);
  if (pid < 0) {
    for (int fd : {out[0], err[0], report[0]}) ::close(fd);
    return fail(fmt::format("fork: {}", std::strerror(fork_errno)));
  }
  int exec_errno = 0;
  ssize_t got;
  while ((got = ::read(report[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR) {}
  ::close(report[0]);
  auto state = std::make_unique<Child::State>();
  state->pid_ = pid;
  state->out_fd_ = out[0];
  state->err_fd_ = err[0];
  state->mark_ = std::move(mark);
  state->deadline_ = std::chrono::steady_clock::now() + timeout;
  if (got == static_cast<ssize_t>(sizeof exec_errno)) {
    state->end();
    return fail(fmt::format("{}: cannot start: {}", *program, std::strerror(exec_errno)));
  }
  return Child(std::move(state));
}

Result<ProcessResult> run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                          const std::map<std::string, std::string>& extra_env) {
  auto child = spawn(argv, timeout, extra_env);
  if (!child) return std::unexpected(child.error());
  return child->wait();
}

Result<Child> fork_call(const std::function<std::string()>& call, std::chrono::milliseconds timeout) {
  int out[2], err[2];
  if (!make_pipe(out)) return fail(fmt::format("pipe: {}", std::strerror(errno)));
  if (!make_pipe(err)) {
    ::close(out[0]);
    ::close(out[1]);
    return fail(fmt::format("pipe: {}", std::strerror(errno)));
  }
  const pid_t parent = ::getpid();
  pid_t pid = -1;
  {
    const SignalsBlocked blocked;
    pid = ::fork();
    if (pid == 0) run_forked_child(call, parent, out, err, blocked);
    if (pid > 0) {
      // Also here, so a kill of the group right after fork cannot miss a child that has not run yet.
      ::setpgid(pid, pid);
      posix::child_started(pid);
    }
  }
  if (pid < 0) {
    const int fork_errno = errno;
    for (int fd : {out[0], out[1], err[0], err[1]}) ::close(fd);
    return fail(fmt::format("fork: {}", std::strerror(fork_errno)));
  }
  ::close(out[1]);
  ::close(err[1]);
  auto state = std::make_unique<Child::State>();
  state->pid_ = pid;
  state->out_fd_ = out[0];
  state->err_fd_ = err[0];
  state->deadline_ = std::chrono::steady_clock::now() + timeout;
  return Child(std::move(state));
}

}  // namespace gpuscout::os

namespace gpuscout::os {

Result<Child> call_isolated(const std::string& name, const std::string& argument, std::chrono::milliseconds timeout) {
  const IsolatedFunction function = find_isolated(name);
  if (!function) return fail("no isolated call named " + name);
  // fork keeps working for programs that link the library and never see run_isolated_if_asked.
  return fork_call([function, argument] { return function(argument); }, timeout);
}

namespace native {

PayloadChannel open_payload_channel() {
  std::fflush(stdout);
  const int saved = ::fcntl(1, F_DUPFD_CLOEXEC, 3);
  ::dup2(2, 1);
  return PayloadChannel{saved};
}

bool write_payload(const PayloadChannel& channel, const std::string& payload) {
  if (channel.handle < 0) return false;
  const int fd = static_cast<int>(channel.handle);
  size_t written = 0;
  while (written < payload.size()) {
    const ssize_t n = ::write(fd, payload.data() + written, payload.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace native
}  // namespace gpuscout::os
