// Child processes on Windows (os/process.hpp): CreateProcessW with an argument vector quoted as the C runtime
// parses it (never cmd.exe), standard input from NUL, and every child inside a job object, so that the deadline,
// an unwaited Child or the end of the leader kills the whole tree the child started.
#include <io.h>
#include <windows.h>

#include <algorithm>
#include <cwctype>
#include <thread>

#include <fmt/format.h>

#include "core/path.hpp"
#include "core/text.hpp"
#include "core/windows_text.hpp"
#include "os/native.hpp"
#include "os/process.hpp"
#include "os/windows/error_text.hpp"

namespace gpuscout::os {
namespace {

constexpr size_t kMaxOutput = 16u << 20;

void close_handle(HANDLE& h) {
  if (h && h != INVALID_HANDLE_VALUE) CloseHandle(h);
  h = nullptr;
}

/// Reads one pipe to its end on a thread of its own: Windows has no poll() over anonymous pipes.
void read_pipe(HANDLE pipe, std::string* sink) {
  char buffer[65536];
  DWORD got = 0;
  while (ReadFile(pipe, buffer, sizeof buffer, &got, nullptr) && got > 0)
    if (sink->size() < kMaxOutput) sink->append(buffer, got);
}

/// One argument quoted for CommandLineToArgvW and the C runtime: backslashes double only before a quote.
std::wstring quote_argument(const std::wstring& arg) {
  if (!arg.empty() && arg.find_first_of(L" \t\n\v\"") == std::wstring::npos) return arg;
  std::wstring out = L"\"";
  size_t backslashes = 0;
  for (wchar_t c : arg) {
    if (c == L'\\') {
      ++backslashes;
      continue;
    }
    if (c == L'"') out.append(backslashes * 2 + 1, L'\\');
    else out.append(backslashes, L'\\');
    backslashes = 0;
    out.push_back(c);
  }
  out.append(backslashes * 2, L'\\');
  out.push_back(L'"');
  return out;
}

bool same_name(std::wstring_view a, std::wstring_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](wchar_t x, wchar_t y) { return std::towupper(x) == std::towupper(y); });
}

/// This process's environment with `extra` replacing or adding variables (names compare case-insensitively).
std::wstring environment_block(const std::map<std::string, std::string>& extra) {
  std::vector<std::wstring> entries;
  std::vector<std::wstring> extra_names;
  for (const auto& [k, v] : extra) extra_names.push_back(core::to_utf16(k));
  if (wchar_t* env = GetEnvironmentStringsW()) {
    for (const wchar_t* p = env; *p; p += wcslen(p) + 1) {
      std::wstring_view entry(p);
      const auto eq = entry.find(L'=', 1);  // "=C:=C:\\dir" entries start with '='
      const auto name = entry.substr(0, eq);
      if (std::none_of(extra_names.begin(), extra_names.end(), [&](const std::wstring& n) { return same_name(n, name); }))
        entries.emplace_back(entry);
    }
    FreeEnvironmentStringsW(env);
  }
  for (const auto& [k, v] : extra) entries.push_back(core::to_utf16(k + "=" + v));
  std::wstring block;
  for (const auto& e : entries) block += e + L'\0';
  block += L'\0';
  return block;
}

bool has_extension(std::string_view name) {
  const auto slash = name.find_last_of("\\/");
  const auto dot = name.rfind('.');
  return dot != std::string_view::npos && (slash == std::string_view::npos || dot > slash);
}

}  // namespace

struct Child::State {
  HANDLE process = nullptr;
  HANDLE job = nullptr;
  DWORD pid = 0;
  HANDLE out = nullptr, err = nullptr;
  std::chrono::steady_clock::time_point deadline{};
  ~State() {
    if (job) TerminateJobObject(job, 1);
    if (process) WaitForSingleObject(process, 5000);
    close_handle(process);
    close_handle(job);
    close_handle(out);
    close_handle(err);
  }
};

