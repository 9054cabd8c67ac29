#pragma once
/// Escaping for the HTML report. Every piece of text that reaches the page (GPU names, file names, messages,
/// numbers) goes through one of these, so a name like `<script>` shows as text and never runs.
#include <string>
#include <string_view>

#include "core/json.hpp"

namespace gpuscout::report {

/// Valid UTF-8 with each malformed byte replaced by U+FFFD (names read from drivers and files may be anything).
std::string valid_utf8(std::string_view text);
/// Text for element content and quoted attribute values: & < > " ' escaped, control characters other than
/// tab and newline dropped, malformed UTF-8 replaced.
std::string escape_html(std::string_view text);
/// JSON for a <script type="application/json"> block: `<`, `>`, `&`, U+2028 and U+2029 written as \u escapes
/// (valid JSON, and the block can never be closed by the data); malformed UTF-8 replaced.
std::string json_for_script(const nlohmann::ordered_json& value);

}  // namespace gpuscout::report
