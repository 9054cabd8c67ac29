#include "os/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "core/text.hpp"

extern char** environ;

namespace gpuscout::os {
namespace {

constexpr size_t kMaxOutput = 16u << 20;

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

bool make_pipe(int fds[2]) { return ::pipe2(fds, O_CLOEXEC) == 0; }

}  // namespace

Child::Child(Child&& other) noexcept { *this = std::move(other); }

Child& Child::operator=(Child&& other) noexcept {
  if (this != &other) {
    this->~Child();
    pid_ = other.pid_;
    out_fd_ = other.out_fd_;
    err_fd_ = other.err_fd_;
    deadline_ = other.deadline_;
    other.pid_ = -1;
    other.out_fd_ = other.err_fd_ = -1;
  }
  return *this;
}

Child::~Child() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
  }
  close_fd(out_fd_);
  close_fd(err_fd_);
}

ProcessResult Child::wait() {
  ProcessResult result;
  if (pid_ <= 0) return result;
  while (out_fd_ >= 0 || err_fd_ >= 0) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline_) {
      result.timed_out = true;
      break;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - now).count();
    pollfd fds[2];
    nfds_t n = 0;
    if (out_fd_ >= 0) fds[n++] = pollfd{out_fd_, POLLIN, 0};
    if (err_fd_ >= 0) fds[n++] = pollfd{err_fd_, POLLIN, 0};
    const int rc = ::poll(fds, n, static_cast<int>(std::min<long long>(left, 1000)) + 1);
    if (rc < 0 && errno == EINTR) continue;
    if (rc < 0) break;
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
  int status = 0;
  if (result.timed_out) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, &status, 0);
    result.signal = SIGKILL;
  } else {
    // Output closed: the child is exiting; give it until the deadline to be reaped.
    while (true) {
      const pid_t done = ::waitpid(pid_, &status, WNOHANG);
      if (done == pid_) break;
      if (done < 0 && errno != EINTR) break;
      if (std::chrono::steady_clock::now() >= deadline_) {
        result.timed_out = true;
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
        break;
      }
      ::usleep(500);
    }
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  }
  pid_ = -1;
  close_fd(out_fd_);
  close_fd(err_fd_);
  return result;
}

std::optional<std::string> find_program(const std::string& name) {
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string::npos) {
    if (::access(name.c_str(), X_OK) == 0) return name;
    return std::nullopt;
  }
  const char* path = std::getenv("PATH");
  for (auto dir : text::split(path ? path : "/usr/local/bin:/usr/bin:/bin", ':')) {
    if (dir.empty()) continue;
    std::string candidate = std::string(dir) + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

Result<Child> spawn(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                    const std::map<std::string, std::string>& extra_env) {
  if (argv.empty()) return fail("spawn: empty argument vector");
  const auto program = find_program(argv[0]);
  if (!program) return fail(fmt::format("{}: not found in PATH", argv[0]));

  std::vector<std::string> env_strings;
  for (char** e = environ; e && *e; ++e) {
    std::string_view entry(*e);
    const auto eq = entry.find('=');
    if (eq != std::string_view::npos && extra_env.count(std::string(entry.substr(0, eq)))) continue;
    env_strings.emplace_back(entry);
  }
  for (const auto& [k, v] : extra_env) env_strings.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> args(argv);
  std::vector<char*> argp;
  for (auto& a : args) argp.push_back(a.data());
  argp.push_back(nullptr);

  int out[2], err[2];
  if (!make_pipe(out)) return fail(fmt::format("pipe: {}", std::strerror(errno)));
  if (!make_pipe(err)) {
    ::close(out[0]);
    ::close(out[1]);
    return fail(fmt::format("pipe: {}", std::strerror(errno)));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Own process group, so a probe that forks (python's multiprocessing, a driver helper) dies with it.
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, program->c_str(), &actions, &attr, argp.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(out[1]);
  ::close(err[1]);
  if (rc != 0) {
    ::close(out[0]);
    ::close(err[0]);
    return fail(fmt::format("{}: cannot start: {}", *program, std::strerror(rc)));
  }
  Child child;
  child.pid_ = pid;
  child.out_fd_ = out[0];
  child.err_fd_ = err[0];
  child.deadline_ = std::chrono::steady_clock::now() + timeout;
  return child;
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
  const pid_t pid = ::fork();
  if (pid < 0) {
    for (int fd : {out[0], out[1], err[0], err[1]}) ::close(fd);
    return fail(fmt::format("fork: {}", std::strerror(errno)));
  }
  if (pid == 0) {
    ::close(out[0]);
    ::close(err[0]);
    std::string payload;
    int code = 0;
    try {
      payload = call();
    } catch (const std::exception& e) {
      payload = std::string("exception: ") + e.what();
      code = 3;
    }
    size_t written = 0;
    while (written < payload.size()) {
      const ssize_t n = ::write(out[1], payload.data() + written, payload.size() - written);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      written += static_cast<size_t>(n);
    }
    // _exit: the parent's atexit handlers and static destructors must not run twice.
    ::_exit(code);
  }
  ::close(out[1]);
  ::close(err[1]);
  Child child;
  child.pid_ = pid;
  child.out_fd_ = out[0];
  child.err_fd_ = err[0];
  child.deadline_ = std::chrono::steady_clock::now() + timeout;
  return child;
}

}  // namespace gpuscout::os
