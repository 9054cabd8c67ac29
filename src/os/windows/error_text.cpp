#include "os/windows/error_text.hpp"

#include <fmt/format.h>

#include "core/text.hpp"
#include "core/windows_text.hpp"

namespace gpuscout::os {

std::string error_text(DWORD code) {
  wchar_t buffer[512] = {0};
  const DWORD n = FormatMessageW(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr, code,
                                 MAKELANGID(LANG_ENGLISH, SUBLANG_ENGLISH_US), buffer, 511, nullptr);
  std::string text = n ? std::string(text::trim(core::from_utf16(std::wstring_view(buffer, n)))) : std::string();
  if (text.empty()) text = "error";
  return fmt::format("{} (Windows error {})", text, code);
}

}  // namespace gpuscout::os
