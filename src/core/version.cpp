#include "core/version.hpp"

#include <cctype>

namespace gpuscout {

std::optional<Version> Version::parse(std::string_view text) {
  Version v;
  size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  while (i < text.size()) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) break;
    long long part = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      part = part * 10 + (text[i] - '0');
      if (part > 1000000000) return std::nullopt;
      ++i;
    }
    v.parts_.push_back(static_cast<int>(part));
    if (i < text.size() && text[i] == '.' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1])))
      ++i;
    else
      break;
  }
  if (v.parts_.empty()) return std::nullopt;
  size_t end = text.size();
  while (end > i && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  v.suffix_ = std::string(text.substr(i, end - i));
  size_t begin = 0;
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  v.text_ = std::string(text.substr(begin, end - begin));
  return v;
}

Version Version::from_cuda_int(int value) {
  Version v;
  v.parts_ = {value / 1000, (value % 1000) / 10};
  return v;
}

std::string Version::major_minor() const { return std::to_string(major()) + "." + std::to_string(minor()); }

std::string Version::str() const {
  if (!text_.empty()) return text_;
  std::string out;
  for (size_t i = 0; i < parts_.size(); ++i) {
    if (i) out += '.';
    out += std::to_string(parts_[i]);
  }
  return out + suffix_;
}

int compare(const Version& a, const Version& b) {
  const size_t n = std::max(a.parts_.size(), b.parts_.size());
  for (size_t i = 0; i < n; ++i) {
    const int x = i < a.parts_.size() ? a.parts_[i] : 0;
    const int y = i < b.parts_.size() ? b.parts_[i] : 0;
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

bool is_compute_capability(std::string_view text) {
  const auto digits = [](std::string_view d) {
    return !d.empty() && d.size() <= 3 && d.find_first_not_of("0123456789") == std::string_view::npos;
  };
  const auto dot = text.find('.');
  return dot != std::string_view::npos && digits(text.substr(0, dot)) && digits(text.substr(dot + 1));
}

}  // namespace gpuscout
