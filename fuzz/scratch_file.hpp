#pragma once
/// A fuzzer's input as a file on disk, for readers that take a path (load_inventory_file, load_bench_file), so
/// the fuzzers go through the same size and type checks as a user's --from or --compare file. One file per
/// process, rewritten for every input and removed at exit.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace gpuscout::fuzz {

class ScratchFile {
 public:
  explicit ScratchFile(const char* suffix) {
    const char* dir = std::getenv("TMPDIR");
    path_ = std::string(dir && *dir ? dir : "/tmp") + "/gpuscout-fuzz-XXXXXX" + suffix;
    fd_ = ::mkstemps(path_.data(), static_cast<int>(std::string_view(suffix).size()));
    if (fd_ < 0) {
      std::perror("gpuscout fuzz: mkstemps");
      std::abort();
    }
  }
  ~ScratchFile() {
    ::close(fd_);
    ::unlink(path_.c_str());
  }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  /// Replaces the file's bytes with `bytes`; returns its path.
  const std::string& write(std::string_view bytes) {
    if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, bytes.data(), bytes.size(), 0) != static_cast<ssize_t>(bytes.size())) {
      std::perror("gpuscout fuzz: write");
      std::abort();
    }
    return path_;
  }

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace gpuscout::fuzz
