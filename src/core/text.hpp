#pragma once
/// Small pure helpers for the line-oriented text that /proc, /sys and driver libraries produce.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscout::text {

std::string_view trim(std::string_view s);
std::vector<std::string_view> split(std::string_view s, char sep);
/// Splits on runs of spaces and tabs, dropping empty fields.
std::vector<std::string_view> split_ws(std::string_view s);
std::string to_lower(std::string_view s);
bool contains_icase(std::string_view haystack, std::string_view needle);
/// Whole-string integer / float parses; nullopt on any junk (no partial reads, no exceptions).
std::optional<long long> parse_int(std::string_view s, int base = 10);
std::optional<unsigned long long> parse_uint(std::string_view s, int base = 10);
std::optional<double> parse_double(std::string_view s);
/// The most CPUs a list may name: Linux's NR_CPUS tops out at 8192 today; 65536 leaves room and bounds
/// the work a hostile list can cause.
inline constexpr long long kMaxCpus = 65536;
/// Parses a CPU list as in /sys and /proc ("0-3,8,10-11", and the kernel's grouped stride "0-15:2/4" = 0,1,4,5,...)
/// into sorted, distinct CPU numbers; nullopt if malformed, if a CPU number is kMaxCpus or more, or if the ranges
/// together span more than kMaxCpus CPUs.
std::optional<std::vector<int>> parse_cpu_list(std::string_view s);
/// The kernel's form of sorted, distinct CPU numbers: {0,1,2,3,8} -> "0-3,8"; "" for none.
std::string format_cpu_list(const std::vector<int>& cpus);
/// Joins with a separator.
std::string join(const std::vector<std::string>& parts, std::string_view sep);

/// A command set in prose: between backticks, which every renderer keeps whole (wrap keeps it on one line, the
/// HTML report makes it <code>), so nothing of the sentence around it is copied with it.
std::string code(std::string_view command);

/// Columns a UTF-8 text takes on a terminal: CJK ideographs, kana, Hangul and full-width forms count two.
size_t display_width(std::string_view s);
/// Wraps `s` to lines of at most `width` columns (a word longer than that keeps its own line), breaking at spaces
/// and between CJK characters; every line after the first starts with `indent`. Lines end with '\n'. The first line
/// starts at `start_column` (what the caller printed before it), by default as wide as the indent.
std::string wrap(std::string_view s, size_t width, std::string_view indent,
                 std::optional<size_t> start_column = std::nullopt);
/// Returns `s` with every invalid UTF-8 sequence replaced by U+FFFD (one per maximal invalid subpart, as
/// Unicode 15 section 3.9 recommends), and NUL, the other C0 control characters except tab/newline, DEL and the C1
/// controls (U+0080..U+009F: U+009B starts a terminal escape sequence) removed.
/// Every string from firmware, drivers, files or a child process goes through this where it enters, so the
/// JSON writer and the terminal only ever see valid text.
std::string clean_utf8(std::string_view s);
/// `s` as a terminal may safely show it on one line: every control character (C0 with tab and newline, DEL, C1)
/// written as an escape ("\n", "\t", "\x1b", "\u009b"), so none can move the cursor or change colours, and invalid
/// UTF-8 replaced as clean_utf8 does. For names from outside: file names, node names, environment values.
/// `keep_newlines`: for a message of several lines that quotes such names (an error message).
std::string visible(std::string_view s, bool keep_newlines = false);
/// The longest prefix of `s` of at most `max_bytes` bytes that does not end inside a UTF-8 sequence.
std::string_view cut_utf8(std::string_view s, size_t max_bytes);
/// The code points of UTF-8 text; clean it first (clean_utf8): an invalid byte yields some code point, never a read
/// past the end.
std::vector<uint32_t> code_points(std::string_view s);

}  // namespace gpuscout::text
