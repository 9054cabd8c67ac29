#pragma once
/// Checks on option values, declared where the option is and applied by CLI11 while parsing, so a bad value is
/// refused (exit 2, "--gpus: ...") before any work starts. CLI11's own conversions are too lenient for a user's
/// typing: "nan" passes its Range (every comparison with NaN is false), "-1" becomes 18446744073709551615 for an
/// unsigned option, "010" is read as octal 8, and an empty value is taken as "not given".
#include <cstdint>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

namespace gpuscout::cli {

/// A whole number written in decimal digits, from `min` to `max` (both included): --gpus, --batch, --top. Apply it
/// with `->transform(...)`, not `->check(...)`: it rewrites the value without leading zeros, and CLI11 lets only a
/// transform change the value it then converts.
CLI::Validator whole_number(uint64_t min, uint64_t max);
/// A finite number from `min` to `max`; above `min` only when `min_excluded` (--hours-per-week above 0).
CLI::Validator finite_number(double min, double max, bool min_excluded = false);
/// Refuses an empty value ("--vram: empty value") for every option of `app` and of all its subcommands that takes
/// a value. Called once on the whole command table, so an option added later is covered without a line of its own.
void refuse_empty_values(CLI::App& app);

/// A card's memory as typed for --vram or --need-vram: a number and a unit, G/GiB = 2^30 bytes and GB = 10^9 (also
/// M, T and their MiB/MB, TiB/TB forms; core/units.hpp). A bare number is refused: "16" could be 16 bytes or
/// 16 GB, so the UsageError (exit 2) names `option` and suggests "16G".
struct MemorySize {
  uint64_t bytes = 0;
  std::string reading;  ///< what was read, in words: "16 GB = 14.9 GiB" (decimal) or "16 GiB"
};
MemorySize parse_memory_size(std::string_view text, std::string_view option);

/// --python PATH on a command that probes: the interpreter to ask about PyTorch. It must be an executable file; a
/// name without '/' ("python3.12") is looked up on PATH and replaced by the path found. `no_python` (--no-python)
/// cannot be given with it.
CLI::Option* add_python_option(CLI::App& sub, std::string& python, CLI::Option* no_python);

}  // namespace gpuscout::cli
