#pragma once
/// A compiled GNU gettext catalogue (.mo, the format msgfmt writes: see the GNU gettext manual, "The Format of
/// GNU MO Files"), read from bytes in memory. The Windows build has no libintl: its catalogues are embedded in
/// gpuscout.exe and looked up here. Every offset is checked against the size, so damaged bytes give an error,
/// never a read out of bounds.
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/error.hpp"

namespace gpuscout::core {

class MoCatalog {
 public:
  /// Parses the catalogue; the bytes must outlive it (they are embedded, or owned by the caller).
  static Result<MoCatalog> parse(std::string_view bytes);
  /// The same into this (empty) catalogue, for one that lives in place.
  Result<void> read(std::string_view bytes);
  /// The translation of `msgid`, or nullptr when the catalogue has none (or an empty one, as gettext treats it).
  const char* find(std::string_view msgid) const;
  size_t size() const { return messages_.size(); }

 private:
  std::unordered_map<std::string_view, const char*> messages_;
};

}  // namespace gpuscout::core
