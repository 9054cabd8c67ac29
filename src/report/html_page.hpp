#pragma once
/// The parts every gpuscout HTML page shares (report --html, fleet --html): one look, one Content-Security-Policy.
#include <string>
#include <string_view>
#include <vector>

namespace gpuscout::report {

/// From <!DOCTYPE> to the opening <body>: the stylesheet, the CSP (no network; scripts only with `nonce`, none when it
/// is ""), the generator and the title (escaped).
std::string html_page_start(std::string_view title, std::string_view version, std::string_view nonce);

/// A table with a header row, every cell escaped, in a box that scrolls sideways on its own (on a phone the table
/// scrolls, the page does not); `css` is the table's class.
std::string html_table(const std::vector<std::string>& head, const std::vector<std::vector<std::string>>& rows,
                       std::string_view css = "");

/// `...` spans of an already escaped text as <code>: fixes name commands that way, and a reader should see code, not
/// backticks. A lone backtick stays as it is.
std::string code_spans(const std::string& escaped);

}  // namespace gpuscout::report
