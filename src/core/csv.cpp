#include "core/csv.hpp"

#include <fmt/format.h>

#include "core/text.hpp"

namespace gpuscout::csv {

Table::Table(std::string source, std::vector<std::string> header, std::vector<Row> rows)
    : source_(std::move(source)), header_(std::move(header)), rows_(std::move(rows)) {}

std::optional<size_t> Table::column(std::string_view name) const {
  for (size_t i = 0; i < header_.size(); ++i)
    if (header_[i] == name) return i;
  return std::nullopt;
}

std::string_view Table::cell(const Row& row, std::string_view name) const {
  const auto c = column(name);
  if (!c || *c >= row.cells.size()) return {};
  return row.cells[*c];
}

Result<void> Table::require_columns(const std::vector<std::string>& names) const {
  std::vector<std::string> missing;
  for (const auto& n : names)
    if (!column(n)) missing.push_back(n);
  if (missing.empty()) return {};
  return fail(fmt::format("{}: missing column(s) {} in the header line", source_, text::join(missing, ", ")));
}

Result<Table> parse(std::string_view text, std::string source) {
  std::vector<std::vector<std::string>> records;
  std::vector<int> record_lines;
  std::vector<std::string> current;
  std::string cell;
  int line = 1;
  int column = 1;
  int record_line = 1;
  bool in_quotes = false;
  bool cell_was_quoted = false;
  bool record_empty = true;

  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // UTF-8 byte order mark from spreadsheet exports
  auto end_record = [&] {
    current.push_back(std::move(cell));
    cell.clear();
    const bool blank = record_empty && current.size() == 1 && current[0].empty();
    if (!blank) {
      records.push_back(std::move(current));
      record_lines.push_back(record_line);
    }
    current.clear();
    record_empty = true;
    cell_was_quoted = false;
  };

  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_quotes) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          cell += '"';
          ++i;
          ++column;
        } else {
          in_quotes = false;
        }
      } else {
        cell += c;
        if (c == '\n') {
          ++line;
          column = 0;
        }
      }
      ++column;
      continue;
    }
    if (c == '"') {
      if (!cell.empty() || cell_was_quoted)
        return fail(fmt::format("{}:{}:{}: a quote inside an unquoted cell (quote the whole cell and double inner quotes)",
                                source, line, column));
      in_quotes = true;
      cell_was_quoted = true;
      record_empty = false;
    } else if (c == ',') {
      current.push_back(std::move(cell));
      cell.clear();
      cell_was_quoted = false;
      record_empty = false;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      end_record();
      ++line;
      column = 0;
      record_line = line;
    } else {
      if (cell_was_quoted)
        return fail(fmt::format("{}:{}:{}: text after a closing quote", source, line, column));
      cell += c;
      record_empty = false;
    }
    ++column;
  }
  if (in_quotes) return fail(fmt::format("{}:{}: a quoted cell is never closed", source, record_line));
  if (!cell.empty() || !current.empty() || cell_was_quoted) end_record();

  if (records.empty()) return fail(fmt::format("{}: empty file (expected a header line)", source));
  std::vector<std::string> header;
  for (auto& h : records[0]) header.emplace_back(text::trim(h));
  std::vector<Row> rows;
  for (size_t r = 1; r < records.size(); ++r) {
    if (records[r].size() != header.size())
      return fail(fmt::format("{}:{}: {} cells where the header has {}", source, record_lines[r], records[r].size(),
                              header.size()));
    rows.push_back(Row{record_lines[r], std::move(records[r])});
  }
  return Table(std::move(source), std::move(header), std::move(rows));
}

}  // namespace gpuscout::csv
