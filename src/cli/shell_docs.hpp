#pragma once
/// Shell completions (bash, zsh, fish) and the man page, written from the CLI11 command table itself: a command or
/// option added to the table appears in all four without a second list to keep.
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

namespace gpuscout::cli {

std::string bash_completion(const CLI::App& root);
std::string zsh_completion(const CLI::App& root);
std::string fish_completion(const CLI::App& root);
/// gpuscout.1 in man(7) roff.
std::string man_page(const CLI::App& root);

}  // namespace gpuscout::cli
