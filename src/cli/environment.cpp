#include "cli/environment.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "cli/options.hpp"
#include "core/error.hpp"
#include "core/i18n.hpp"
#include "core/text.hpp"
#include "os/system.hpp"

namespace gpuscout::cli {
namespace {

/// The Python probe may take long on a cold disk (a first `import torch`), so its bound goes beyond --timeout's.
constexpr double kMinPythonTimeoutS = 0.1;
constexpr double kMaxPythonTimeoutS = 3600.0;

std::optional<std::string> variable(const char* name) {
  const char* value = std::getenv(name);
  if (!value) return std::nullopt;
  return std::string(value);
}

// "NAME=VALUE: PROBLEM", the value shown as the terminal would show it safely.
[[noreturn]] void refuse(const char* name, const std::string& value, const std::string& problem) {
  throw UsageError(fmt::format("{}={}: {}", name, text::visible(value), problem));
}

void check_sysroot() {
  const std::string& root = os::sysroot();  // the one reading of GPUSCOUT_SYSROOT (os/system.cpp)
  if (root.empty()) return;
  const std::string why = tr("it names the folder of a recorded machine: unset it to check this machine");
  struct stat st {};
  if (::stat(root.c_str(), &st) != 0)
    refuse("GPUSCOUT_SYSROOT", root,
           errno == ENOENT ? trf("no such folder ({})", why) : std::string(std::strerror(errno)));
  if (!S_ISDIR(st.st_mode)) refuse("GPUSCOUT_SYSROOT", root, trf("not a folder ({})", why));
}

}  // namespace

void check_environment() {
  check_sysroot();
  (void)python_timeout_from_environment();
}

std::optional<double> python_timeout_from_environment() {
  const auto value = variable("GPUSCOUT_PYTHON_TIMEOUT");
  if (!value) return std::nullopt;
  std::string checked = *value;
  if (const std::string problem = finite_number(kMinPythonTimeoutS, kMaxPythonTimeoutS)(checked); !problem.empty())
    throw UsageError(fmt::format("GPUSCOUT_PYTHON_TIMEOUT: {}", problem));
  return text::parse_double(checked);
}

}  // namespace gpuscout::cli
