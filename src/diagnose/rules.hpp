#pragma once
/// The verdict's rules as one table (rules.cpp): each row names its code, severity, whether its finding blocks
/// the GPU, whether it is skipped once an earlier row has blocked it, the line docs/json.md shows, and a pure
/// function over the Context. Rules run in table order; a code is emitted by exactly one row.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "diagnose/context.hpp"
#include "diagnose/diagnose.hpp"

namespace gpuscout::diagnose {

enum class Severity { error, warning, info };
std::string_view severity_name(Severity severity);

/// Whether a rule runs after an earlier rule has blocked the GPU.
enum class Gate {
  always,    ///< runs whatever came before (a stub libcuda, an old GPU, the machine's RAM)
  unblocked  ///< needs a GPU nothing has blocked yet: skipped after the first blocking finding above it
};

/// What one rule says each time it fires; the code and severity come from its table row.
struct Note {
  std::string message;
  std::string fix;
};

struct Rule {
  std::string_view code;         ///< stable identifier, documented in docs/json.md
  Severity severity;
  bool blocks;                   ///< its finding means the GPU cannot be used until fixed (status needs-action)
  Gate gate;
  std::string_view description;  ///< the "when" column of docs/json.md, word for word
  std::vector<Note> (*check)(const Context&);
};

/// Every rule, in the order they run.
std::span<const Rule> rules();

struct Evaluation {
  std::vector<Finding> findings;  ///< in table order (diagnose sorts them by severity)
  bool blocked = false;           ///< some blocking rule fired
};

/// Runs the table over a context: a rule gated `unblocked` is skipped once an earlier rule's finding blocked.
Evaluation evaluate(const Context& context);

}  // namespace gpuscout::diagnose
