#pragma once
/// Every subcommand in one table (as in ninja's tool table), so help and dispatch cannot drift.
/// A command file defines one `add_*_command` that declares its options on its CLI11 subcommand
/// and sets the callback; the callback returns the process exit code through `GlobalOptions::exit_code`.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace gpuscout::cli {

struct GlobalOptions {
  std::string data_dir;  ///< --data DIR: tables that replace the built-in ones
  int exit_code = 0;
};

void add_doctor_command(CLI::App& app, GlobalOptions& global);
void add_info_command(CLI::App& app, GlobalOptions& global);
void add_device_command(CLI::App& app, GlobalOptions& global);
void add_bench_command(CLI::App& app, GlobalOptions& global);
void add_fit_command(CLI::App& app, GlobalOptions& global);
void add_advise_command(CLI::App& app, GlobalOptions& global);
void add_platforms_command(CLI::App& app, GlobalOptions& global);
void add_report_command(CLI::App& app, GlobalOptions& global);
void add_explain_command(CLI::App& app, GlobalOptions& global);
void add_query_command(CLI::App& app, GlobalOptions& global);
void add_completion_command(CLI::App& app, GlobalOptions& global);
void add_data_command(CLI::App& app, GlobalOptions& global);
void add_fleet_command(CLI::App& app, GlobalOptions& global);
/// `fleet --slurm ARGS...`: every argument after --slurm is srun's, so a "--" goes behind it before parsing (CLI11
/// would read srun's -p or -N as gpuscout's own).
void separate_launcher_arguments(std::vector<std::string>& args);
void add_internal_commands(CLI::App& app, GlobalOptions& global);

struct CommandEntry {
  void (*add)(CLI::App&, GlobalOptions&);
};

/// Order here is the order in `gpuscout --help`.
inline constexpr CommandEntry kCommands[] = {
    {add_doctor_command}, {add_info_command},      {add_device_command},   {add_bench_command},
    {add_fit_command},    {add_advise_command},    {add_platforms_command}, {add_report_command},
    {add_explain_command}, {add_query_command},     {add_fleet_command},      {add_data_command},
    {add_completion_command},
    {add_internal_commands},
};

}  // namespace gpuscout::cli
