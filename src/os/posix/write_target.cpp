#include "os/write_target.hpp"
#include "core/i18n.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

namespace gpuscout::os {

Result<void> check_write_target(const std::string& path, bool replace_read_only) {
  if (path.empty()) return fail(tr("an empty file name: give the file to write"));
  struct stat st{};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return fail(trf("{}: is a folder, not a file", path));
    if (!S_ISREG(st.st_mode)) return fail(trf("{}: not a regular file (a device, FIFO or socket)", path));
    // No write bit at all counts too: root may write anything, but a file made read-only was meant to stay.
    if (!replace_read_only && (::access(path.c_str(), W_OK) != 0 || (st.st_mode & 0222) == 0))
      return fail(trf("{}: the file is read-only, so gpuscout leaves it as it is; add --force to replace it, or "
                      "choose another name", path));
  } else if (errno != ENOENT && errno != ENOTDIR) {  // ENOTDIR: the folder check below names the culprit
    return fail(fmt::format("{}: {}", path, std::strerror(errno)));
  }
  std::string folder = std::filesystem::path(path).parent_path().string();
  if (folder.empty()) folder = ".";
  if (::stat(folder.c_str(), &st) != 0)
    return fail(errno == ENOENT ? trf("{}: the folder {} does not exist", path, folder)
                                : trf("{}: the folder {} cannot be used: {}", path, folder, std::strerror(errno)));
  if (!S_ISDIR(st.st_mode)) return fail(trf("{}: {} is not a folder", path, folder));
  // W_OK and X_OK: creating the temporary file beside the target needs both.
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    return fail(trf("{}: cannot write in the folder {}: {}", path, folder, std::strerror(errno)));
  return {};
}

}  // namespace gpuscout::os
