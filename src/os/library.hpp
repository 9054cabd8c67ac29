#pragma once
/// Vendor libraries loaded at run time by soname (dlopen honours LD_LIBRARY_PATH and ld.so.conf).
#include <optional>
#include <string>

#include "core/error.hpp"

namespace gpuscout::os {

/// Why `path` cannot be a library file, for a path that exists and is not a regular file ("a FIFO (named pipe)",
/// "a folder", ...); nothing for a regular file or a missing one (dlopen then says it is missing). dlopen of a FIFO
/// blocks for ever, so every path is checked before it is opened.
std::optional<std::string> not_a_library_file(const std::string& path);

class SharedLibrary {
 public:
  /// Opens a library by soname ("libnvidia-ml.so.1") or by path (with a '/': it must be a regular file). The error
  /// carries dlerror()'s text.
  static Result<SharedLibrary> open(const std::string& soname);
  SharedLibrary() = default;
  SharedLibrary(SharedLibrary&&) noexcept;
  SharedLibrary& operator=(SharedLibrary&&) noexcept;
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;
  ~SharedLibrary();

  /// The address of a symbol, or nullptr when this library version lacks it.
  void* raw_symbol(const char* name) const;
  template <typename Fn>
  Fn symbol(const char* name) const {
    return reinterpret_cast<Fn>(raw_symbol(name));
  }
  /// The file the loader actually picked (from dladdr/dlinfo), for the report.
  std::string path() const;
  explicit operator bool() const { return handle_ != nullptr; }

 private:
  void* handle_ = nullptr;
};

}  // namespace gpuscout::os
