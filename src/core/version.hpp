#pragma once
/// Dotted version numbers as drivers and packages print them ("580.95.05", "12.8", "2.5.1+cu121").
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscout {

class Version {
 public:
  /// Parses the leading dotted numbers; a suffix after '+', '-', 'a', 'rc'... is kept aside ("2.5.1+cu121").
  static std::optional<Version> parse(std::string_view text);
  /// CUDA encodes versions as 1000*major + 10*minor (13000 -> "13.0", 12040 -> "12.4").
  static Version from_cuda_int(int value);

  const std::vector<int>& parts() const { return parts_; }
  int major() const { return parts_.empty() ? 0 : parts_[0]; }
  int minor() const { return parts_.size() < 2 ? 0 : parts_[1]; }
  const std::string& suffix() const { return suffix_; }
  /// "12.8" for a version 12.8.1.
  std::string major_minor() const;
  /// The version as it was written ("580.95.05"), or rebuilt from its parts.
  std::string str() const;

  /// Compares numerically part by part, missing parts counting as 0; the suffix is ignored.
  friend int compare(const Version& a, const Version& b);
  friend bool operator<(const Version& a, const Version& b) { return compare(a, b) < 0; }
  friend bool operator<=(const Version& a, const Version& b) { return compare(a, b) <= 0; }
  friend bool operator>(const Version& a, const Version& b) { return compare(a, b) > 0; }
  friend bool operator>=(const Version& a, const Version& b) { return compare(a, b) >= 0; }
  friend bool operator==(const Version& a, const Version& b) { return compare(a, b) == 0; }

 private:
  std::vector<int> parts_;
  std::string suffix_;
  std::string text_;  ///< as written ("580.95.05" keeps its leading zero)
};

/// A compute capability as CUDA, NVML and torch print it: "8.9", "12.0" (1-3 digits, a dot, 1-3 digits).
bool is_compute_capability(std::string_view text);

}  // namespace gpuscout
