#pragma once
/// GetLastError() as text (FormatMessageW, in English so that logs and tests read the same everywhere).
#include <string>

#include <windows.h>

namespace gpuscout::os {

std::string error_text(DWORD code);
inline std::string last_error_text() { return error_text(GetLastError()); }

}  // namespace gpuscout::os
