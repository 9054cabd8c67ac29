#pragma once
/// Paths between gpuscout's UTF-8 strings and the operating system. Every path in gpuscout is UTF-8 text; on
/// Windows std::filesystem::path(std::string) would read it in the ANSI code page, so paths are made and read back
/// only through these functions.
#include <filesystem>
#include <string>
#include <string_view>

namespace gpuscout::core {

std::filesystem::path to_path(std::string_view utf8);
std::string from_path(const std::filesystem::path& path);
/// The running program's own file (/proc/self/exe; GetModuleFileNameW), or "" when it cannot be told.
std::string self_executable();

}  // namespace gpuscout::core