Child::Child() = default;
Child::Child(std::unique_ptr<State> state) : state_(std::move(state)) {}
Child::Child(Child&&) noexcept = default;
Child& Child::operator=(Child&& other) noexcept {
  if (this != &other) state_ = std::move(other.state_);
  return *this;
}
Child::~Child() = default;
bool Child::started() const { return state_ && state_->process; }
int Child::pid() const { return state_ && state_->process ? static_cast<int>(state_->pid) : -1; }

ProcessResult Child::wait() {
  ProcessResult result;
  if (!state_ || !state_->process) return result;
  State& s = *state_;
  std::thread out_reader(read_pipe, s.out, &result.out);
  std::thread err_reader(read_pipe, s.err, &result.err);
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(s.deadline - std::chrono::steady_clock::now());
  const DWORD wait_ms = static_cast<DWORD>(std::clamp<long long>(left.count(), 0, 0x7ffffffe));
  result.timed_out = WaitForSingleObject(s.process, wait_ms) == WAIT_TIMEOUT;
  // Past the deadline the whole tree goes; after a normal end, whatever the leader left running goes too, and
  // with it the last writers of the pipes, so the readers reach the end.
  TerminateJobObject(s.job, 1);
  WaitForSingleObject(s.process, 5000);
  out_reader.join();
  err_reader.join();
  DWORD code = 0;
  if (!result.timed_out && GetExitCodeProcess(s.process, &code)) result.exit_code = static_cast<int>(code);
  state_.reset();
  return result;
}

bool is_executable_file(const std::string& path) {
  const DWORD attributes = GetFileAttributesW(core::to_utf16(path).c_str());
  if (attributes == INVALID_FILE_ATTRIBUTES || (attributes & FILE_ATTRIBUTE_DIRECTORY)) return false;
  const std::string lower = text::to_lower(path);
  return lower.ends_with(".exe") || lower.ends_with(".com");
}

std::optional<std::string> find_program(const std::string& name, std::string_view search_path) {
  if (name.empty()) return std::nullopt;
  const bool explicit_path = name.find_first_of("\\/:") != std::string::npos;
  const std::vector<std::string> names = has_extension(name) ? std::vector<std::string>{name}
                                                             : std::vector<std::string>{name + ".exe", name};
  if (explicit_path) {
    for (const auto& n : names)
      if (is_executable_file(n)) return n;
    return std::nullopt;
  }
  for (auto dir : text::split(search_path, ';')) {
    dir = text::trim(dir);
    if (dir.size() >= 2 && dir.front() == '"' && dir.back() == '"') dir = dir.substr(1, dir.size() - 2);
    if (dir.empty()) continue;
    for (const auto& n : names) {
      std::string candidate = std::string(dir);
      if (candidate.back() != '\\' && candidate.back() != '/') candidate += '\\';
      candidate += n;
      if (is_executable_file(candidate)) return candidate;
    }
  }
  return std::nullopt;
}

std::optional<std::string> find_program(const std::string& name) {
  return find_program(name, native::getenv("PATH").value_or(""));
}

