#pragma once
/// UTF-8 <-> UTF-16 for the Windows API (implemented in core/windows; only the Windows build has it). Invalid
/// input never throws: an unpaired surrogate or a broken UTF-8 sequence becomes U+FFFD.
#include <string>
#include <string_view>

namespace gpuscout::core {

std::wstring to_utf16(std::string_view utf8);
std::string from_utf16(std::wstring_view utf16);

}  // namespace gpuscout::core
