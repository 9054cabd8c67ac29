// The process-lifetime policy on POSIX (os/lifetime.hpp). The signal handler and the watcher use system calls
// only (open, read, getdents64, kill, waitpid): both run where malloc and stdio are not safe.
#include "os/lifetime.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <fmt/format.h>

#include "os/posix/children.hpp"

namespace gpuscout::os {
namespace {

constexpr int kMaxChildren = 256;
constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};

constinit std::atomic<int> g_children[kMaxChildren]{};
constinit std::atomic<int> g_signal{0};
constinit std::atomic<StopHook> g_hook{nullptr};
static_assert(std::atomic<StopHook>::is_always_lock_free);

// The run's mark: "GPUSCOUT_LIFELINE_<random>_", each child's entry adds "<n>=1". Written once, before the first
// child exists, and read by the handler and the watcher (which gets a copy with its fork).
constexpr size_t kMarkMax = 64;
char g_run_mark[kMarkMax] = {};
constinit std::atomic<bool> g_run_marked{false};
constinit std::atomic<unsigned> g_next_child{0};
std::mutex g_setup_mutex;
int g_lifeline = -1;  // write end, held by gpuscout only
pid_t g_watcher = -1;

constexpr size_t kTemporaryMax = 4096;
char g_temporary[kTemporaryMax + 1] = {};
constinit std::atomic<bool> g_temporary_set{false};

void pause_ms(long ms) {
  timespec t{0, ms * 1000000L};
  while (::nanosleep(&t, &t) != 0 && errno == EINTR) {}
}

// Whether the environment of process `pid_name` (digits) has an entry that starts with `needle`: read through
// /proc in chunks, keeping the last bytes of each so that an entry split between two reads is still seen.
bool environment_has(const char* pid_name, const char* needle, size_t needle_len) {
  char path[64] = "/proc/";
  size_t at = 6;
  for (const char* p = pid_name; *p && at < 40; ++p) path[at++] = *p;
  for (const char* p = "/environ"; *p; ++p) path[at++] = *p;
  path[at] = '\0';
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;  // gone, or another user's
  char buffer[8192];
  size_t carry = 1;
  buffer[0] = '\0';  // the first entry follows an imagined NUL, as every other entry follows a real one
  bool found = false;
  while (!found) {
    const ssize_t got = ::read(fd, buffer + carry, sizeof buffer - carry);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    const size_t length = carry + static_cast<size_t>(got);
    for (size_t i = 0; i + 1 + needle_len <= length && !found; ++i)
      found = buffer[i] == '\0' && std::memcmp(buffer + i + 1, needle, needle_len) == 0;
    // A match not yet seen starts (at its NUL) within the last needle_len bytes.
    const size_t keep = length < needle_len ? length : needle_len;
    std::memmove(buffer, buffer + length - keep, keep);
    carry = keep;
  }
  ::close(fd);
  return found;
}

struct LinuxDirent64 {
  uint64_t d_ino;
  int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[1];
};

// One pass over /proc: kills each process (not this one) whose environment carries `needle`.
int kill_marked_once(const char* needle, size_t needle_len) {
  const int dir = ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return 0;
  const pid_t self = ::getpid();
  int killed = 0;
  alignas(8) char entries[8192];
  for (;;) {
    const long got = ::syscall(SYS_getdents64, dir, entries, sizeof entries);
    if (got <= 0) break;
    for (long offset = 0; offset < got;) {
      const auto* entry = reinterpret_cast<const LinuxDirent64*>(entries + offset);
      offset += entry->d_reclen;
      long pid = 0;
      const char* p = entry->d_name;
      for (; *p >= '0' && *p <= '9' && pid < (1L << 30); ++p) pid = pid * 10 + (*p - '0');
      if (*p != '\0' || pid <= 0 || pid == self) continue;
      if (environment_has(entry->d_name, needle, needle_len) && ::kill(static_cast<pid_t>(pid), SIGKILL) == 0) ++killed;
    }
  }
  ::close(dir);
  return killed;
}

int kill_marked_raw(const char* needle, size_t needle_len) {
  if (needle_len == 0) return 0;
  int total = 0;
  // What a killed process started in the meantime carries the mark too: the next pass finds it. A process stuck
  // in the kernel (state D) keeps matching, so the passes are bounded.
  for (int pass = 0; pass < 8; ++pass) {
    const int killed = kill_marked_once(needle, needle_len);
    if (killed == 0) break;
    total += killed;
    pause_ms(2);
  }
  return total;
}

void kill_children() {
  for (auto& slot : g_children)
    if (const int pid = slot.load(); pid > 0) {
      ::kill(-pid, SIGKILL);
      ::kill(pid, SIGKILL);
    }
  if (g_run_marked.load()) kill_marked_raw(g_run_mark, std::strlen(g_run_mark));
}

// Reaps the killed children, a second at most (a process stuck in the kernel is left to init).
void reap_children() {
  for (int round = 0; round < 100; ++round) {
    bool left = false;
    for (auto& slot : g_children) {
      const int pid = slot.load();
      if (pid <= 0) continue;
      const pid_t got = ::waitpid(pid, nullptr, WNOHANG);
      if (got == pid || (got < 0 && errno == ECHILD)) slot.store(0);
      else left = true;
    }
    if (!left) return;
    pause_ms(10);
  }
}

void on_stop_signal(int signal) {
  const int saved_errno = errno;
  g_signal.store(signal);
  kill_children();
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  ::sigaction(signal, &fallback, nullptr);  // a second signal of the kind ends gpuscout at once
  if (const StopHook hook = g_hook.load(); hook && hook(signal)) {
    errno = saved_errno;
    return;
  }
  reap_children();
  if (g_temporary_set.load()) ::unlink(g_temporary);
  ::raise(signal);  // blocked while the handler runs: delivered on return, with the default action
  errno = saved_errno;
}

// The watcher: a fork of gpuscout that outlives it by a moment. It holds only the read end of the lifeline; when
// gpuscout ends without saying goodbye (SIGKILL, a crash), it kills whatever carries the run's mark.
[[noreturn]] void run_watcher(int read_end) {
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU}) ::sigaction(signal, &ignore, nullptr);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::setpgid(0, 0);  // a kill of gpuscout's group (even SIGKILL) leaves the watcher to clean up after it
  ::prctl(PR_SET_NAME, "gpuscout-watch", 0, 0, 0);
  if (const int null_fd = ::open("/dev/null", O_RDWR); null_fd >= 0) {
    for (int fd = 0; fd < 3; ++fd) ::dup2(null_fd, fd);  // never hold the user's terminal or pipe open
    if (null_fd > 2) ::close(null_fd);
  }
  ::dup2(read_end, 3);
  if (::syscall(SYS_close_range, 4u, ~0u, 0u) != 0)
    for (int fd = 4; fd < 65536; ++fd) ::close(fd);
  char byte = 0;
  ssize_t got;
  while ((got = ::read(3, &byte, 1)) < 0 && errno == EINTR) {}
  if (got == 1 && byte == 'q') ::_exit(0);  // gpuscout ended normally and cleaned up itself
  kill_marked_raw(g_run_mark, std::strlen(g_run_mark));
  ::_exit(0);
}

