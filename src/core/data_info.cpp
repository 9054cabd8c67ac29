#include "core/data_info.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <set>

#include "core/data_files.hpp"
#include "core/text.hpp"

namespace gpuscout::core {
namespace {

/// The date at the start of `s` (YYYY-MM-DD), if it is a real calendar day.
std::optional<std::chrono::sys_days> parse_day(std::string_view s) {
  if (s.size() < 10 || s[4] != '-' || s[7] != '-') return std::nullopt;
  const auto y = text::parse_uint(s.substr(0, 4));
  const auto m = text::parse_uint(s.substr(5, 2));
  const auto d = text::parse_uint(s.substr(8, 2));
  if (!y || !m || !d || *y < 1900 || *y > 9999) return std::nullopt;
  const std::chrono::year_month_day ymd{std::chrono::year(int(*y)), std::chrono::month(unsigned(*m)),
                                        std::chrono::day(unsigned(*d))};
  if (!ymd.ok()) return std::nullopt;
  return std::chrono::sys_days(ymd);
}

bool key_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
}

TableInfo describe(const std::string& name, const csv::Table& table, const std::vector<std::string>& keys) {
  TableInfo info;
  info.name = name;
  info.origin = table.source();
  info.built_in = !override_path(name);
  info.rows = table.rows().size();
  std::set<std::string> cited;
  for (const auto& row : table.rows()) {
    const std::string_view date = table.cell(row, "date");
    if (parse_day(date)) {
      const std::string day(date.substr(0, 10));
      if (info.oldest.empty() || day < info.oldest) info.oldest = day;
      if (day > info.newest) info.newest = day;
    } else {
      ++info.undated;
    }
    for (auto& k : cited_keys(table.cell(row, "source"), keys)) cited.insert(std::move(k));
  }
  info.sources = cited.size();
  return info;
}

}  // namespace

std::vector<std::string> source_keys() {
  std::vector<std::string> keys;
  for (const auto& file : embedded_data_files()) {
    if (file.name != "SOURCES.md") continue;
    // A key row: "| `NV-RN` | ..." (several keys may share the first cell: "| `NVDS-T4` `NVDS-A10` |").
    for (auto line : text::split(file.content, '\n')) {
      if (!line.starts_with("| `")) continue;
      const auto cell_end = line.find('|', 1);
      std::string_view cell = line.substr(1, cell_end == std::string_view::npos ? line.size() : cell_end - 1);
      while (true) {
        const auto open = cell.find('`');
        if (open == std::string_view::npos) break;
        const auto close = cell.find('`', open + 1);
        if (close == std::string_view::npos) break;
        keys.emplace_back(cell.substr(open + 1, close - open - 1));
        cell = cell.substr(close + 1);
      }
    }
  }
  return keys;
}

std::vector<std::string> cited_keys(std::string_view cell, const std::vector<std::string>& keys) {
  std::vector<std::string> out;
  for (const auto& key : keys) {
    for (size_t at = cell.find(key); at != std::string_view::npos; at = cell.find(key, at + 1)) {
      const bool starts = at == 0 || !key_char(cell[at - 1]);
      const size_t end = at + key.size();
      const bool ends = end == cell.size() || !key_char(cell[end]);
      if (starts && ends) {
        out.push_back(key);
        break;
      }
    }
  }
  return out;
}

Result<std::vector<TableInfo>> data_tables_info() {
  const auto keys = source_keys();
  std::vector<std::string> names;
  for (const auto& file : embedded_data_files())
    if (file.name.ends_with(".csv")) names.emplace_back(file.name);
  std::sort(names.begin(), names.end());
  std::vector<TableInfo> out;
  for (const auto& name : names) {
    auto table = load_table(name);
    if (!table) return std::unexpected(table.error());
    out.push_back(describe(name, *table, keys));
  }
  return out;
}

std::string today() {
  if (const char* fixed = std::getenv("GPUSCOUT_TODAY"); fixed && parse_day(fixed) &&
                                                          std::string_view(fixed).size() == 10)
    return fixed;
  const auto day = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
  const std::chrono::year_month_day ymd{day};
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%04d-%02u-%02u", int(ymd.year()), unsigned(ymd.month()), unsigned(ymd.day()));
  return buffer;
}

std::optional<int64_t> days_between(std::string_view from, std::string_view to) {
  const auto a = parse_day(from);
  const auto b = parse_day(to);
  if (!a || !b) return std::nullopt;
  return (*b - *a).count();
}

}  // namespace gpuscout::core
