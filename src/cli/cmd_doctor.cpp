#include "cli/commands.hpp"
namespace gpuscout::cli {
void add_doctor_command(CLI::App& app, GlobalOptions&) { app.add_subcommand("doctor", "(wip)"); }
void add_info_command(CLI::App& app, GlobalOptions&) { app.add_subcommand("info", "(wip)"); }
void add_device_command(CLI::App& app, GlobalOptions&) { app.add_subcommand("device", "(wip)"); }
void add_internal_commands(CLI::App&, GlobalOptions&) {}
}  // namespace gpuscout::cli
