#pragma once
/// Whether a file the user asked to have written (bench --save, report --html) can be written, checked before
/// the work that produces it: a run of several minutes should not end in "no such folder".
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.hpp"

namespace gpuscout::os {

/// Succeeds when `path`'s folder exists, is a folder and this process may create files in it, and `path` itself
/// is absent or a regular file (never a folder, a FIFO or a device, which a rename would replace) that is not
/// read-only (a file the user protected is replaced only with `replace_read_only`, the --force flag). The error
/// reads "PATH: REASON". Not under the sysroot: this is the user's file.
Result<void> check_write_target(const std::string& path, bool replace_read_only = false);

/// The temporary an atomic write fills beside `target`: "TARGET.tmp-gpuscout-<random>", or, where that name would
/// pass the file system's limit of `name_max` bytes for one name (a 240-byte name), ".gpuscout-<random>.tmp" in
/// the same folder.
std::string temporary_name(const std::string& target, uint64_t random, size_t name_max);

}  // namespace gpuscout::os
