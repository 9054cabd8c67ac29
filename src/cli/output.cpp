#include "cli/output.hpp"

#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "core/color.hpp"
#include "core/error.hpp"
#include "os/system.hpp"

#include "report/glossary_render.hpp"

namespace gpuscout::cli {
namespace {
core::ColorChoice g_color = core::ColorChoice::automatic;
bool g_replace_read_only = false;
}  // namespace

void set_color_choice(std::string_view choice) {
  if (const auto parsed = core::parse_color_choice(choice)) g_color = *parsed;
}

bool color_output() {
  return core::color_wanted(g_color, os::stdout_is_terminal(), std::getenv("NO_COLOR"), std::getenv("TERM"));
}

void print_text(std::string_view text) {
  static bool pointed = false;  // one pointer per run, however many texts a command prints
  print(text);
  if (pointed) return;
  const std::string pointer = report::glossary_pointer(text);
  if (pointer.empty()) return;
  pointed = true;
  print(text.empty() || text.back() == '\n' ? "\n" + pointer : "\n\n" + pointer);
}

void set_replace_read_only(bool replace) { g_replace_read_only = replace; }
bool replace_read_only() { return g_replace_read_only; }

void write_output_file(const std::string& path, const std::string& text, std::string_view option) {
  if (auto ok = os::write_file_atomic(path, text, g_replace_read_only); !ok) throw UsageError(fmt::format("{} {}", option, ok.error().message));
}

}  // namespace gpuscout::cli
