// Placeholder: replaced by the advise command's implementation (issue tracker). Registers the name only.
#include "cli/commands.hpp"
#include "core/error.hpp"

namespace gpuscout::cli {
void add_advise_command(CLI::App& app, GlobalOptions& global) {
  auto* sub = app.add_subcommand("advise", "(not built yet)");
  sub->callback([&global] {
    global.exit_code = 2;
    throw UsageError("'advise' is not available in this build yet");
  });
}
}  // namespace gpuscout::cli
