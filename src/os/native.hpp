#pragma once
/// The operating system's side of os/system.hpp, one implementation per system (os/posix, os/windows); the
/// sysroot, the recorded environment and the recorded sizes are handled once, above it, in os/system.cpp.
#include <functional>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "os/process.hpp"
#include "os/system.hpp"

namespace gpuscout::os {
/// The registered isolated call `name`, or nullptr.
IsolatedFunction find_isolated(const std::string& name);
}  // namespace gpuscout::os

namespace gpuscout::os::native {

/// Reads `real_path` (the sysroot already applied); errors name `path`, the machine path the caller asked for.
/// Only regular files are read: a folder, device, FIFO or socket is refused before any byte is read.
Result<std::string> read_file(const std::string& real_path, const std::string& path, size_t max_bytes);
std::optional<std::string> getenv(const std::string& name);
std::vector<std::string> environment_names();
Result<FsSpace> filesystem_space(const std::string& mount);
std::string machine_arch();
std::optional<std::string> hostname();
std::vector<std::string> program_arguments(int argc, char** argv);
void prepare_console();
UserIdentity current_user();
bool stdout_is_terminal();
bool stderr_is_terminal();
std::optional<int> terminal_columns();

/// An isolated child's payload channel: its original standard output, set aside before fd 1 (or the standard
/// output handle) is pointed at standard error, so that a library's printf cannot corrupt the payload.
struct PayloadChannel {
  long long handle = -1;  ///< a file descriptor on POSIX, a HANDLE on Windows
};
PayloadChannel open_payload_channel();
/// Runs an isolated child's call: its payload and exit code, a thrown exception as code 3 with
/// "exception: <what>" (the one place both the forked child and the re-run one do this).
std::pair<std::string, int> run_catching(const std::function<std::string()>& call);
bool write_payload(const PayloadChannel& channel, const std::string& payload);

}  // namespace gpuscout::os::native
