#pragma once
/// The verdict's rules as one table (rules.cpp): each row names its code, severity, what its finding does to the
/// verdict (Effect), whether it is skipped once an earlier row has blocked the GPU, the line docs/json.md shows, and a pure
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

/// What a finding does to the verdict.
enum class Effect {
  advises,       ///< something to read; the status stays what the GPU makes it
  needs_action,  ///< the status is needs-action, but nothing is blocked: the GPU checks after it still run
                 ///< (PyTorch missing: the GPU is fine, the user still has a step to take)
  blocks         ///< the GPU cannot be used until fixed: needs-action, and `unblocked` rules after it are skipped
};
std::string_view effect_name(Effect effect);  ///< docs/json.md's "blocks" column: "yes", "action", "no"

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
  Effect effect;
  Gate gate;
  std::string_view description;  ///< the "when" column of docs/json.md, word for word
  std::vector<Note> (*check)(const Context&);
};

/// Every rule, in the order they run.
std::span<const Rule> rules();

struct Evaluation {
  std::vector<Finding> findings;  ///< in table order (diagnose sorts them by severity)
  bool blocked = false;           ///< some blocking rule fired
  bool needs_action = false;      ///< some blocking or needs_action rule fired
};

/// Runs the table over a context: a rule gated `unblocked` is skipped once an earlier rule's finding blocked.
Evaluation evaluate(const Context& context);

}  // namespace gpuscout::diagnose
