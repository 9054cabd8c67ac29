#include "cli/output.hpp"

#include <string>

#include "report/glossary_render.hpp"

namespace gpuscout::cli {

void print_text(std::string_view text) {
  static bool pointed = false;  // one pointer per run, however many texts a command prints
  print(text);
  if (pointed) return;
  const std::string pointer = report::glossary_pointer(text);
  if (pointer.empty()) return;
  pointed = true;
  print(text.empty() || text.back() == '\n' ? "\n" + pointer : "\n\n" + pointer);
}

}  // namespace gpuscout::cli
