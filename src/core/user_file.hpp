#pragma once
/// Files the user names on the command line (--from, --bench, --compare, --prices): read whole, but only when
/// they are regular files of a sane size, so a folder, a FIFO or /dev/zero gives a clear error instead of a
/// hang or an endless read. Not under GPUSCOUT_SYSROOT: the user's paths are the real machine's.
#include <cstdint>
#include <string>

#include "core/error.hpp"

namespace gpuscout::core {

inline constexpr std::uintmax_t kUserFileMaxBytes = 64ull << 20;

/// The file's bytes; errors read "PATH: no such file", "PATH: is a folder, not a file", "PATH: not a regular
/// file", "PATH: larger than 64 MiB", "PATH: cannot be read: REASON".
Result<std::string> read_user_file(const std::string& path, std::uintmax_t max_bytes = kUserFileMaxBytes);

/// The first `max_bytes` bytes of a regular file the user named (all of it when shorter), for formats whose
/// header sits at the front of a large file (a safetensors checkpoint). Same errors as read_user_file but
/// the size one; a FIFO is refused without waiting for a writer.
Result<std::string> read_user_file_prefix(const std::string& path, std::uintmax_t max_bytes);

}  // namespace gpuscout::core
