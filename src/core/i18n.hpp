#pragma once
/// The translation layer: every user-facing string goes through `tr` (GNU gettext, domain "gpuscout").
/// Mark a literal with `tr("...")` where it is shown, or `N_("...")` where it sits in a table and is translated
/// later with `tr(row.text)`. xgettext extracts both (keywords tr, trf, N_; see po/README.md). Format strings use
/// fmt's syntax; a translation may reorder arguments with `{0}`, `{1}`.
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace gpuscout {

/// Marks a string for extraction without translating it here.
constexpr const char* N_(const char* msgid) { return msgid; }

/// The message in the user's language, or `msgid` itself when there is no translation (or the language is English).
const char* tr(const char* msgid);
/// The same for a string that is not a literal (a data table's cell); the result is a copy.
std::string tr(std::string_view msgid);

/// A word with more than one sense in another language ("no" as a yes/no value is 否, as "does not fit" 不行;
/// "free" of memory is 空闲, of a price 免费): gettext's msgctxt, `context` naming the sense ("yes/no", "price").
std::string trc(const char* context, const char* msgid);

/// tr, then fmt::format with the arguments.
template <typename... Args>
std::string trf(const char* msgid, Args&&... args) {
  return fmt::format(fmt::runtime(tr(msgid)), std::forward<Args>(args)...);
}

namespace i18n {

enum class Language { en, zh };

/// The language the environment asks for, as gettext reads it: LANGUAGE (a colon list, the first entry we have),
/// then LC_ALL, LC_MESSAGES, LANG (the first one set). "zh", "zh_CN.UTF-8", "zh_TW" ... mean Chinese; anything
/// else, or nothing, English. `getenv` is a parameter so that the choice is tested without touching the process.
Language from_environment(const std::function<const char*(const char*)>& getenv);

/// Parses `--lang`: "zh", "zh_CN", "zh-CN", "cn", "中文" or "en", "english" (any case); nullopt otherwise.
std::optional<Language> parse_language(std::string_view flag);

/// Chooses the language (the flag if given, else the environment) and loads its catalogue. Call once, before the
/// first message is built. Works where the zh_CN locale is not generated (most containers): gettext then runs
/// under C.UTF-8 with LANGUAGE naming the catalogue, which glibc honours for any locale but plain "C".
/// Returns the language in force: English when the catalogue cannot be found.
Language use(Language wanted);

/// The language in force (English until `use` is called).
Language current();
/// For HTML's lang attribute: "en" or "zh-CN".
const char* html_lang();

}  // namespace i18n
}  // namespace gpuscout
