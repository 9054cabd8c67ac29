#include "os/library.hpp"

#include <dlfcn.h>
#include <link.h>

#include <fmt/format.h>

namespace gpuscout::os {

Result<SharedLibrary> SharedLibrary::open(const std::string& soname) {
  dlerror();
  void* handle = ::dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    return fail(fmt::format("{}: {}", soname, why ? why : "cannot be loaded"));
  }
  SharedLibrary lib;
  lib.handle_ = handle;
  return lib;
}

SharedLibrary::SharedLibrary(SharedLibrary&& other) noexcept : handle_(other.handle_) { other.handle_ = nullptr; }

SharedLibrary& SharedLibrary::operator=(SharedLibrary&& other) noexcept {
  if (this != &other) {
    if (handle_) ::dlclose(handle_);
    handle_ = other.handle_;
    other.handle_ = nullptr;
  }
  return *this;
}

SharedLibrary::~SharedLibrary() {
  if (handle_) ::dlclose(handle_);
}

void* SharedLibrary::raw_symbol(const char* name) const {
  if (!handle_) return nullptr;
  return ::dlsym(handle_, name);
}

std::string SharedLibrary::path() const {
  if (!handle_) return {};
  link_map* map = nullptr;
  if (::dlinfo(handle_, RTLD_DI_LINKMAP, &map) != 0 || !map || !map->l_name) return {};
  return map->l_name;
}

}  // namespace gpuscout::os
