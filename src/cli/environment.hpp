#pragma once
/// The environment variables that stand in for a flag, checked as the flag is (the same validator, its message
/// after the variable's name): a bad value is the user's input error (exit 2), never silently ignored.
#include <optional>

namespace gpuscout::cli {

/// Checks every such variable that is set; throws UsageError naming the first bad one. main() calls it once,
/// before any command runs.
void check_environment();

/// GPUSCOUT_PYTHON_TIMEOUT in seconds, nullopt when unset; a bad value throws UsageError (check_environment calls
/// this, so a command never meets one).
std::optional<double> python_timeout_from_environment();

}  // namespace gpuscout::cli
