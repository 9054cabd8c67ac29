#pragma once
/// Whether text output is coloured: decided once, here, from --color and the environment.
#include <optional>
#include <string_view>

namespace gpuscout::core {

enum class ColorChoice { automatic, always, never };

/// "auto", "always", "never" (--color's values); nullopt for anything else.
std::optional<ColorChoice> parse_color_choice(std::string_view text);

/// always and never are the user's word. auto colours only a terminal, and not when NO_COLOR is set to a non-empty
/// value (no-color.org) or TERM is "dumb" (Emacs' shell, some CI logs). `no_color` and `term` are the variables'
/// values, nullptr when unset.
bool color_wanted(ColorChoice choice, bool stdout_terminal, const char* no_color, const char* term);

}  // namespace gpuscout::core
