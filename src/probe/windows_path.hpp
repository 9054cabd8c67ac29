#pragma once
/// Windows paths as text, on any OS: drive letters, '\' separators (with '/' accepted), names compared without
/// case as NTFS compares them, and %PATH% split on ';'. Pure, so Windows rules are unit-tested on Linux.
#include <string>
#include <string_view>
#include <vector>

namespace gpuscout::probe::winpath {

/// The folders of a Windows PATH: split on ';', spaces trimmed, surrounding double quotes removed (a quoted entry
/// is legal there), empty entries dropped.
std::vector<std::string> split_path_list(std::string_view path);
/// `dir` and `name` joined by one '\': "C:\" + "py.exe" is "C:\py.exe"; an empty `dir` gives `name`.
std::string join(std::string_view dir, std::string_view name);
/// The spelling two forms of one path share: '/' as '\', repeated separators as one (a leading "\\" of a UNC path
/// kept), no trailing separator (except a drive's root, "c:\"), ASCII letters in lower case. "C:/Python312/" and
/// "c:\python312" fold to the same text.
std::string fold(std::string_view path);
/// The same path, spelled either way.
bool same(std::string_view a, std::string_view b);
/// Case-insensitive (ASCII) ends_with and starts_with, as Windows file names compare.
bool iends_with(std::string_view s, std::string_view suffix);
bool istarts_with(std::string_view s, std::string_view prefix);
/// The folder part, without the last separator ("C:\a\python.exe" -> "C:\a"); "" when there is none.
std::string_view parent(std::string_view path);
/// The last name ("C:\a\python.exe" -> "python.exe").
std::string_view file_name(std::string_view path);
/// "C:\...", "C:/..." or a UNC "\\server\share\...".
bool is_absolute(std::string_view path);

}  // namespace gpuscout::probe::winpath
