#pragma once
/// Where translations come from, per system: GNU gettext over the installed catalogues on POSIX
/// (core/posix/i18n_gettext.cpp), the catalogues embedded in gpuscout.exe on Windows (core/windows/i18n_embedded.cpp,
/// read by core/mo_catalog). i18n.cpp decides the language once; this only finds and looks up.
namespace gpuscout::i18n::backend {

/// Loads the Chinese catalogue; false when there is none (the output then stays English).
bool load_zh();
/// The translation of `msgid` in the loaded catalogue, or `msgid` itself.
const char* translate(const char* msgid);

}  // namespace gpuscout::i18n::backend
