#include "core/csv.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "core/i18n.hpp"
#include "core/text.hpp"

namespace gpuscout::csv {

Table::Table(std::string source, std::vector<std::string> header, std::vector<Row> rows, Position header_at)
    : source_(std::move(source)), header_(std::move(header)), rows_(std::move(rows)), header_at_(header_at) {}

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
  return fail(trf("{}:{}:{}: missing column(s) {} in the header line", source_, header_at_.line,
                          header_at_.column, text::join(missing, ", ")));
}

std::string Table::where(const Row& row, std::string_view name) const {
  const auto c = column(name);
  if (!c || *c >= row.positions.size()) return fmt::format("{}:{}", source_, row.line);
  return fmt::format("{}:{}:{}", source_, row.positions[*c].line, row.positions[*c].column);
}

namespace {

struct Record {
  std::vector<std::string> cells;
  std::vector<Position> positions;
};

/// RFC 4180 state machine over the bytes; records keep where each cell starts.
class Parser {
 public:
  explicit Parser(std::string source) : source_(std::move(source)) {}

  Result<std::vector<Record>> run(std::string_view text) {
    for (size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      if (c == '\0')
        return fail(trf("{}:{}:{}: a NUL byte: this is not a text table (CSV)", source_, line_, column_));
      if (in_quotes_) {
        quoted_char(text, i);
      } else if (auto ok = plain_char(text, i); !ok) {
        return std::unexpected(ok.error());
      }
      // Columns count characters, not the continuation bytes of UTF-8 sequences.
      if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++column_;
    }
    if (in_quotes_) return fail(trf("{}:{}:{}: a quoted cell is never closed", source_, start_.line, start_.column));
    if (!cell_.empty() || !current_.cells.empty() || cell_was_quoted_) end_record();
    return std::move(records_);
  }

 private:
  void quoted_char(std::string_view text, size_t& i) {
    const char c = text[i];
    if (c != '"') {
      cell_ += c;
      if (c == '\n') {
        ++line_;
        column_ = 0;
      }
    } else if (i + 1 < text.size() && text[i + 1] == '"') {
      cell_ += '"';
      ++i;
      ++column_;
    } else {
      in_quotes_ = false;
    }
  }

  Result<void> plain_char(std::string_view text, size_t& i) {
    const char c = text[i];
    if (c == '"') {
      if (!cell_.empty() || cell_was_quoted_)
        return fail(trf("{}:{}:{}: a quote inside an unquoted cell (quote the whole cell and double inner quotes)",
                                source_, line_, column_));
      in_quotes_ = true;
      cell_was_quoted_ = true;
      record_empty_ = false;
    } else if (c == ',') {
      end_cell();
      record_empty_ = false;
      start_ = {line_, column_ + 1};
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      end_record();
      ++line_;
      column_ = 0;
      start_ = {line_, 1};
    } else {
      if (cell_was_quoted_) return fail(trf("{}:{}:{}: text after a closing quote", source_, line_, column_));
      cell_ += c;
      record_empty_ = false;
    }
    return {};
  }

  void end_cell() {
    current_.cells.push_back(text::clean_utf8(cell_));
    current_.positions.push_back(start_);
    cell_.clear();
    cell_was_quoted_ = false;
  }

  void end_record() {
    const bool blank = record_empty_ && current_.cells.empty() && cell_.empty() && !cell_was_quoted_;
    if (!blank) {
      end_cell();
      records_.push_back(std::move(current_));
    }
    current_ = {};
    cell_.clear();
    record_empty_ = true;
    cell_was_quoted_ = false;
  }

  std::string source_;
  std::vector<Record> records_;
  Record current_;
  std::string cell_;
  int line_ = 1;
  int column_ = 1;
  Position start_{1, 1};
  bool in_quotes_ = false;
  bool cell_was_quoted_ = false;
  bool record_empty_ = true;
};

}  // namespace

Result<Table> parse(std::string_view text, std::string source) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // UTF-8 byte order mark from spreadsheet exports
  auto records = Parser(source).run(text);
  if (!records) return std::unexpected(records.error());
  if (records->empty()) return fail(trf("{}:1:1: empty file (expected a header line)", source));
  std::vector<std::string> header;
  for (auto& h : records->front().cells) header.emplace_back(text::trim(h));
  std::vector<Row> rows;
  for (size_t r = 1; r < records->size(); ++r) {
    auto& rec = (*records)[r];
    if (rec.cells.size() != header.size()) {
      // Point at the first surplus cell, or at the last cell of a short row.
      const Position at = rec.positions[std::min(rec.cells.size(), header.size() + 1) - 1];
      return fail(trf("{}:{}:{}: {} cells where the header has {}", source, at.line, at.column,
                              rec.cells.size(), header.size()));
    }
    rows.push_back(Row{rec.positions.front().line, std::move(rec.cells), std::move(rec.positions)});
  }
  const Position header_at = records->front().positions.front();
  return Table(std::move(source), std::move(header), std::move(rows), header_at);
}

