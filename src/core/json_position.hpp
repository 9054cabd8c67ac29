#pragma once
/// Line and column numbers for JSON documents a person wrote or edited (--from FILE, saved benchmarks), so an
/// error can say where to look: "FILE: line 12 column 30: ...". nlohmann::json keeps no positions, so these
/// helpers read the text again with its SAX parser, only when there is an error to report.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/error.hpp"
#include "core/json.hpp"

namespace gpuscout::core {

/// One step from a document's root: an object key or an array index.
using JsonStep = std::variant<std::string, size_t>;
using JsonPath = std::vector<JsonStep>;

/// "gpus[0].compute_capability"; "(the whole document)" for the root.
std::string to_string(const JsonPath& path);

/// 1-based; the column counts characters (UTF-8 code points), as an editor does.
struct TextPosition {
  size_t line = 1;
  size_t column = 1;
};

/// The deepest nesting of arrays and objects gpuscout reads. Its own documents nest 6 levels, a model's config.json
/// about 4; nlohmann::json frees and converts a value recursively, so a document nested 100,000 levels deep (a
/// hostile --from file, or a node's answer to fleet) would overflow the stack: such a document is refused before
/// it is parsed.
inline constexpr size_t kMaxJsonDepth = 128;

/// Where `text` first nests deeper than `limit` (brackets outside strings), or nullopt. One linear pass, no
/// recursion; it does not check that the text is JSON.
std::optional<TextPosition> too_deep(std::string_view text, size_t limit = kMaxJsonDepth);
/// The error for it: "line L column C: nested more than 128 levels deep".
std::string too_deep_message(const TextPosition& at);

/// Parses `text` as strict JSON, refusing one nested deeper than kMaxJsonDepth. The error reads "line L column C: REASON" (REASON without nlohmann's
/// exception prefix); a number too large for a double ("1e999") is such an error, not an exception.
Result<nlohmann::json> parse_json(std::string_view text);

/// Where the value at `path` starts in `text`, or nullopt when the text is not JSON or has no such value.
std::optional<TextPosition> locate_json_value(std::string_view text, const JsonPath& path);

}  // namespace gpuscout::core
