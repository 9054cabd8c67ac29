#pragma once
/// Error model (see CONTRIBUTING.md): parsers and probes return std::expected<T, Error>;
/// bad user input throws UsageError, caught once in main and turned into exit code 2.
#include <expected>
#include <stdexcept>
#include <string>

namespace gpuscout {

/// A failure with a message a user can read ("/proc/meminfo: MemTotal is not a number").
struct Error {
  std::string message;
};

template <typename T>
using Result = std::expected<T, Error>;

inline std::unexpected<Error> fail(std::string message) { return std::unexpected<Error>(Error{std::move(message)}); }

/// Bad input from the user (a flag, a file named on the command line): exit code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace gpuscout
