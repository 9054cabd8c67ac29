#pragma once
/// The words every renderer (text, Markdown, HTML) uses for the verdict and its plan, translated in one place: the
/// status and severity as a learner reads them (JSON keeps the codes), a step's needs, and the first screen.
#include <string>

#include "diagnose/diagnose.hpp"

namespace gpuscout::report {

/// "ready", "needs-action", "cpu-only" in the user's language ("needs-action" -> "需要处理").
std::string status_word(const std::string& status);
/// "error", "warning", "info" in the user's language; info reads as a suggestion (建议).
std::string severity_word(const std::string& severity);
/// The kind of machine (`platform.kind`: "desktop", "cloud-vm", ...) in the user's language; notebooks by name.
std::string platform_word(const std::string& kind);
/// "(needs administrator rights; restart afterwards)", or "" when a step needs neither.
std::string step_needs(const diagnose::Step& step);
/// The steps before the final check (what the user does).
size_t steps_to_take(const diagnose::Plan& plan);

/// The first screen, before any detail: whether this machine can train on its GPU, in plain words; the one
/// command to copy (never wrapped, nothing glued to it) or, for a step done by hand, what to do; and "run gpuscout
/// again to check". Each line ends with a newline; the command line is indented by two spaces.
struct FirstScreen {
  std::string headline;  ///< plain words, no code names
  std::string command;   ///< the command to copy, or "" when the next step has none
  std::string todo;      ///< the next step in words, when it has no command
  std::string then;      ///< "Then run gpuscout again to check." or ""
};
FirstScreen first_screen(const diagnose::Verdict& verdict);

}  // namespace gpuscout::report
