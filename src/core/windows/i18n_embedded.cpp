// Translations on Windows: the zh_CN catalogue msgfmt compiled at build time, embedded in gpuscout.exe
// (cmake/Translations.cmake) and read by MoCatalog; no libintl and no files beside the program.
#include <string_view>

#include "core/i18n_backend.hpp"
#include "core/mo_catalog.hpp"

namespace gpuscout::core {
std::string_view embedded_catalog_zh();  // generated: the bytes of gpuscout.mo
}

namespace gpuscout::i18n::backend {
namespace {

core::MoCatalog& catalog() {
  static core::MoCatalog loaded;
  return loaded;
}
bool g_loaded = false;

}  // namespace

bool load_zh() {
  if (!g_loaded) g_loaded = catalog().read(core::embedded_catalog_zh()).has_value();
  return g_loaded;
}

const char* translate(const char* msgid) {
  if (!g_loaded) return msgid;
  const char* text = catalog().find(msgid);
  return text ? text : msgid;
}

}  // namespace gpuscout::i18n::backend
