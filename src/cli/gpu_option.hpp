#pragma once
/// --gpu NAME for every command that takes one (fit, platforms): the same matcher and the same error, so a name
/// one command accepts the others accept too.
#include <string_view>

#include "catalog/gpu_match.hpp"

namespace gpuscout::cli {

/// The catalogue row for a user's --gpu NAME; a UsageError (exit 2) naming it, with close names, when it is not
/// there. `otherwise` ends the message with what else the user can do ("; or give its memory: --vram 24G").
catalog::GpuMatch catalog_gpu(std::string_view name, std::string_view otherwise = "");

}  // namespace gpuscout::cli