namespace {

struct Pipe {
  HANDLE read = nullptr, write = nullptr;
};

Result<Pipe> make_pipe() {
  SECURITY_ATTRIBUTES sa{sizeof sa, nullptr, TRUE};
  Pipe p;
  if (!CreatePipe(&p.read, &p.write, &sa, 0)) return fail(fmt::format("pipe: {}", last_error_text()));
  SetHandleInformation(p.read, HANDLE_FLAG_INHERIT, 0);  // only the child's end is inherited
  return p;
}

/// Starts `program` suspended inside a new job that kills its tree when closed, then lets it run.
Result<Child> start_in_job(const std::string& program, const std::vector<std::string>& argv,
                           const std::map<std::string, std::string>& extra_env, std::chrono::milliseconds timeout) {
  auto out = make_pipe();
  if (!out) return std::unexpected(out.error());
  auto err = make_pipe();
  if (!err) {
    CloseHandle(out->read);
    CloseHandle(out->write);
    return std::unexpected(err.error());
  }
  SECURITY_ATTRIBUTES sa{sizeof sa, nullptr, TRUE};
  HANDLE null_in = CreateFileW(L"NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, &sa, OPEN_EXISTING, 0, nullptr);
  auto state = std::make_unique<Child::State>();
  state->out = out->read;
  state->err = err->read;
  state->job = CreateJobObjectW(nullptr, nullptr);
  JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits{};
  limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
  if (state->job) SetInformationJobObject(state->job, JobObjectExtendedLimitInformation, &limits, sizeof limits);

  std::wstring command_line;
  for (const auto& a : argv) command_line += (command_line.empty() ? L"" : L" ") + quote_argument(core::to_utf16(a));
  std::wstring env = environment_block(extra_env);
  STARTUPINFOW si{};
  si.cb = sizeof si;
  si.dwFlags = STARTF_USESTDHANDLES;
  si.hStdInput = null_in;
  si.hStdOutput = out->write;
  si.hStdError = err->write;
  PROCESS_INFORMATION pi{};
  const BOOL ok = CreateProcessW(core::to_utf16(program).c_str(), command_line.data(), nullptr, nullptr, TRUE,
                                 CREATE_SUSPENDED | CREATE_UNICODE_ENVIRONMENT | CREATE_NO_WINDOW, env.data(),
                                 nullptr, &si, &pi);
  const std::string why = ok ? std::string() : last_error_text();
  CloseHandle(out->write);
  CloseHandle(err->write);
  if (null_in != INVALID_HANDLE_VALUE) CloseHandle(null_in);
  if (!ok) return fail(fmt::format("{}: cannot start: {}", program, why));
  if (state->job) AssignProcessToJobObject(state->job, pi.hProcess);
  ResumeThread(pi.hThread);
  CloseHandle(pi.hThread);
  state->process = pi.hProcess;
  state->pid = pi.dwProcessId;
  state->deadline = std::chrono::steady_clock::now() + timeout;
  return Child(std::move(state));
}

}  // namespace

Result<Child> spawn(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                    const std::map<std::string, std::string>& extra_env) {
  if (argv.empty()) return fail("spawn: empty argument vector");
  const auto program = find_program(argv[0]);
  if (!program) return fail(fmt::format("{}: not found in PATH", argv[0]));
  return start_in_job(*program, argv, extra_env, timeout);
}

Result<ProcessResult> run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                          const std::map<std::string, std::string>& extra_env) {
  auto child = spawn(argv, timeout, extra_env);
  if (!child) return std::unexpected(child.error());
  return child->wait();
}

Result<Child> call_isolated(const std::string& name, const std::string& argument, std::chrono::milliseconds timeout) {
  if (!find_isolated(name)) return fail("no isolated call named " + name);
  const std::string self = core::self_executable();
  if (self.empty()) return fail("the path of gpuscout.exe itself is unknown");
  return start_in_job(self, {self, kIsolatedChildFlag, name, argument}, {}, timeout);
}

namespace native {

PayloadChannel open_payload_channel() {
  std::fflush(stdout);
  // A copy of the handle: _dup2 below closes the C runtime's fd 1, and with it the handle it wraps.
  HANDLE original = nullptr;
  DuplicateHandle(GetCurrentProcess(), GetStdHandle(STD_OUTPUT_HANDLE), GetCurrentProcess(), &original, 0, FALSE,
                  DUPLICATE_SAME_ACCESS);
  // A driver's printf (C runtime fd 1) and WriteConsole to the standard output both land on standard error.
  SetStdHandle(STD_OUTPUT_HANDLE, GetStdHandle(STD_ERROR_HANDLE));
  _dup2(_fileno(stderr), _fileno(stdout));
  return PayloadChannel{reinterpret_cast<long long>(original)};
}

bool write_payload(const PayloadChannel& channel, const std::string& payload) {
  HANDLE h = reinterpret_cast<HANDLE>(channel.handle);
  if (!h || h == INVALID_HANDLE_VALUE) return false;
  size_t written = 0;
  while (written < payload.size()) {
    DWORD n = 0;
    const DWORD chunk = static_cast<DWORD>(std::min<size_t>(payload.size() - written, 1u << 20));
    if (!WriteFile(h, payload.data() + written, chunk, &n, nullptr) || n == 0) return false;
    written += n;
  }
  return true;
}

}  // namespace native
}  // namespace gpuscout::os
