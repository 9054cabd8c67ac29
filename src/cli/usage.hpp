#pragma once
/// A library Result turned into the CLI's error model: the value, or a UsageError (exit 2) whose message is the
/// library's, prefixed with the option it came from when one is named ("--bench FILE: not valid JSON ...").
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"

namespace gpuscout::cli {

template <typename T>
T usage(Result<T> r, std::string_view option = "") {
  if (!r) throw UsageError(option.empty() ? r.error().message : fmt::format("{} {}", option, r.error().message));
  return std::move(*r);
}

}  // namespace gpuscout::cli
