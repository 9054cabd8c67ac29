// Translations through GNU gettext (domain "gpuscout") from the compiled catalogues of po/.
#include <libintl.h>

#include <array>
#include <clocale>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "core/i18n_backend.hpp"
#include "core/path.hpp"

namespace gpuscout::i18n::backend {
namespace {

constexpr const char* kDomain = "gpuscout";

/// Where the compiled catalogues are: beside an installed binary (PREFIX/bin/../share/locale), in the build tree,
/// or under the install prefix this binary was configured with.
std::string find_locale_dir() {
  std::error_code ec;
  const std::string exe = core::self_executable();
  std::array<std::filesystem::path, 3> candidates{
      exe.empty() ? std::filesystem::path() : std::filesystem::path(exe).parent_path().parent_path() / "share" / "locale",
      std::filesystem::path(GPUSCOUT_BUILD_LOCALEDIR), std::filesystem::path(GPUSCOUT_INSTALL_LOCALEDIR)};
  for (const auto& dir : candidates) {
    if (dir.empty()) continue;
    if (std::filesystem::is_regular_file(dir / "zh_CN" / "LC_MESSAGES" / "gpuscout.mo", ec)) return dir.string();
  }
  return {};
}

}  // namespace

bool load_zh() {
  const std::string dir = find_locale_dir();
  if (dir.empty()) return false;
  // gettext ignores LANGUAGE under the "C" locale, and zh_CN.UTF-8 is rarely generated: C.UTF-8 is built into
  // glibc. Only messages and characters change; numbers keep the C locale's decimal point everywhere.
  std::setlocale(LC_MESSAGES, "C.UTF-8");
  std::setlocale(LC_CTYPE, "C.UTF-8");
  setenv("LANGUAGE", "zh_CN", 1);
  bindtextdomain(kDomain, dir.c_str());
  bind_textdomain_codeset(kDomain, "UTF-8");
  return true;
}

const char* translate(const char* msgid) { return dgettext(kDomain, msgid); }

}  // namespace gpuscout::i18n::backend
