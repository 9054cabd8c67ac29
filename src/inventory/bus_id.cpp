#include "inventory/bus_id.hpp"

#include <cctype>
#include <cstdint>

#include <fmt/format.h>

namespace gpuscout {
namespace {

/// One hex field of 1..max_digits digits, consumed from the front of `text`.
std::optional<uint32_t> take_hex(std::string_view& text, size_t max_digits) {
  size_t n = 0;
  uint32_t value = 0;
  while (n < text.size() && n < max_digits && std::isxdigit(static_cast<unsigned char>(text[n]))) {
    const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(text[n])));
    value = value * 16 + static_cast<uint32_t>(c <= '9' ? c - '0' : c - 'a' + 10);
    ++n;
  }
  if (n == 0) return std::nullopt;
  text.remove_prefix(n);
  return value;
}

bool take(std::string_view& text, char c) {
  if (text.empty() || text.front() != c) return false;
  text.remove_prefix(1);
  return true;
}

}  // namespace

std::optional<std::string> nvidia_smi_bus_id(std::string_view bus_id) {
  std::string_view rest = bus_id;
  const auto domain = take_hex(rest, 8);
  if (!domain || !take(rest, ':')) return std::nullopt;
  const auto bus = take_hex(rest, 2);
  if (!bus || !take(rest, ':')) return std::nullopt;
  const auto device = take_hex(rest, 2);
  if (!device || !take(rest, '.')) return std::nullopt;
  const auto function = take_hex(rest, 1);
  if (!function || !rest.empty() || *device > 0x1f || *function > 7) return std::nullopt;
  return fmt::format("{:08X}:{:02X}:{:02X}.{:X}", *domain, *bus, *device, *function);
}

}  // namespace gpuscout
