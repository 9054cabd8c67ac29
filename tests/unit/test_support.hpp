#pragma once
// Small helpers shared by the unit tests: one definition each, since the tests compile as one program whose files
// share translation units (unity batches, cmake/Unity.cmake).
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

namespace gpuscout::test_support {

/// U+FFFD REPLACEMENT CHARACTER in UTF-8: what our text cleaning puts in place of a byte that is not UTF-8.
inline const std::string kReplacementChar = "\xEF\xBF\xBD";

/// True when `part` occurs in `text`.
inline bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

/// The whole file, bytes as they are; empty when it cannot be read.
inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Writes `text` to NAME in a folder of this test program's own (gpuscout-TAG-PID under the temporary folder);
/// returns the file's path.
inline std::string write_temp(std::string_view tag, const std::string& name, const std::string& text) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("gpuscout-" + std::string(tag) + "-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

}  // namespace gpuscout::test_support
