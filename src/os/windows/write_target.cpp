#include "os/write_target.hpp"

#include <windows.h>

#include <filesystem>

#include <fmt/format.h>

#include "core/i18n.hpp"
#include "core/path.hpp"
#include "core/windows_text.hpp"
#include "os/windows/error_text.hpp"

namespace gpuscout::os {

Result<void> check_write_target(const std::string& path, bool replace_read_only) {
  if (path.empty()) return fail(tr("an empty file name: give the file to write"));
  const std::wstring w = core::to_utf16(path);
  const DWORD attributes = GetFileAttributesW(w.c_str());
  if (attributes != INVALID_FILE_ATTRIBUTES) {
    if (attributes & FILE_ATTRIBUTE_DIRECTORY) return fail(trf("{}: is a folder, not a file", path));
    HANDLE h = CreateFileW(w.c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                           OPEN_EXISTING, 0, nullptr);
    const DWORD type = h == INVALID_HANDLE_VALUE ? FILE_TYPE_DISK : GetFileType(h);
    if (h != INVALID_HANDLE_VALUE) CloseHandle(h);
    if (type != FILE_TYPE_DISK) return fail(trf("{}: not a regular file (a device, FIFO or socket)", path));
    if (!replace_read_only && (attributes & FILE_ATTRIBUTE_READONLY))
      return fail(trf("{}: the file is read-only, so gpuscout leaves it as it is; add --force to replace it, or "
                      "choose another name", path));
  }
  std::string folder = core::from_path(core::to_path(path).parent_path());
  if (folder.empty()) folder = ".";
  const DWORD folder_attributes = GetFileAttributesW(core::to_utf16(folder).c_str());
  if (folder_attributes == INVALID_FILE_ATTRIBUTES) return fail(trf("{}: the folder {} does not exist", path, folder));
  if (!(folder_attributes & FILE_ATTRIBUTE_DIRECTORY)) return fail(trf("{}: {} is not a folder", path, folder));
  return {};
}

}  // namespace gpuscout::os
