#include "probe/child_error.hpp"

#include <cstdint>
#include <cstring>

#include <fmt/format.h>

#include "core/text.hpp"

namespace gpuscout::probe {
namespace {

constexpr size_t kExcerptBytes = 300;
constexpr std::string_view kException = "exception: ";

}  // namespace

std::string child_output_excerpt(std::string_view text) {
  std::string joined;
  for (auto line : text::split(text, '\n')) {
    line = text::trim(line);
    if (line.empty()) continue;
    if (!joined.empty()) joined += "; ";
    joined += line;
  }
  if (joined.size() > kExcerptBytes) {
    size_t start = joined.size() - kExcerptBytes;
    // Start on a character, not inside a multi-byte sequence.
    while (start < joined.size() && (static_cast<unsigned char>(joined[start]) & 0xC0) == 0x80) ++start;
    joined = "..." + joined.substr(start);
  }
  return text::clean_utf8(joined);
}

std::optional<ProbeError> child_failure(const ChildRole& role, const os::ProcessResult& result,
                                        std::chrono::milliseconds timeout) {
  std::string message;
  if (result.timed_out) {
    message = fmt::format("{} gave no answer within {:.1f} s: {}; it was stopped", role.subject,
                          static_cast<double>(timeout.count()) / 1000.0, role.hang);
  } else if (result.signal != 0) {
#ifdef _WIN32
    const char* name = nullptr;
#else
    const char* name = ::strsignal(result.signal);
#endif
    message = fmt::format("{} crashed: signal {} ({})", role.subject, result.signal, name ? name : "unknown");
  } else if (result.exit_code != -1 && static_cast<uint32_t>(result.exit_code) >= 0xC0000000u) {
    // Windows: an unhandled exception ends the process with its NTSTATUS (0xC0000005: access violation).
    message = fmt::format("{} crashed: exception {:#010x}", role.subject, static_cast<uint32_t>(result.exit_code));
  } else if (result.exit_code == 0) {
    return std::nullopt;
  } else if (std::string_view out = result.out; out.starts_with(kException)) {
    out.remove_prefix(kException.size());
    message = fmt::format("{} failed: {}", role.subject, child_output_excerpt(out));
  } else {
    message = fmt::format("{} ended with exit code {}", role.subject, result.exit_code);
  }
  ProbeError error{role.source, role.call, std::move(message), std::nullopt};
  add_child_output(error, result);
  return error;
}

void add_child_output(ProbeError& error, const os::ProcessResult& result) {
  const std::string printed = child_output_excerpt(result.err);
  if (!printed.empty()) error.message += "; it printed: " + printed;
}

}  // namespace gpuscout::probe
