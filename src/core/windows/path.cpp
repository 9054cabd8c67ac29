#include "core/path.hpp"

#include <windows.h>

#include <vector>

#include "core/windows_text.hpp"

namespace gpuscout::core {

std::filesystem::path to_path(std::string_view utf8) { return std::filesystem::path(to_utf16(utf8)); }
std::string from_path(const std::filesystem::path& path) { return from_utf16(path.native()); }

std::string self_executable() {
  // Long paths: grow the buffer until the name fits (GetModuleFileNameW truncates silently otherwise).
  for (DWORD size = MAX_PATH; size <= 32768; size *= 2) {
    std::vector<wchar_t> buffer(size);
    const DWORD n = GetModuleFileNameW(nullptr, buffer.data(), size);
    if (n == 0) return {};
    if (n < size) return from_utf16(std::wstring_view(buffer.data(), n));
  }
  return {};
}

}  // namespace gpuscout::core