namespace {

/// A cell value quoted in a message: long junk (a binary file) is cut at a character boundary.
std::string shown(std::string_view value) {
  constexpr size_t kMax = 40;
  if (value.size() <= kMax) return std::string(value);
  return std::string(text::cut_utf8(value, kMax)) + "...";
}

/// The shortest text for a bound: 10000, not 10000.000000; 1e+15 for huge ones.
std::string bound(double v) { return fmt::format("{}", v); }

bool is_date(std::string_view s, bool month_enough) {
  auto digits = [&](size_t from, size_t n) {
    for (size_t i = from; i < from + n; ++i)
      if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    return true;
  };
  if (s.size() != 10 && !(month_enough && s.size() == 7)) return false;
  if (!digits(0, 4) || s[4] != '-' || !digits(5, 2)) return false;
  const int month = (s[5] - '0') * 10 + (s[6] - '0');
  if (month < 1 || month > 12) return false;
  if (s.size() == 7) return true;
  if (s[7] != '-' || !digits(8, 2)) return false;
  const int day = (s[8] - '0') * 10 + (s[9] - '0');
  return day >= 1 && day <= 31;
}

}  // namespace

std::string_view CellReader::raw(std::string_view column, Need need) {
  const auto value = text::trim(table_.cell(row_, column));
  if (value.empty() && need == Need::required) fail(column, tr("is empty; it must be filled in"));
  return value;
}

void CellReader::fail(std::string_view column, std::string_view what) {
  if (error_) return;
  const auto value = text::trim(table_.cell(row_, column));
  error_ = value.empty() ? fmt::format("{}: {} {}", table_.where(row_, column), column, what)
                         : fmt::format("{}: {} '{}' {}", table_.where(row_, column), column, shown(value), what);
}

Result<void> CellReader::result() const {
  if (error_) return gpuscout::fail(*error_);
  return {};
}

std::string CellReader::text(std::string_view column, Need need) { return std::string(raw(column, need)); }

std::optional<double> CellReader::number(std::string_view column, double min, double max, Need need) {
  const auto value = raw(column, need);
  if (value.empty()) return std::nullopt;
  const auto v = text::parse_double(value);
  // NaN fails both comparisons, so it is refused with the infinities.
  if (!v || !std::isfinite(*v) || !(*v >= min && *v <= max)) {
    fail(column, trf("is not a number from {} to {}", bound(min), bound(max)));
    return std::nullopt;
  }
  return v;
}

std::optional<uint64_t> CellReader::whole(std::string_view column, uint64_t min, uint64_t max, Need need) {
  const auto value = raw(column, need);
  if (value.empty()) return std::nullopt;
  const auto v = text::parse_uint(value);
  if (!v || *v < min || *v > max) {
    fail(column, trf("is not a whole number from {} to {}", min, max));
    return std::nullopt;
  }
  return static_cast<uint64_t>(*v);
}

std::optional<Version> CellReader::version(std::string_view column, size_t min_parts, size_t max_parts,
                                           std::string_view example, Need need) {
  const auto value = raw(column, need);
  if (value.empty()) return std::nullopt;
  auto v = Version::parse(value);
  if (!v || !v->suffix().empty() || v->parts().size() < min_parts || v->parts().size() > max_parts) {
    fail(column, trf("is not a version like {}", example));
    return std::nullopt;
  }
  return v;
}

std::string CellReader::date(std::string_view column, bool month_enough, Need need) {
  const auto value = raw(column, need);
  if (value.empty()) return {};
  if (!is_date(value, month_enough)) {
    fail(column, month_enough ? tr("is not a date like 2025-04 or 2025-04-23") : tr("is not a date like 2025-04-23"));
    return {};
  }
  return std::string(value);
}

std::string CellReader::one_of(std::string_view column, std::initializer_list<std::string_view> allowed) {
  const auto value = raw(column, Need::optional);
  for (const auto a : allowed)
    if (value == a) return std::string(value);
  std::vector<std::string> names(allowed.begin(), allowed.end());
  fail(column, trf("is not one of {}", text::join(names, ", ")));
  return {};
}

}  // namespace gpuscout::csv
