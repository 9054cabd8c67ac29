// Atomic writes of the user's files on Windows (os/system.hpp: write_file_atomic): a temporary beside the target
// created with CREATE_NEW (never an existing file), flushed, then MoveFileExW(MOVEFILE_REPLACE_EXISTING |
// MOVEFILE_WRITE_THROUGH), which replaces the target in one step.
#include <windows.h>
#include <bcrypt.h>

#include <chrono>
#include <ctime>

#include <fmt/format.h>

#include "core/i18n.hpp"
#include "core/windows_text.hpp"
#include "os/system.hpp"
#include "os/windows/error_text.hpp"
#include "os/write_target.hpp"

namespace gpuscout::os {
namespace {

uint64_t random_u64() {
  uint64_t value = 0;
  if (BCryptGenRandom(nullptr, reinterpret_cast<PUCHAR>(&value), sizeof value, BCRYPT_USE_SYSTEM_PREFERRED_RNG) == 0)
    return value;
  return static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
         (static_cast<uint64_t>(GetCurrentProcessId()) << 40);
}

Result<void> write_all(HANDLE h, std::string_view content) {
  size_t written = 0;
  while (written < content.size()) {
    DWORD n = 0;
    const DWORD chunk = static_cast<DWORD>(std::min<size_t>(content.size() - written, 1u << 24));
    if (!WriteFile(h, content.data() + written, chunk, &n, nullptr) || n == 0) return fail(last_error_text());
    written += n;
  }
  // On disk before the rename, so a crash leaves the old file or the new one, never an empty one.
  if (!FlushFileBuffers(h)) return fail(last_error_text());
  return {};
}

}  // namespace

Result<void> write_file_atomic(const std::string& path, std::string_view content, bool replace_read_only) {
  if (auto ok = check_write_target(path, replace_read_only); !ok) return std::unexpected(ok.error());
  // MoveFileEx does not replace a read-only file: with --force the attribute goes first.
  const std::wstring wide_path = core::to_utf16(path);
  if (const DWORD attributes = GetFileAttributesW(wide_path.c_str());
      replace_read_only && attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_READONLY))
    SetFileAttributesW(wide_path.c_str(), attributes & ~static_cast<DWORD>(FILE_ATTRIBUTE_READONLY));
  std::wstring tmp;
  HANDLE h = INVALID_HANDLE_VALUE;
  for (int attempt = 0; attempt < 16 && h == INVALID_HANDLE_VALUE; ++attempt) {
    tmp = core::to_utf16(temporary_name(path, random_u64(), 255));
    h = CreateFileW(tmp.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h == INVALID_HANDLE_VALUE && GetLastError() != ERROR_FILE_EXISTS)
      return fail(trf("{}: cannot write: {}", path, last_error_text()));
  }
  if (h == INVALID_HANDLE_VALUE) return fail(trf("{}: cannot write: {}", path, "no free temporary name"));
  auto wrote = write_all(h, content);
  CloseHandle(h);
  if (wrote && !MoveFileExW(tmp.c_str(), core::to_utf16(path).c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
    wrote = fail(last_error_text());
  if (!wrote) {
    DeleteFileW(tmp.c_str());
    return fail(trf("{}: cannot write: {}", path, wrote.error().message));
  }
  return {};
}

std::string utc_now_iso8601() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_s(&tm, &t);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace gpuscout::os
