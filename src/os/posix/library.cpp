#include "os/library.hpp"

#include <dlfcn.h>
#include <sys/stat.h>
#include <link.h>

#include <fmt/format.h>

namespace gpuscout::os {

std::optional<std::string> not_a_library_file(const std::string& path) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return std::nullopt;
  if (S_ISDIR(st.st_mode)) return "a folder";
  if (S_ISFIFO(st.st_mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(st.st_mode)) return "a character device";
  if (S_ISBLK(st.st_mode)) return "a block device";
  if (S_ISSOCK(st.st_mode)) return "a socket";
  return "not a regular file";
}

Result<SharedLibrary> SharedLibrary::open(const std::string& soname) {
  if (soname.find('/') != std::string::npos) {
    if (auto kind = not_a_library_file(soname)) return fail(fmt::format("{} is {}, not a shared library file", soname, *kind));
  }
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
