// Driver DLLs on Windows (os/library.hpp). A bare name is searched in System32 only
// (LOAD_LIBRARY_SEARCH_SYSTEM32), never in the current or the program's folder, so an nvml.dll planted beside a
// download is never loaded; an absolute path (GPUSCOUT_NVML_LIBRARY, NVSMI's folder) loads that file, with its own
// dependencies looked up beside it and in System32.
#include <windows.h>

#include <fmt/format.h>

#include "core/windows_text.hpp"
#include "os/library.hpp"
#include "os/windows/error_text.hpp"

namespace gpuscout::os {
namespace {

bool is_path(const std::string& name) { return name.find_first_of("\\/:") != std::string::npos; }

}  // namespace

std::optional<std::string> not_a_library_file(const std::string& path) {
  const std::wstring w = core::to_utf16(path);
  const DWORD attributes = GetFileAttributesW(w.c_str());
  if (attributes == INVALID_FILE_ATTRIBUTES) return std::nullopt;  // missing: LoadLibrary says so
  if (attributes & FILE_ATTRIBUTE_DIRECTORY) return "a folder";
  HANDLE h = CreateFileW(w.c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
                         0, nullptr);
  if (h == INVALID_HANDLE_VALUE) return std::nullopt;
  const DWORD type = GetFileType(h);
  CloseHandle(h);
  if (type == FILE_TYPE_PIPE) return "a named pipe";
  if (type == FILE_TYPE_CHAR) return "a character device";
  return std::nullopt;
}

Result<SharedLibrary> SharedLibrary::open(const std::string& soname) {
  HMODULE module = nullptr;
  if (is_path(soname)) {
    if (auto kind = not_a_library_file(soname)) return fail(fmt::format("{} is {}, not a shared library file", soname, *kind));
    module = LoadLibraryExW(core::to_utf16(soname).c_str(), nullptr,
                            LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_SYSTEM32);
  } else {
    module = LoadLibraryExW(core::to_utf16(soname).c_str(), nullptr, LOAD_LIBRARY_SEARCH_SYSTEM32);
  }
  if (!module) return fail(fmt::format("{}: {}", soname, last_error_text()));
  SharedLibrary lib;
  lib.handle_ = module;
  return lib;
}

SharedLibrary::SharedLibrary(SharedLibrary&& other) noexcept : handle_(other.handle_) { other.handle_ = nullptr; }

SharedLibrary& SharedLibrary::operator=(SharedLibrary&& other) noexcept {
  if (this != &other) {
    if (handle_) FreeLibrary(static_cast<HMODULE>(handle_));
    handle_ = other.handle_;
    other.handle_ = nullptr;
  }
  return *this;
}

SharedLibrary::~SharedLibrary() {
  if (handle_) FreeLibrary(static_cast<HMODULE>(handle_));
}

void* SharedLibrary::raw_symbol(const char* name) const {
  if (!handle_) return nullptr;
  return reinterpret_cast<void*>(GetProcAddress(static_cast<HMODULE>(handle_), name));
}

std::string SharedLibrary::path() const {
  if (!handle_) return {};
  wchar_t buffer[32768];
  const DWORD n = GetModuleFileNameW(static_cast<HMODULE>(handle_), buffer, 32768);
  return n ? core::from_utf16(std::wstring_view(buffer, n)) : std::string();
}

}  // namespace gpuscout::os
