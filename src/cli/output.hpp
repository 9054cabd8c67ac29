#pragma once
/// Every command's standard output goes through here: a renderer's text exactly as given (no newline added),
/// flushed at once so it comes before anything the command writes to stderr afterwards.
#include <cstdio>
#include <string>
#include <string_view>

namespace gpuscout::cli {

/// --color=auto|always|never, set once by main before a command runs.
void set_color_choice(std::string_view choice);
/// Whether this run's text output is coloured: the one decision (core::color_wanted over --color, the terminal,
/// NO_COLOR and TERM).
bool color_output();

inline void print(std::string_view text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

/// print() for a command's text output (doctor, info, fit, advise, bench; never JSON): the text, then one line
/// naming the glossary terms it used and how to look them up (report::glossary_pointer), once per run.
void print_text(std::string_view text);

/// Writes a file the user asked for (--html, --markdown, --save) whole or not at all (os::write_file_atomic);
/// when it cannot, a UsageError (exit 2) that starts with the option naming the file.
void write_output_file(const std::string& path, const std::string& text, std::string_view option);
/// --force: files the user made read-only may be replaced (off: they are refused, os::check_write_target).
void set_replace_read_only(bool replace);
bool replace_read_only();

}  // namespace gpuscout::cli
