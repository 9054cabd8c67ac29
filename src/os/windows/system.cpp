// The Windows side of the file and environment seam (os/system.hpp): UTF-8 paths to UTF-16, only regular files.
#include <windows.h>
#include <shellapi.h>

#include <fmt/format.h>

#include "core/i18n.hpp"
#include "core/windows_text.hpp"
#include "os/native.hpp"
#include "os/windows/error_text.hpp"

namespace gpuscout::os::native {
namespace {

struct HandleCloser {
  HANDLE h;
  ~HandleCloser() {
    if (h != INVALID_HANDLE_VALUE) CloseHandle(h);
  }
};

}  // namespace

Result<std::string> read_file(const std::string& real_path, const std::string& path, size_t max_bytes) {
  // FILE_FLAG_BACKUP_SEMANTICS opens a folder too, so that it is named as one instead of "access denied".
  HANDLE h = CreateFileW(core::to_utf16(real_path).c_str(), GENERIC_READ,
                         FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
                         FILE_ATTRIBUTE_NORMAL | FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (h == INVALID_HANDLE_VALUE) return fail(fmt::format("{}: {}", path, last_error_text()));
  const HandleCloser closer{h};
  BY_HANDLE_FILE_INFORMATION info{};
  if (GetFileInformationByHandle(h, &info) && (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY))
    return fail(trf("{}: is a folder, not a file", path));
  // A pipe or a console (\\.\pipe\..., CON) is not a file: reading it could wait for ever.
  if (GetFileType(h) != FILE_TYPE_DISK) return fail(trf("{}: not a regular file (a device, FIFO or socket)", path));
  std::string data;
  char buffer[8192];
  while (true) {
    DWORD got = 0;
    if (!ReadFile(h, buffer, sizeof buffer, &got, nullptr))
      return fail(trf("{}: read error: {}", path, last_error_text()));
    if (got == 0) break;
    data.append(buffer, got);
    if (data.size() > max_bytes) return fail(trf("{}: larger than {} bytes", path, max_bytes));
  }
  return data;
}

std::optional<std::string> getenv(const std::string& name) {
  const std::wstring wname = core::to_utf16(name);
  DWORD size = GetEnvironmentVariableW(wname.c_str(), nullptr, 0);
  if (size == 0) return std::nullopt;  // unset (an empty value reports 1)
  for (int attempt = 0; attempt < 4; ++attempt) {
    std::wstring value(size, L'\0');
    const DWORD n = GetEnvironmentVariableW(wname.c_str(), value.data(), size);
    if (n == 0 && GetLastError() == ERROR_ENVVAR_NOT_FOUND) return std::nullopt;
    if (n < size) {
      value.resize(n);
      return core::from_utf16(value);
    }
    size = n;  // it grew meanwhile
  }
  return std::nullopt;
}

std::vector<std::string> environment_names() {
  std::vector<std::string> names;
  wchar_t* env = GetEnvironmentStringsW();
  if (!env) return names;
  for (const wchar_t* p = env; *p; p += wcslen(p) + 1) {
    const std::wstring_view entry(p);
    // "=C:=C:\\dir" entries (the current folder per drive) start with '=' and are no variables.
    const auto eq = entry.find(L'=', 1);
    if (entry.front() != L'=' && eq != std::wstring_view::npos) names.push_back(core::from_utf16(entry.substr(0, eq)));
  }
  FreeEnvironmentStringsW(env);
  return names;
}

Result<FsSpace> filesystem_space(const std::string& mount) {
  ULARGE_INTEGER avail{}, total{}, free{};
  if (!GetDiskFreeSpaceExW(core::to_utf16(mount).c_str(), &avail, &total, &free))
    return fail(fmt::format("{}: {}", mount, last_error_text()));
  return FsSpace{total.QuadPart, free.QuadPart, avail.QuadPart};
}

std::string machine_arch() {
  // The machine's, not this process's: an x64 gpuscout.exe under Arm64's emulation still reports aarch64.
  USHORT process = 0, native_machine = 0;
  using IsWow64Process2Fn = BOOL(WINAPI*)(HANDLE, USHORT*, USHORT*);
  const auto is_wow64_process2 = reinterpret_cast<IsWow64Process2Fn>(
      reinterpret_cast<void*>(GetProcAddress(GetModuleHandleW(L"kernel32.dll"), "IsWow64Process2")));
  if (is_wow64_process2 && is_wow64_process2(GetCurrentProcess(), &process, &native_machine)) {
    if (native_machine == IMAGE_FILE_MACHINE_ARM64) return "aarch64";
    if (native_machine == IMAGE_FILE_MACHINE_AMD64) return "x86_64";
  }
  SYSTEM_INFO si{};
  GetNativeSystemInfo(&si);
  switch (si.wProcessorArchitecture) {
    case PROCESSOR_ARCHITECTURE_AMD64: return "x86_64";
    case PROCESSOR_ARCHITECTURE_ARM64: return "aarch64";
    case PROCESSOR_ARCHITECTURE_INTEL: return "i686";
    default: return "unknown";
  }
}

std::optional<std::string> hostname() {
  wchar_t name[256] = {0};
  DWORD size = 255;
  if (!GetComputerNameExW(ComputerNameDnsHostname, name, &size)) return std::nullopt;
  return core::from_utf16(std::wstring_view(name, size));
}

std::vector<std::string> program_arguments(int argc, char** argv) {
  int count = 0;
  wchar_t** wide = CommandLineToArgvW(GetCommandLineW(), &count);
  if (!wide) return {argv, argv + argc};
  std::vector<std::string> args;
  for (int i = 0; i < count; ++i) args.push_back(core::from_utf16(wide[i]));
  LocalFree(wide);
  return args;
}

void prepare_console() {
  // Chinese text must show in cmd.exe and PowerShell: the console decodes what we write as UTF-8.
  SetConsoleOutputCP(CP_UTF8);
  SetConsoleCP(CP_UTF8);
  for (DWORD which : {STD_OUTPUT_HANDLE, STD_ERROR_HANDLE}) {
    HANDLE h = GetStdHandle(which);
    DWORD mode = 0;
    if (h != INVALID_HANDLE_VALUE && GetConsoleMode(h, &mode))
      SetConsoleMode(h, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING);  // ANSI colours on Windows 10 and later
  }
}

UserIdentity current_user() {
  UserIdentity who;
  if (auto name = getenv("USERNAME")) who.names.push_back(*name);
  wchar_t account[257] = {0};
  DWORD size = 257;
  if (GetUserNameW(account, &size) && size > 1) who.names.push_back(core::from_utf16(std::wstring_view(account, size - 1)));
  if (auto home = getenv("USERPROFILE")) who.homes.push_back(*home);
  return who;
}

bool stdout_is_terminal() {
  DWORD mode = 0;
  return GetConsoleMode(GetStdHandle(STD_OUTPUT_HANDLE), &mode) != 0;
}

bool stderr_is_terminal() {
  DWORD mode = 0;
  return GetConsoleMode(GetStdHandle(STD_ERROR_HANDLE), &mode) != 0;
}

std::optional<int> terminal_columns() {
  CONSOLE_SCREEN_BUFFER_INFO info{};
  if (!GetConsoleScreenBufferInfo(GetStdHandle(STD_OUTPUT_HANDLE), &info)) return std::nullopt;
  const int columns = info.srWindow.Right - info.srWindow.Left + 1;
  return columns > 0 ? std::optional<int>(columns) : std::nullopt;
}

}  // namespace gpuscout::os::native
