#pragma once
/// The translation layer: every user-facing string goes through `tr` (GNU gettext, domain "gpuscout").
/// Mark a literal with `tr("...")` where it is shown, or `N_("...")` where it sits in a table and is translated
/// later with `tr(row.text)`. xgettext extracts both (keywords tr, trf, N_; see po/). Format strings use fmt's
/// syntax; a translation may reorder arguments with `{0}`, `{1}`.
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace gpuscout {

/// Marks a string for extraction without translating it here.
constexpr const char* N_(const char* msgid) { return msgid; }

/// The message in the user's language, or `msgid` itself when there is no translation.
const char* tr(const char* msgid);
/// The same for a string that is not a literal (a data table's cell); the result is a copy.
std::string tr(std::string_view msgid);

/// tr, then fmt::format with the arguments.
template <typename... Args>
std::string trf(const char* msgid, Args&&... args) {
  return fmt::format(fmt::runtime(tr(msgid)), std::forward<Args>(args)...);
}

}  // namespace gpuscout
