#pragma once
/// The one seam to the operating system's files. Every read of /proc, /sys and /etc goes through
/// a prefix (GPUSCOUT_SYSROOT, like hwloc's HWLOC_FSROOT), so tests replay recorded machines.
/// Paths given to these functions are absolute machine paths ("/proc/meminfo").
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace gpuscout::os {

/// The sysroot prefix in force ("" = the real machine). Read from GPUSCOUT_SYSROOT once.
const std::string& sysroot();
/// For tests and the library API: replaces the prefix for the rest of the process.
void set_sysroot(std::string prefix);

/// Reads a whole file under the sysroot; at most max_bytes (sysfs files are small, /proc/cpuinfo of a
/// 512-CPU machine is ~1 MB). Fails with "path: reason".
Result<std::string> read_file(const std::string& path, size_t max_bytes = 8u << 20);
/// The first line of a file, trimmed (sysfs attribute style).
Result<std::string> read_line(const std::string& path);
bool exists(const std::string& path);
bool is_directory(const std::string& path);
/// Names in a directory (no "." / ".."), sorted; empty when it cannot be read.
std::vector<std::string> list_dir(const std::string& path);
/// The target of a symbolic link (as written in the link), or an error.
Result<std::string> read_link(const std::string& path);

/// Environment variable lookup. Under a sysroot, the recorded <sysroot>/proc/self/environ answers
/// instead of the real environment, so a recorded Colab VM carries its COLAB_* variables.
std::optional<std::string> getenv(const std::string& name);
/// The names of every variable in the environment getenv answers from (the recorded one under a sysroot), in
/// the order the environment lists them; for prefix rules such as NCCL_*. Not cleaned: callers bound and clean.
std::vector<std::string> environment_names();

struct FsSpace {
  uint64_t total_bytes = 0;
  uint64_t free_bytes = 0;       ///< free to root
  uint64_t available_bytes = 0;  ///< free to an unprivileged user (what `df` shows as Avail)
};
/// statvfs() of a mount point; under a sysroot it is answered from <sysroot>/statvfs.txt
/// ("MOUNT TOTAL FREE AVAIL" per line), because sizes cannot be recorded as files.
Result<FsSpace> filesystem_space(const std::string& mount);

/// The program's arguments as UTF-8: argv as given on POSIX; on Windows the UTF-16 command line
/// (CommandLineToArgvW), since argv there is in the ANSI code page and loses Chinese file names.
std::vector<std::string> program_arguments(int argc, char** argv);
/// Makes the console show UTF-8 (Windows: the console's output code page; nothing to do on POSIX).
void prepare_console();

/// Who runs gpuscout, for the report's redaction: the account's names and home folders (USER, LOGNAME,
/// SUDO_USER, HOME and the passwd entry; USERNAME and USERPROFILE on Windows).
struct UserIdentity {
  std::vector<std::string> names;
  std::vector<std::string> homes;
};
UserIdentity current_user();
/// Whether standard output is a terminal, and its width in columns when it is one.
bool stdout_is_terminal();
/// Whether stderr is a terminal (a progress line is shown only there).
bool stderr_is_terminal();
std::optional<int> terminal_columns();

/// This machine's host name (gethostname; GetComputerNameExW's DNS host name), nullopt when it cannot be read.
std::optional<std::string> hostname();

/// uname(2)-like machine name ("x86_64", "aarch64") of the running process.
std::string machine_arch();

}  // namespace gpuscout::os

namespace gpuscout::os {
/// Writes a file all-or-nothing: to a temporary beside it, fsync, then rename(2). A failure (or Ctrl-C)
/// never leaves a half-written file at `path`, and a failure removes the temporary. Not under the sysroot:
/// this is the user's file.
/// - Only regular files are replaced: a folder, device (/dev/full), FIFO or socket at `path` is an error and
///   stays as it is. A missing folder is an error naming it.
/// - The temporary ("PATH.tmp-gpuscout-<random>") is created with O_CREAT|O_EXCL|O_NOFOLLOW, so a file or
///   link planted under a guessed name is never opened or followed.
/// - A symbolic link to a regular file is written through: the file it points to is replaced (the temporary
///   lives in that file's folder) and the link stays. A link to nothing is an error.
/// - An existing file keeps its permission bits; a new one gets 0666 less the umask. A read-only one is refused
///   unless `replace_read_only` (check_write_target).
/// - The temporary's name fits the file system's limit however long the target's is (temporary_name).
Result<void> write_file_atomic(const std::string& path, std::string_view content, bool replace_read_only = false);
/// The current time as ISO 8601 UTC ("2026-11-29T23:35:04Z"), the form every saved document uses.
std::string utc_now_iso8601();

}  // namespace gpuscout::os
