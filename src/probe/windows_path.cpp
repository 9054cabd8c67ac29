// Windows path text: what the Python choice needs to compare and build paths the way Windows does.
#include "probe/windows_path.hpp"

#include <algorithm>

#include "core/text.hpp"

namespace gpuscout::probe::winpath {
namespace {

bool is_sep(char c) { return c == '\\' || c == '/'; }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
bool iequal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return lower(x) == lower(y); });
}
size_t last_sep(std::string_view path) { return path.find_last_of("\\/"); }

}  // namespace

std::vector<std::string> split_path_list(std::string_view path) {
  std::vector<std::string> out;
  for (auto entry : text::split(path, ';')) {
    entry = text::trim(entry);
    if (entry.size() >= 2 && entry.front() == '"' && entry.back() == '"') entry = text::trim(entry.substr(1, entry.size() - 2));
    if (!entry.empty()) out.emplace_back(entry);
  }
  return out;
}

std::string join(std::string_view dir, std::string_view name) {
  while (!dir.empty() && is_sep(dir.back())) dir.remove_suffix(1);
  if (dir.empty()) return std::string(name);
  std::string out(dir);
  out += '\\';
  out += name;
  return out;
}

std::string fold(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  const bool unc = path.size() >= 2 && is_sep(path[0]) && is_sep(path[1]);
  if (unc) out = "\\\\";
  for (size_t i = unc ? 2 : 0; i < path.size(); ++i) {
    const char c = path[i];
    if (is_sep(c)) {
      if (!out.empty() && out.back() != '\\') out += '\\';
    } else {
      out += lower(c);
    }
  }
  const bool drive_root = out.size() == 3 && out[1] == ':';
  if (out.size() > 2 && out.back() == '\\' && !drive_root) out.pop_back();
  return out;
}

bool same(std::string_view a, std::string_view b) { return fold(a) == fold(b); }

bool iends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && iequal(s.substr(s.size() - suffix.size()), suffix);
}

bool istarts_with(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && iequal(s.substr(0, prefix.size()), prefix);
}

std::string_view parent(std::string_view path) {
  const size_t sep = last_sep(path);
  return sep == std::string_view::npos ? std::string_view() : path.substr(0, sep);
}

std::string_view file_name(std::string_view path) {
  const size_t sep = last_sep(path);
  return sep == std::string_view::npos ? path : path.substr(sep + 1);
}

bool is_absolute(std::string_view path) {
  const bool letter = !path.empty() && ((path[0] >= 'A' && path[0] <= 'Z') || (path[0] >= 'a' && path[0] <= 'z'));
  if (letter && path.size() >= 3 && path[1] == ':' && is_sep(path[2])) return true;
  return path.size() >= 3 && is_sep(path[0]) && is_sep(path[1]) && !is_sep(path[2]);
}

}  // namespace gpuscout::probe::winpath
