#pragma once
/// What gpuscout keeps between runs: the last complete `bench` result, so `report` can draw it without asking
/// for a file. Kept in $GPUSCOUT_STATE_DIR, else $XDG_STATE_HOME/gpuscout, else ~/.local/state/gpuscout.
#include <optional>
#include <string>
#include <string_view>

namespace gpuscout::cli {

std::optional<std::string> last_bench_path();
/// Writes the document (all or nothing); returns a one-line reason when it could not.
std::optional<std::string> keep_last_bench(std::string_view json_text);

}  // namespace gpuscout::cli
