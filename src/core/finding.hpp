#pragma once
/// One thing gpuscout found, for every part that reports findings: the verdict over an Inventory (diagnose) and
/// what a benchmark learned about the user's own PyTorch (bench --torch). One shape, so every renderer and the JSON
/// treat them alike.
#include <string>

namespace gpuscout {

struct Finding {
  std::string code;      ///< stable identifier ("driver-library-mismatch"), documented in docs/json.md
  std::string severity;  ///< "error", "warning", "info"
  std::string message;   ///< what is wrong, in plain language
  std::string fix;       ///< the exact next step: a command, a version, a menu path
};

}  // namespace gpuscout
