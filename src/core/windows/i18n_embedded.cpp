// Translations on Windows: the zh_CN catalogue msgfmt compiled at build time, embedded in gpuscout.exe
// (cmake/Translations.cmake) and read by MoCatalog; no libintl and no files beside the program.
#include <optional>
#include <string_view>

#include "core/i18n_backend.hpp"
#include "core/mo_catalog.hpp"

namespace gpuscout::core {
std::string_view embedded_catalog_zh();  // generated: the bytes of gpuscout.mo
}

namespace gpuscout::i18n::backend {
namespace {

std::optional<core::MoCatalog>& catalog() {
  static std::optional<core::MoCatalog> loaded;
  return loaded;
}

}  // namespace

bool load_zh() {
  if (!catalog()) {
    auto parsed = core::MoCatalog::parse(core::embedded_catalog_zh());
    if (!parsed) return false;
    catalog() = std::move(*parsed);
  }
  return true;
}

const char* translate(const char* msgid) {
  if (!catalog()) return msgid;
  const char* text = catalog()->find(msgid);
  return text ? text : msgid;
}

}  // namespace gpuscout::i18n::backend
