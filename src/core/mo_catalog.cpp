#include "core/mo_catalog.hpp"

#include <cstdint>
#include <cstring>
#include <optional>

#include <fmt/format.h>

namespace gpuscout::core {
namespace {

constexpr uint32_t kMagic = 0x950412de;
constexpr uint32_t kMagicSwapped = 0xde120495;

struct Reader {
  std::string_view bytes;
  bool swapped = false;
  std::optional<uint32_t> u32(size_t at) const {
    if (at > bytes.size() || bytes.size() - at < 4) return std::nullopt;
    uint32_t v = 0;
    std::memcpy(&v, bytes.data() + at, 4);
    if (swapped) v = (v >> 24) | ((v >> 8) & 0xff00) | ((v << 8) & 0xff0000) | (v << 24);
    return v;
  }
  /// The string of table entry `i` (length, offset): NUL-terminated inside the bytes, or nullopt.
  std::optional<std::string_view> string_at(uint32_t table, uint32_t i) const {
    const auto length = u32(size_t(table) + size_t(i) * 8), offset = u32(size_t(table) + size_t(i) * 8 + 4);
    if (!length || !offset || *offset > bytes.size() || bytes.size() - *offset <= *length) return std::nullopt;
    if (bytes[*offset + *length] != '\0') return std::nullopt;
    return bytes.substr(*offset, *length);
  }
};

}  // namespace

Result<MoCatalog> MoCatalog::parse(std::string_view bytes) {
  MoCatalog catalog;
  if (auto ok = catalog.read(bytes); !ok) return std::unexpected(ok.error());
  return catalog;
}

Result<void> MoCatalog::read(std::string_view bytes) {
  messages_.clear();
  Reader r{bytes};
  const auto magic = r.u32(0);
  if (!magic || (*magic != kMagic && *magic != kMagicSwapped)) return fail("not a GNU .mo catalogue");
  r.swapped = *magic == kMagicSwapped;
  const auto count = r.u32(8), originals = r.u32(12), translations = r.u32(16);
  if (!count || !originals || !translations || *count > bytes.size() / 16)
    return fail("a damaged .mo catalogue header");
  for (uint32_t i = 0; i < *count; ++i) {
    const auto id = r.string_at(*originals, i), text = r.string_at(*translations, i);
    if (!id || !text) {
      messages_.clear();
      return fail(fmt::format("a damaged .mo catalogue entry {}", i));
    }
    if (id->empty() || text->empty()) continue;  // the header entry; an empty translation means none
    messages_.emplace(*id, text->data());
  }
  return {};
}

const char* MoCatalog::find(std::string_view msgid) const {
  const auto it = messages_.find(msgid);
  return it == messages_.end() ? nullptr : it->second;
}

}  // namespace gpuscout::core
