// Raw tables the Windows APIs return, parsed by pure functions (so they are tested on Linux): the SMBIOS structure
// table and GetLogicalProcessorInformationEx's records.
//
// The SMBIOS structure table (DMTF DSP0134): each structure is a 4-byte header (type, formatted length, handle),
// the formatted area, then its strings, each NUL-terminated, the set ended by one more NUL. Only what gpuscout
// uses is decoded: system manufacturer and product (type 1), chassis type (type 3). Serials and UUIDs are skipped.
#include <cstring>

#include "core/text.hpp"
#include "probe/windows_facts.hpp"

namespace gpuscout::probe::windows {
namespace {

uint8_t byte_at(std::string_view s, size_t i) { return static_cast<uint8_t>(s[i]); }

/// String number `n` (1-based; 0 = none) of the string set starting at `strings`.
std::optional<std::string> smbios_string(std::string_view strings, uint8_t n) {
  if (n == 0) return std::nullopt;
  size_t at = 0;
  for (uint8_t i = 1; at < strings.size() && strings[at] != '\0'; ++i) {
    const size_t end = strings.find('\0', at);
    if (end == std::string_view::npos) return std::nullopt;  // unterminated: damaged table
    if (i == n) {
      std::string value(text::trim(text::clean_utf8(strings.substr(at, end - at))));
      if (value.empty()) return std::nullopt;
      return value;
    }
    at = end + 1;
  }
  return std::nullopt;
}

}  // namespace

Smbios parse_smbios(std::string_view table) {
  Smbios out;
  size_t at = 0;
  while (at + 4 <= table.size()) {
    const uint8_t type = byte_at(table, at);
    const uint8_t length = byte_at(table, at + 1);
    if (length < 4 || at + length > table.size()) break;  // a header that lies: stop, keep what was read
    const std::string_view formatted = table.substr(at, length);
    // The string set ends at the first double NUL after the formatted area (an empty set is two NULs).
    size_t end = table.find(std::string_view("\0\0", 2), at + length);
    if (end == std::string_view::npos) break;
    const std::string_view strings = table.substr(at + length, end - (at + length) + 1);
    if (type == 1 && length >= 6) {
      if (!out.manufacturer) out.manufacturer = smbios_string(strings, byte_at(formatted, 4));
      if (!out.product) out.product = smbios_string(strings, byte_at(formatted, 5));
    } else if (type == 3 && length >= 6 && !out.chassis_type) {
      const int chassis = byte_at(formatted, 5) & 0x7f;  // bit 7: chassis lock present
      if (chassis != 0) out.chassis_type = chassis;
    } else if (type == 127) {
      break;  // end-of-table
    }
    at = end + 2;
  }
  return out;
}

Smbios parse_raw_smbios_data(std::string_view raw) {
  // RawSMBIOSData: Used20CallingMethod, SMBIOSMajorVersion, SMBIOSMinorVersion, DmiRevision (bytes), Length (DWORD,
  // little-endian), then Length bytes of structures.
  if (raw.size() < 8) return {};
  const uint32_t length = uint32_t(byte_at(raw, 4)) | uint32_t(byte_at(raw, 5)) << 8 | uint32_t(byte_at(raw, 6)) << 16 |
                          uint32_t(byte_at(raw, 7)) << 24;
  const size_t available = raw.size() - 8;
  return parse_smbios(raw.substr(8, std::min<size_t>(length, available)));
}

}  // namespace gpuscout::probe::windows

namespace gpuscout::probe::windows {
namespace {

// Little-endian reads at an offset the caller has bounds-checked.
template <typename T>
T read_at(std::string_view s, size_t offset) {
  T v{};
  std::memcpy(&v, s.data() + offset, sizeof v);
  return v;
}

constexpr size_t kGroupAffinitySize = 16;  // KAFFINITY Mask, WORD Group, WORD Reserved[3]

/// `count` GROUP_AFFINITY entries at `offset` of one record; empty when they do not fit in it.
std::vector<GroupMask> masks_at(std::string_view record, size_t offset, size_t count) {
  std::vector<GroupMask> out;
  if (offset + count * kGroupAffinitySize > record.size()) return out;
  for (size_t i = 0; i < count; ++i) {
    const size_t at = offset + i * kGroupAffinitySize;
    out.push_back({read_at<uint16_t>(record, at + 8), read_at<uint64_t>(record, at)});
  }
  return out;
}

void add_record(std::string_view r, Processors& p) {
  const uint32_t relationship = read_at<uint32_t>(r, 0);
  if ((relationship == 0 || relationship == 3) && r.size() >= 32) {  // RelationProcessorCore, RelationProcessorPackage
    auto masks = masks_at(r, 32, read_at<uint16_t>(r, 30));
    if (relationship == 0) p.cores.push_back({read_at<uint8_t>(r, 8), read_at<uint8_t>(r, 9), std::move(masks)});
    else p.packages.push_back(std::move(masks));
  } else if (relationship == 2 && r.size() >= 40 + kGroupAffinitySize) {  // RelationCache
    // GroupCount (offset 38) is Reserved, i.e. 0, before Windows 11 / Server 2022: then there is one GroupMask.
    const uint16_t count = read_at<uint16_t>(r, 38);
    p.caches.push_back({read_at<uint8_t>(r, 8), read_at<uint8_t>(r, 9), read_at<uint16_t>(r, 10),
                        read_at<uint32_t>(r, 12), read_at<uint32_t>(r, 16), masks_at(r, 40, count == 0 ? 1 : count)});
  } else if (relationship == 4 && r.size() >= 32) {  // RelationGroup: PROCESSOR_GROUP_INFO of 48 bytes each
    const uint16_t active = read_at<uint16_t>(r, 10);
    for (size_t i = 0; i < active && 32 + (i + 1) * 48 <= r.size(); ++i) {
      const size_t at = 32 + i * 48;
      p.groups.push_back({read_at<uint8_t>(r, at), read_at<uint8_t>(r, at + 1), read_at<uint64_t>(r, at + 40)});
    }
  }
}

}  // namespace

Processors parse_processor_records(std::string_view buffer) {
  Processors p;
  size_t at = 0;
  while (at + 8 <= buffer.size()) {
    const uint32_t size = read_at<uint32_t>(buffer, at + 4);
    if (size < 8 || size > buffer.size() - at) break;  // a record that overruns the buffer: stop there
    add_record(buffer.substr(at, size), p);
    at += size;
  }
  return p;
}

}  // namespace gpuscout::probe::windows
