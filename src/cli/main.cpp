// gpuscout: what do I have, can PyTorch use it, how fast is it, what fits, what to buy.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/environment.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "advise/advise.hpp"
#include "bench/openblas_cores.hpp"
#include "plan/cuda_context.hpp"
#include "catalog/catalog.hpp"
#include "core/data_files.hpp"
#include "core/error.hpp"
#include "core/i18n.hpp"
#include "core/text.hpp"
#include "os/lifetime.hpp"
#include "os/process.hpp"
#include "os/system.hpp"
#include "plan/catalogue.hpp"

namespace {

using namespace gpuscout;  // NOLINT: this file is the program's entry point

/// With tables from --data DIR or GPUSCOUT_DATA_DIR, every table is read once before any command runs: a bad cell
/// is the user's input error, named by file, line and column (exit 2), never an empty catalogue met mid-command.
/// The built-in tables are checked by the tests, so without an override there is nothing to check.
void check_data_override(const std::string& flag_dir) {
  const std::string dir = core::data_dir();
  if (dir.empty()) return;
  const std::string label = flag_dir.empty() ? "GPUSCOUT_DATA_DIR=" + dir : "--data " + dir;
  const auto problem = [&]() -> std::optional<std::string> {
    if (auto ok = core::check_data_dir(dir); !ok) return ok.error().message;
    if (const auto errors = catalog::load_errors(); !errors.empty()) return errors.front();
    if (auto models = plan::load_catalogue(); !models) return models.error().message;
    if (auto offers = advise::load_offers(); !offers) return offers.error().message;
    if (auto rates = advise::load_rates(); !rates) return rates.error().message;
    if (auto cores = bench::openblas_cores_error(); !cores.empty()) return cores;
    if (auto context = plan::cuda_context_error(); !context.empty()) return context;
    return std::nullopt;
  }();
  if (problem) throw UsageError(fmt::format("{}: {}", label, *problem));
}

/// Where `doctor` goes when no command is named: after the main app's own leading options and the values they take
/// (as CLI11 declares them, so a new global option needs no edit here), before the first other word.
/// nullopt when a command is there, or --help/--version asks for the main app's answer.
std::optional<size_t> default_command_position(const CLI::App& app, const CLI::Option* version,
                                               const std::vector<std::string>& args) {
  size_t i = 0;
  while (i < args.size()) {
    const std::string& arg = args[i];
    if (arg.size() < 2 || arg[0] != '-') {
      for (const auto* sub : app.get_subcommands({}))
        if (sub->check_name(arg)) return std::nullopt;
      return i;
    }
    const auto eq = arg.find('=');
    const CLI::Option* opt = app.get_option_no_throw(arg.substr(0, eq));
    if (!opt) return i;  // a command's option (`gpuscout --json`): the command goes before it
    if (opt == app.get_help_ptr() || opt == app.get_help_all_ptr() || opt == version) return std::nullopt;
    i += (eq == std::string::npos && opt->get_items_expected_max() > 0) ? 2 : 1;
  }
  return std::min(i, args.size());
}

/// `gpuscout --data-info` is the `data` command: the main app's flag only, not after a command's name or "--".
void rewrite_data_info(const CLI::App& app, std::vector<std::string>& args) {
  const auto names_command = [&](const std::string& word) {
    for (const auto* sub : app.get_subcommands({}))
      if (sub->check_name(word)) return true;
    return false;
  };
  for (auto& arg : args) {
    if (arg == "--" || names_command(arg)) return;
    if (arg == "--data-info") {
      arg = "data";
      return;
    }
  }
}

/// Declared so that --help shows it; CLI11 sees it only after a command's name (rewrite_data_info turns the
/// leading one into `data`), where it is an error.
void add_data_info_flag(CLI::App& app) {
  app.add_flag_callback(
      "--data-info", [] { throw CLI::ValidationError("--data-info", tr("it goes first: gpuscout --data-info")); },
      tr("Show how old the built-in tables are and exit (the `data` command)"));
}

/// The language is chosen before the command table is built, since CLI11 stores each option's help text when it is
/// added: `--lang X` / `--lang=X` anywhere before `--`, else the environment (i18n::from_environment).
void choose_language(const std::vector<std::string>& args) {
  std::optional<std::string> flag;
  for (size_t i = 0; i < args.size() && args[i] != "--"; ++i) {
    if (args[i] == "--lang" && i + 1 < args.size()) flag = args[i + 1];
    else if (args[i].starts_with("--lang=")) flag = args[i].substr(7);
  }
  i18n::Language wanted = i18n::from_environment([](const char* name) { return std::getenv(name); });
  if (flag) {
    const auto parsed = i18n::parse_language(*flag);
    if (!parsed) throw UsageError(trf("--lang '{}': use zh (中文) or en (English)", *flag));
    wanted = *parsed;
  }
  i18n::use(wanted);
}

/// CLI11's own words in --help (its labels and the help flag's line), in the user's language. Subcommands share
/// the formatter and copy the help flag, so setting them on the main app before the commands are added is enough.
void translate_help_labels(CLI::App& app) {
  app.option_defaults()->group(tr("Options"));
  app.set_help_flag("-h,--help", tr("Print this help message and exit"));
  const auto& f = app.get_formatter();
  for (const char* label : {N_("Usage"), N_("OPTIONS"), N_("SUBCOMMAND"), N_("SUBCOMMANDS"), N_("REQUIRED"),
                            N_("Needs"), N_("Excludes"), N_("Positionals")})
    f->label(label, tr(label));
}

/// The main app's own options, beside the commands' (CLI11 lets them follow a command's name too).
struct MainOptions {
  std::string lang;  ///< read by choose_language before parsing; declared so that --help shows it
  std::string color = "auto";
  bool force = false;
};

void add_main_options(CLI::App& app, cli::GlobalOptions& global, MainOptions& o) {
  // The folder is checked with the tables in it (check_data_override), the same way for GPUSCOUT_DATA_DIR.
  app.add_option("--data", global.data_dir,
                 tr("Folder of data tables (CSV) that replace the built-in ones, file by file (also "
                    "GPUSCOUT_DATA_DIR)"))
      ->type_name("DIR");
  app.add_option("--lang", o.lang, tr("Language of the output: zh (中文) or en; default from LANGUAGE, LC_ALL, "
                                      "LC_MESSAGES, LANG"));
  app.add_option("--color", o.color, tr("Colour the text output: auto (on a terminal, unless NO_COLOR is set or "
                                        "TERM=dumb), always or never"))
      ->type_name("WHEN")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_flag("--force", o.force, tr("Replace the files that --save, --html and --markdown name even when they are "
                                      "read-only"));
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gpuscout;
  std::vector<std::string> all_args = os::program_arguments(argc, argv);
  if (all_args.empty()) all_args.push_back("gpuscout");
  // A driver probe's child (Windows re-runs gpuscout.exe for it): answered before anything else is set up.
  if (const auto code = os::run_isolated_if_asked(all_args)) return *code;
  os::guard_children();  // before any child exists: a signal or a kill never leaves one behind
  os::prepare_console();
  try {
    choose_language(std::vector<std::string>(all_args.begin() + 1, all_args.end()));
  } catch (const UsageError& e) {
    fmt::print(stderr, "{}\n", trf("gpuscout: error: {}", e.what()));
    return 2;
  }
  CLI::App app{tr("gpuscout: your machine for deep learning: what you have, whether PyTorch can use it, how fast it "
                  "is,\nwhat model fits, and what to buy or rent. With no command, runs `doctor`."),
               "gpuscout"};
  translate_help_labels(app);
  const CLI::Option* version = app.set_version_flag("--version", std::string("gpuscout ") + GPUSCOUT_VERSION,
                                                     tr("Display program version information and exit"));
  cli::GlobalOptions global;
  MainOptions main_options;
  add_main_options(app, global, main_options);
  add_data_info_flag(app);
  app.require_subcommand(0, 1);
  app.fallthrough();
  for (const auto& entry : cli::kCommands) entry.add(app, global);
  for (CLI::App* sub : app.get_subcommands({})) {
    if (!sub->get_group().empty()) sub->group(tr("Subcommands"));  // an empty group: a hidden command
    // A subcommand copies the help flag before the option defaults, so its -h,--help would sit alone under
    // CLI11's English "Options" heading.
    if (CLI::Option* help = sub->get_help_ptr()) help->group(tr("Options"));
  }
  cli::refuse_empty_values(app);  // every option, every command: "--vram " is an error, not "not given"
  app.parse_complete_callback([&] {
    cli::set_color_choice(main_options.color);
    cli::set_replace_read_only(main_options.force);
    cli::check_environment();
    if (!global.data_dir.empty()) core::set_data_dir(global.data_dir);
    check_data_override(global.data_dir);
  });

  try {
    // `gpuscout` and `gpuscout --json` mean `gpuscout doctor [...]`.
    std::vector<std::string> args(all_args.begin() + 1, all_args.end());
    rewrite_data_info(app, args);
    cli::separate_launcher_arguments(args);
    if (const auto at = default_command_position(app, version, args))
      args.insert(args.begin() + static_cast<std::ptrdiff_t>(*at), "doctor");
    std::reverse(args.begin(), args.end());
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  } catch (const UsageError& e) {
    std::fflush(stdout);
    // The message may quote what the user gave (a file name, a variable's value): shown, never obeyed.
    fmt::print(stderr, "{}\n", trf("gpuscout: error: {}", text::visible(e.what(), /*keep_newlines=*/true)));
    return 2;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    fmt::print(stderr, "{}\n", trf("gpuscout: internal error: {}", e.what()));
    return 1;
  }
  // A full disk or a closed pipe behind stdout must not look like success (as coreutils' close_stdout).
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    fmt::print(stderr, "{}\n", trf("gpuscout: error: cannot write the output: {}", std::strerror(errno ? errno : EIO)));
    return 2;
  }
  return global.exit_code;
}
