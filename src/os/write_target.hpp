#pragma once
/// Whether a file the user asked to have written (bench --save, report --html) can be written, checked before
/// the work that produces it: a run of several minutes should not end in "no such folder".
#include <string>

#include "core/error.hpp"

namespace gpuscout::os {

/// Succeeds when `path`'s folder exists, is a folder and this process may create files in it, and `path` itself
/// is absent or a regular file (never a folder, a FIFO or a device, which a rename would replace). The error
/// reads "PATH: REASON". Not under the sysroot: this is the user's file.
Result<void> check_write_target(const std::string& path);

}  // namespace gpuscout::os
