#pragma once
/// `gpuscout report --markdown`: the block a user pastes into a forum post or an issue. It answers what a helper
/// asks first (the versions PyTorch's collect_env prints, plus the driver, the CUDA the driver supports, what
/// PyTorch itself was built with and uses, each GPU's compute capability) and the verdict. Formats only.
#include <string>
#include <string_view>

#include "diagnose/diagnose.hpp"
#include "inventory/inventory.hpp"
#include "report/privacy.hpp"

namespace gpuscout::report {

struct MarkdownOptions {
  bool include_private = false;  ///< keep names and paths, and add the hostname and GPU UUIDs
};

/// The report: a heading (gpuscout version, collection time), a table of versions, a table of GPUs, the verdict
/// with each finding and its fix, and the pip command. Absent facts read "not found" / "n/a" with the
/// inventory's reason. Unless `options.include_private`, the inventory goes through redact_inventory and the
/// verdict's texts through redact_text. GitHub-flavoured Markdown that also reads well as plain text.
std::string render_markdown(const Inventory& inventory, const diagnose::Verdict& verdict,
                            const MarkdownOptions& options, const PrivacyContext& ctx);

/// Text as an inline Markdown value (a table cell, a list item): backslash before \ ` * _ [ ] < > # | ~ & $,
/// control characters (newlines, tabs) as spaces; bytes >= 0x80 (UTF-8) untouched. The result cannot end a
/// table cell, open HTML, a link, emphasis or code.
std::string escape_markdown(std::string_view text);

/// Another interpreter that has PyTorch, in one line: "/usr/bin/python3 (Python 3.11.2): torch 2.5.1, CUDA 12.1"
/// (the Markdown block and the HTML page list them when the chosen interpreter has none).
std::string other_python(const OtherPython& other);

}  // namespace gpuscout::report
