#pragma once
/// Strings a driver wrote into a caller's buffer: bounded by the buffer (a driver may not terminate them) and
/// cleaned to valid UTF-8 (a GPU or process name is firmware's or another program's text).
#include <cstring>
#include <string>

#include "core/text.hpp"

namespace gpuscout::vendor {

inline std::string text_from(const char* buffer, size_t capacity) {
  return text::clean_utf8(std::string_view(buffer, strnlen(buffer, capacity)));
}

}  // namespace gpuscout::vendor
