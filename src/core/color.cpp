#include "core/color.hpp"

#include <string_view>

namespace gpuscout::core {

std::optional<ColorChoice> parse_color_choice(std::string_view text) {
  if (text == "auto") return ColorChoice::automatic;
  if (text == "always") return ColorChoice::always;
  if (text == "never") return ColorChoice::never;
  return std::nullopt;
}

bool color_wanted(ColorChoice choice, bool stdout_terminal, const char* no_color, const char* term) {
  if (choice != ColorChoice::automatic) return choice == ColorChoice::always;
  if (no_color && *no_color) return false;
  if (term && std::string_view(term) == "dumb") return false;
  return stdout_terminal;
}

}  // namespace gpuscout::core
