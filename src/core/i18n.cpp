#include "core/i18n.hpp"

#include "core/i18n_backend.hpp"
#include "core/text.hpp"

namespace gpuscout {
namespace {

i18n::Language g_language = i18n::Language::en;

/// "zh_CN.UTF-8@x" -> "zh"; "" for nothing.
std::string language_part(std::string_view locale) {
  const size_t end = locale.find_first_of("_-.@");
  return text::to_lower(locale.substr(0, end));
}

}  // namespace

const char* tr(const char* msgid) {
  if (g_language == i18n::Language::en || msgid == nullptr || *msgid == '\0') return msgid;
  return i18n::backend::translate(msgid);
}

std::string tr(std::string_view msgid) {
  if (g_language == i18n::Language::en) return std::string(msgid);
  return std::string(tr(std::string(msgid).c_str()));
}

std::string trc(const char* context, const char* msgid) {
  if (g_language == i18n::Language::en) return msgid;
  // gettext stores a message with a context under "context\004msgid" (what pgettext looks up).
  const std::string key = std::string(context) + '\004' + msgid;
  const char* found = tr(key.c_str());
  return key == found ? std::string(msgid) : std::string(found);
}

namespace i18n {

Language from_environment(const std::function<const char*(const char*)>& getenv) {
  const auto is_zh = [](std::string_view locale) { return language_part(locale) == "zh"; };
  if (const char* list = getenv("LANGUAGE"); list && *list) {
    for (const std::string_view entry : text::split(list, ':')) {
      const std::string lang = language_part(entry);
      if (lang == "zh") return Language::zh;
      if (lang == "en") return Language::en;
    }
  }
  for (const char* name : {"LC_ALL", "LC_MESSAGES", "LANG"})
    if (const char* value = getenv(name); value && *value) return is_zh(value) ? Language::zh : Language::en;
  return Language::en;
}

std::optional<Language> parse_language(std::string_view flag) {
  const std::string f = text::to_lower(text::trim(flag));
  if (f == "en" || f == "english" || language_part(f) == "en") return Language::en;
  if (f == "zh" || f == "cn" || f == "chinese" || f == "中文" || language_part(f) == "zh") return Language::zh;
  return std::nullopt;
}

Language use(Language wanted) {
  g_language = Language::en;
  if (wanted == Language::en) return g_language;
  if (!backend::load_zh()) return g_language;
  g_language = Language::zh;
  return g_language;
}

Language current() { return g_language; }

const char* html_lang() { return g_language == Language::zh ? "zh-CN" : "en"; }

}  // namespace i18n
}  // namespace gpuscout