// At a normal exit: whatever escaped a child's group and is still running goes, then the watcher is let go.
void end_of_run() {
  kill_children();
  if (g_lifeline < 0) return;
  const char goodbye = 'q';
  (void)!::write(g_lifeline, &goodbye, 1);
  ::close(g_lifeline);
  g_lifeline = -1;
  for (int round = 0; round < 100; ++round) {
    const pid_t got = ::waitpid(g_watcher, nullptr, WNOHANG);
    if (got != 0) return;
    pause_ms(5);
  }
  ::kill(g_watcher, SIGKILL);
  ::waitpid(g_watcher, nullptr, 0);
}

// The run's mark and the watcher, once, before the first child.
void set_up_run() {
  if (g_run_marked.load()) return;
  const std::string mark = fmt::format("GPUSCOUT_LIFELINE_{:016x}_", posix::random_u64());
  std::memcpy(g_run_mark, mark.c_str(), mark.size() + 1);
  g_run_marked.store(true);
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return;
  sigset_t all, old;
  sigfillset(&all);
  ::pthread_sigmask(SIG_SETMASK, &all, &old);
  const pid_t pid = ::fork();
  if (pid == 0) run_watcher(fds[0]);
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  ::close(fds[0]);
  if (pid < 0) {
    ::close(fds[1]);
    return;
  }
  g_lifeline = fds[1];
  g_watcher = pid;
  std::atexit(end_of_run);
}

}  // namespace

void guard_children() {
  for (int signal : kStopSignals) {
    struct sigaction current {};
    if (::sigaction(signal, nullptr, &current) == 0 && current.sa_handler == SIG_IGN) continue;
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    for (int other : kStopSignals) sigaddset(&action.sa_mask, other);  // one handler at a time
    action.sa_flags = SA_RESTART;  // the command's own reads and writes go on; the hook decides
    ::sigaction(signal, &action, nullptr);
  }
}

ScopedStopHook::ScopedStopHook(StopHook hook) : previous_(g_hook.exchange(hook)) {}
ScopedStopHook::~ScopedStopHook() { g_hook.store(previous_); }

int stop_signal() { return g_signal.load(); }

namespace posix {

void child_started(int pid) {
  for (auto& slot : g_children) {
    int empty = 0;
    if (slot.compare_exchange_strong(empty, pid)) break;
  }
  if (g_signal.load() != 0) {
    ::kill(-pid, SIGKILL);
    ::kill(pid, SIGKILL);
  }
}

void child_reaped(int pid) {
  for (auto& slot : g_children) {
    int expected = pid;
    if (slot.compare_exchange_strong(expected, 0)) return;
  }
}

std::string next_child_mark() {
  const std::lock_guard lock(g_setup_mutex);
  set_up_run();
  return fmt::format("{}{}=1", g_run_mark, g_next_child.fetch_add(1));
}

int kill_marked(const std::string& mark) {
  // "NAME=1" is looked for as "NAME=", so that child 1's mark does not also find child 12.
  const auto eq = mark.find('=');
  return kill_marked_raw(mark.c_str(), eq == std::string::npos ? mark.size() : eq + 1);
}

int lifeline_fd() { return g_lifeline; }

void reset_child_signals() {
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  for (int signal : kStopSignals) {
    struct sigaction current {};
    if (::sigaction(signal, nullptr, &current) == 0 && current.sa_handler == on_stop_signal)
      ::sigaction(signal, &fallback, nullptr);
  }
}

void set_temporary(const char* path) {
  if (!path) {
    g_temporary_set.store(false);
    return;
  }
  const size_t length = std::strlen(path);
  if (length > kTemporaryMax) return;
  g_temporary_set.store(false);
  std::memcpy(g_temporary, path, length + 1);
  g_temporary_set.store(true);
}

}  // namespace posix
}  // namespace gpuscout::os
