// completion: the shell completion scripts; and the hidden generator the build runs for the installed files.
#include <filesystem>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "cli/shell_docs.hpp"
#include "core/error.hpp"
#include "core/i18n.hpp"
#include "os/system.hpp"

namespace gpuscout::cli {
namespace {

void write_or_fail(const std::filesystem::path& path, const std::string& text) {
  if (auto ok = os::write_file_atomic(path.string(), text); !ok)
    throw UsageError(fmt::format("{}: {}", path.string(), ok.error().message));
}

}  // namespace

void add_completion_command(CLI::App& app, GlobalOptions& global) {
  auto* sub = app.add_subcommand("completion", tr("Print the shell completion script: bash, zsh or fish"));
  auto shell = std::make_shared<std::string>();
  sub->add_option("shell", *shell, tr("bash, zsh or fish"))
      ->required()
      ->check(CLI::IsMember({"bash", "zsh", "fish"}));
  sub->callback([&app, shell, &global] {
    print(*shell == "bash" ? bash_completion(app) : *shell == "zsh" ? zsh_completion(app) : fish_completion(app));
    global.exit_code = 0;
  });

  // The build runs `gpuscout --lang en __generate-files DIR` (hidden: an empty group) for what `cmake --install` puts
  // in place: the man page and the three completion scripts, from the same table as --help.
  auto* gen = app.add_subcommand("__generate-files", "")->group("");
  auto dir = std::make_shared<std::string>();
  gen->add_option("dir", *dir)->required();
  gen->callback([&app, dir, &global] {
    const std::filesystem::path out(*dir);
    write_or_fail(out / "gpuscout.1", man_page(app));
    write_or_fail(out / "gpuscout.bash", bash_completion(app));
    write_or_fail(out / "_gpuscout", zsh_completion(app));
    write_or_fail(out / "gpuscout.fish", fish_completion(app));
    global.exit_code = 0;
  });
}

}  // namespace gpuscout::cli
