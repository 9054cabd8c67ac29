// gpuscout: what do I have, can PyTorch use it, how fast is it, what fits, what to buy.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "core/data_files.hpp"
#include "core/error.hpp"

int main(int argc, char** argv) {
  using namespace gpuscout;
  CLI::App app{"gpuscout: your machine for deep learning: what you have, whether PyTorch can use it, how fast it is,\n"
               "what model fits, and what to buy or rent. With no command, runs `doctor`.", "gpuscout"};
  app.set_version_flag("--version", std::string("gpuscout ") + GPUSCOUT_VERSION);
  cli::GlobalOptions global;
  app.add_option("--data", global.data_dir, "Directory of data tables (CSV) that replace the built-in ones")
      ->check(CLI::ExistingDirectory);
  app.require_subcommand(0, 1);
  app.fallthrough();
  for (const auto& entry : cli::kCommands) entry.add(app, global);
  cli::refuse_empty_values(app);  // every option, every command: "--vram ''" is an error, not "not given"
  app.parse_complete_callback([&] {
    if (!global.data_dir.empty()) core::set_data_dir(global.data_dir);
  });

  try {
    // `gpuscout` and `gpuscout --json` mean `gpuscout doctor [...]`.
    std::vector<std::string> args(argv + 1, argv + argc);
    const bool has_command = [&] {
      for (const auto& a : args) {
        if (a.empty() || a[0] == '-') continue;
        for (const auto* sub : app.get_subcommands({})) {
          if (sub->check_name(a)) return true;
        }
        return false;
      }
      return false;
    }();
    const bool wants_help_or_version = [&] {
      for (const auto& a : args)
        if (a == "-h" || a == "--help" || a == "--version" || a == "--help-all") return true;
      return false;
    }();
    if (!has_command && !wants_help_or_version) {
      // Keep global options (and their values) before the inserted command name.
      size_t insert_at = 0;
      while (insert_at < args.size() && args[insert_at] == "--data") insert_at += 2;
      args.insert(args.begin() + static_cast<long>(std::min(insert_at, args.size())), "doctor");
    }
    std::reverse(args.begin(), args.end());
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  } catch (const UsageError& e) {
    std::fflush(stdout);
    fmt::print(stderr, "gpuscout: error: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    fmt::print(stderr, "gpuscout: internal error: {}\n", e.what());
    return 1;
  }
  // A full disk or a closed pipe behind stdout must not look like success (as coreutils' close_stdout).
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    fmt::print(stderr, "gpuscout: error: cannot write the output: {}\n", std::strerror(errno ? errno : EIO));
    return 2;
  }
  return global.exit_code;
}
