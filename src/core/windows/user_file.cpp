// Files the user names (--from, --model, --data) on Windows: UTF-8 names to UTF-16, only regular files, bounded.
#include "core/user_file.hpp"

#include <windows.h>

#include <algorithm>

#include "core/i18n.hpp"
#include "core/windows_text.hpp"

namespace gpuscout::core {
namespace {

struct Opened {
  HANDLE h = INVALID_HANDLE_VALUE;
  ~Opened() {
    if (h != INVALID_HANDLE_VALUE) CloseHandle(h);
  }
};

/// Opens `path` for reading and refuses what is not a regular file before reading a byte.
Result<void> open_regular(const std::string& path, Opened& file, uint64_t& size) {
  file.h = CreateFileW(to_utf16(path).c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                       nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL | FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (file.h == INVALID_HANDLE_VALUE) {
    const DWORD e = GetLastError();
    if (e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND) return fail(trf("{}: no such file", path));
    return fail(trf("{}: cannot be read: {}", path, fmt::format("Windows error {}", e)));
  }
  BY_HANDLE_FILE_INFORMATION info{};
  if (GetFileInformationByHandle(file.h, &info) && (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY))
    return fail(trf("{}: is a folder, not a file", path));
  if (GetFileType(file.h) != FILE_TYPE_DISK) return fail(trf("{}: not a regular file", path));
  size = (uint64_t(info.nFileSizeHigh) << 32) | info.nFileSizeLow;
  return {};
}

Result<std::string> read_up_to(const std::string& path, HANDLE h, std::uintmax_t max_bytes) {
  std::string data;
  char buffer[65536];
  while (data.size() < max_bytes) {
    const DWORD want = static_cast<DWORD>(std::min<std::uintmax_t>(sizeof buffer, max_bytes - data.size()));
    DWORD got = 0;
    if (!ReadFile(h, buffer, want, &got, nullptr)) return fail(trf("{}: read error", path));
    if (got == 0) break;
    data.append(buffer, got);
  }
  return data;
}

}  // namespace

Result<std::string> read_user_file(const std::string& path, std::uintmax_t max_bytes) {
  Opened file;
  uint64_t size = 0;
  if (auto ok = open_regular(path, file, size); !ok) return std::unexpected(ok.error());
  if (size > max_bytes)
    return fail(trf("{}: larger than {} MiB, too big for what gpuscout reads here", path, max_bytes >> 20));
  return read_up_to(path, file.h, max_bytes);
}

Result<std::string> read_user_file_prefix(const std::string& path, std::uintmax_t max_bytes) {
  Opened file;
  uint64_t size = 0;
  if (auto ok = open_regular(path, file, size); !ok) return std::unexpected(ok.error());
  return read_up_to(path, file.h, max_bytes);
}

}  // namespace gpuscout::core
