#include "core/json_position.hpp"

#include <iterator>

#include <fmt/format.h>

#include "core/i18n.hpp"
#include "core/text.hpp"

namespace gpuscout::core {
namespace {

using nlohmann::json;

/// A `const char*` that reports how far the parser has read: nlohmann reads its input one character at a time
/// through the iterator (one character past a number), so `*consumed` is where the last token ended.
struct CountingIterator {
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  const char* at = nullptr;
  const char* begin = nullptr;
  size_t* consumed = nullptr;

  reference operator*() const { return *at; }
  CountingIterator& operator++() {
    ++at;
    *consumed = static_cast<size_t>(at - begin);
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator before = *this;
    ++*this;
    return before;
  }
  friend bool operator==(const CountingIterator& a, const CountingIterator& b) { return a.at == b.at; }
};

TextPosition position_of(std::string_view text, size_t offset) {
  TextPosition p;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++p.line;
      p.column = 1;
    } else if ((c & 0xC0) != 0x80) {  // continuation bytes belong to the character before
      ++p.column;
    }
  }
  return p;
}

/// Follows the parse, keeping the path of the value being read, and notes where the wanted value starts and
/// where (and why) the text stops being JSON.
class Locator : public nlohmann::json_sax<json> {
 public:
  Locator(std::string_view text, const JsonPath* wanted) : text_(text), wanted_(wanted) {}

  size_t consumed = 0;  // written by CountingIterator
  std::optional<size_t> found;
  std::optional<TextPosition> error_at;
  std::string error;

  bool null() override { return scalar(); }
  bool boolean(bool) override { return scalar(); }
  bool number_integer(number_integer_t) override { return scalar(); }
  bool number_unsigned(number_unsigned_t) override { return scalar(); }
  bool number_float(number_float_t, const string_t&) override { return scalar(); }
  bool string(string_t&) override { return scalar(); }
  bool binary(binary_t&) override { return scalar(); }
  bool start_object(std::size_t) override { return open(false); }
  bool key(string_t& k) override {
    frames_.back().key = k;
    last_end_ = consumed;
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(true); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string& token, const nlohmann::detail::exception& ex) override;

 private:
  struct Frame {
    bool array = false;
    size_t count = 0;  // elements begun so far (arrays)
    std::string key;   // the key being read (objects)
  };

  void value_begins() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().count;
    if (found || !wanted_ || frames_.size() != wanted_->size()) return;
    for (size_t i = 0; i < frames_.size(); ++i) {
      const auto& f = frames_[i];
      const auto& step = (*wanted_)[i];
      const bool same = f.array ? (std::holds_alternative<size_t>(step) && std::get<size_t>(step) == f.count - 1)
                                : (std::holds_alternative<std::string>(step) && std::get<std::string>(step) == f.key);
      if (!same) return;
    }
    // The value's first character: past the separators that came after the previous token.
    size_t at = last_end_;
    while (at < text_.size() && (text_[at] == ' ' || text_[at] == '\t' || text_[at] == '\n' || text_[at] == '\r' ||
                                 text_[at] == ':' || text_[at] == ','))
      ++at;
    found = at;
  }
  bool scalar() {
    value_begins();
    last_end_ = consumed;
    return true;
  }
  bool open(bool array) {
    value_begins();
    frames_.push_back(Frame{array, 0, {}});
    last_end_ = consumed;
    return true;
  }
  bool close() {
    if (!frames_.empty()) frames_.pop_back();
    last_end_ = consumed;
    return true;
  }

  std::string_view text_;
  const JsonPath* wanted_;
  std::vector<Frame> frames_;
  size_t last_end_ = 0;
};

bool Locator::parse_error(std::size_t, const std::string& token, const nlohmann::detail::exception& ex) {
  // nlohmann's what() is "[json.exception.parse_error.101] parse error at line 1, column 5: REASON".
  std::string why = ex.what();
  if (const auto bracket = why.find("] "); bracket != std::string::npos) why = why.substr(bracket + 2);
  if (why.starts_with("parse error"))
    if (const auto colon = why.find(": "); colon != std::string::npos) why = why.substr(colon + 2);
  if (ex.id == 406) why = fmt::format("the number {} is too large", token);  // out_of_range.406: 1e999
  else why = "not valid JSON (truncated or damaged?): " + why;
  error = text::clean_utf8(why);  // the message quotes the last bytes read
  // The error is about the token just read; point at its start, found as for a value.
  size_t at = last_end_;
  while (at < text_.size() && at < consumed &&
         (text_[at] == ' ' || text_[at] == '\t' || text_[at] == '\n' || text_[at] == '\r' || text_[at] == ':' ||
          text_[at] == ','))
    ++at;
  error_at = position_of(text_, at);
  return false;
}

Locator run(std::string_view text, const JsonPath* wanted) {
  Locator locator(text, wanted);
  const CountingIterator first{text.data(), text.data(), &locator.consumed};
  const CountingIterator last{text.data() + text.size(), text.data(), &locator.consumed};
  json::sax_parse(first, last, &locator);
  return locator;
}

}  // namespace

std::string to_string(const JsonPath& path) {
  if (path.empty()) return "(the whole document)";
  std::string out;
  for (const auto& step : path) {
    if (const auto* index = std::get_if<size_t>(&step)) {
      out += fmt::format("[{}]", *index);
    } else {
      if (!out.empty()) out += '.';
      out += std::get<std::string>(step);
    }
  }
  return out;
}

std::optional<TextPosition> too_deep(std::string_view text, size_t limit) {
  size_t depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;  // the escaped character, whatever it is
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return position_of(text, i);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

std::string too_deep_message(const TextPosition& at) {
  return trf("line {} column {}: nested more than {} levels deep, deeper than any document gpuscout reads", at.line,
             at.column, kMaxJsonDepth);
}

Result<json> parse_json(std::string_view text) {
  if (const auto at = too_deep(text)) return fail(too_deep_message(*at));
  json doc;
  try {
    doc = json::parse(text);
    return doc;
  } catch (const json::exception&) {
    // Read again with positions; the first pass's message lacks them for some errors (number overflow).
  }
  const Locator failed = run(text, nullptr);
  if (!failed.error_at) return fail("not valid JSON");
  return fail(fmt::format("line {} column {}: {}", failed.error_at->line, failed.error_at->column, failed.error));
}

std::optional<TextPosition> locate_json_value(std::string_view text, const JsonPath& path) {
  const Locator located = run(text, &path);
  if (!located.found) return std::nullopt;
  return position_of(text, *located.found);
}

}  // namespace gpuscout::core
