#pragma once
/// One error shape for every probe child (NVML, CUDA, Python): a child that timed out, died on a signal,
/// threw, or exited non-zero becomes a ProbeError whose message carries the reason and the end of what the
/// child printed on stderr, so "the probe failed" always says why.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "inventory/inventory.hpp"
#include "os/process.hpp"

namespace gpuscout::probe {

/// What a child is, for its messages.
struct ChildRole {
  std::string source;   ///< ProbeError::source ("nvml", "cuda", "python")
  std::string call;     ///< ProbeError::what when the child itself failed ("nvmlInit_v2", "import torch")
  std::string subject;  ///< who failed, for the reader ("the NVML probe", "python3")
  std::string hang;     ///< the likely cause of a timeout, for a beginner ("the NVIDIA driver is hung")
};

/// Outside text (a child's stderr, an exception's what()) made fit for one line of a message: valid UTF-8,
/// lines trimmed and joined with "; ", at most about 300 bytes; the end is kept, since a traceback's last
/// line names the error.
std::string child_output_excerpt(std::string_view text);

/// nullopt when the child exited 0 within its deadline. Otherwise, by what ended it:
///   "<subject> gave no answer within 2.0 s: <hang>; it was stopped"
///   "<subject> crashed: signal 11 (Segmentation fault)"
///   "<subject> failed: <exception text>"            (fork_call's exit 3, "exception: ..." on stdout)
///   "<subject> ended with exit code 1"
/// each followed by "; it printed: <stderr excerpt>" when the child printed anything.
std::optional<ProbeError> child_failure(const ChildRole& role, const os::ProcessResult& result,
                                        std::chrono::milliseconds timeout);

/// For a child that ran to its end but whose answer carries an error (a driver's init failure): appends
/// "; it printed: <stderr excerpt>" when the child printed anything, since a driver often says why there.
void add_child_output(ProbeError& error, const os::ProcessResult& result);

}  // namespace gpuscout::probe
