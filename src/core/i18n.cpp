#include "core/i18n.hpp"

#include <libintl.h>

namespace gpuscout {

const char* tr(const char* msgid) { return dgettext("gpuscout", msgid); }

std::string tr(std::string_view msgid) { return std::string(tr(std::string(msgid).c_str())); }

}  // namespace gpuscout
