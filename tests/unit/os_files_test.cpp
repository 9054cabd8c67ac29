// Atomic writes and sysroot reads against hostile targets: devices, FIFOs, folders, planted links.
#include <sys/resource.h>
#include <sys/stat.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "os/process.hpp"
#include "os/system.hpp"
#include "test_support.hpp"

using namespace gpuscout;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

class Dir {
 public:
  Dir() : path_(fs::temp_directory_path() / ("gpuscout-os-files-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~Dir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  size_t entries() const {
    size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(path_)) ++n;
    return n;
  }

 private:
  static inline int counter_ = 0;
  fs::path path_;
};

using gpuscout::test_support::read_file;

using gpuscout::test_support::contains;

}  // namespace

TEST(AtomicWrite, AFifoTargetIsAnErrorAndStaysAFifo) {
  Dir dir;
  const auto fifo = dir / "out.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto r = os::write_file_atomic(fifo, "{}");
  ASSERT_FALSE(r.has_value());
  EXPECT_TRUE(contains(r.error().message, "not a regular file")) << r.error().message;
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(fifo)));
  EXPECT_EQ(dir.entries(), 1u) << "no temporary left behind";
}

TEST(AtomicWrite, ADeviceIsNeverReplaced) {
  auto r = os::write_file_atomic("/dev/null", "{}");
  ASSERT_FALSE(r.has_value());
  EXPECT_TRUE(contains(r.error().message, "/dev/null: not a regular file")) << r.error().message;
  EXPECT_TRUE(fs::is_character_file(fs::symlink_status("/dev/null")));
}

TEST(AtomicWrite, AFolderTargetIsAnError) {
  Dir dir;
  fs::create_directory(dir / "out.json");
  auto r = os::write_file_atomic(dir / "out.json", "{}");
  ASSERT_FALSE(r.has_value());
  EXPECT_TRUE(contains(r.error().message, "is a folder")) << r.error().message;
  EXPECT_TRUE(fs::is_directory(dir / "out.json"));
  EXPECT_EQ(dir.entries(), 1u);
}

TEST(AtomicWrite, AMissingFolderIsNamed) {
  Dir dir;
  auto r = os::write_file_atomic(dir / "missing/x.json", "{}");
  ASSERT_FALSE(r.has_value());
  EXPECT_TRUE(contains(r.error().message, "the folder " + (dir / "missing") + " does not exist")) << r.error().message;
  EXPECT_EQ(dir.entries(), 0u);
}

TEST(AtomicWrite, ALinkPlantedAtTheOldPredictableTemporaryNameIsNotFollowed) {
  Dir dir;
  const auto victim = dir / "victim.txt";
  std::ofstream(victim) << "precious";
  const auto target = dir / "out.json";
  const auto planted = target + ".tmp-gpuscout-" + std::to_string(::getpid());
  fs::create_symlink(victim, planted);
  ASSERT_TRUE(os::write_file_atomic(target, "{\"new\":1}").has_value());
  EXPECT_EQ(read_file(victim), "precious");
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(target)));
  EXPECT_EQ(read_file(target), "{\"new\":1}");
  EXPECT_EQ(dir.entries(), 3u) << "victim, planted link, target: nothing else";
}

TEST(AtomicWrite, ALinkToARegularFileIsWrittenThroughAndStaysALink) {
  Dir dir;
  fs::create_directory(dir / "real");
  const auto real = dir / "real/state.json";
  std::ofstream(real) << "old";
  ::chmod(real.c_str(), 0640);
  fs::create_symlink(real, dir / "link.json");
  ASSERT_TRUE(os::write_file_atomic(dir / "link.json", "new").has_value());
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dir / "link.json")));
  EXPECT_EQ(read_file(real), "new");
  struct stat st {};
  ASSERT_EQ(::stat(real.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u) << "the old file's permissions are kept";
  size_t in_real = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir / "real")) ++in_real;
  EXPECT_EQ(in_real, 1u);
}

TEST(AtomicWrite, ADanglingLinkIsAnError) {
  Dir dir;
  fs::create_symlink(dir / "nowhere", dir / "out.json");
  auto r = os::write_file_atomic(dir / "out.json", "{}");
  ASSERT_FALSE(r.has_value());
  EXPECT_FALSE(fs::exists(dir / "nowhere"));
}

TEST(AtomicWrite, AFailedWriteRemovesTheTemporary) {
  Dir dir;
  const auto target = dir / "big.json";
  // In a child, so the file size limit does not reach the test process: writes past 16 bytes fail (EFBIG).
  auto child = os::fork_call([&] {
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{16, 16};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    auto r = os::write_file_atomic(target, std::string(4096, 'x'));
    return r ? std::string("written") : r.error().message;
  }, 10s);
  ASSERT_TRUE(child.has_value());
  const auto r = child->wait();
  EXPECT_TRUE(contains(r.out, "big.json: cannot write")) << r.out;
  EXPECT_EQ(dir.entries(), 0u) << "neither the target nor a temporary";
}

TEST(SysrootRead, AFifoIsRefusedWithoutWaitingForAWriter) {
  Dir dir;
  fs::create_directories(dir / "proc");
  ASSERT_EQ(::mkfifo((dir / "proc/meminfo").c_str(), 0600), 0);
  // In a child with a deadline: before the fix the open blocked for ever.
  const std::string root = dir / "";
  auto child = os::fork_call([&] {
    os::set_sysroot(root);
    auto r = os::read_file("/proc/meminfo");
    return r ? std::string("read ") + std::to_string(r->size()) : r.error().message;
  }, 5s);
  ASSERT_TRUE(child.has_value());
  const auto r = child->wait();
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.out, "/proc/meminfo: not a regular file (a device, FIFO or socket)");
}

TEST(SysrootRead, FoldersAndDevicesAreRefused) {
  auto folder = os::read_file("/proc");
  ASSERT_FALSE(folder.has_value());
  EXPECT_EQ(folder.error().message, "/proc: is a folder, not a file");
  auto zero = os::read_file("/dev/zero");  // would otherwise read until max_bytes
  ASSERT_FALSE(zero.has_value());
  EXPECT_TRUE(contains(zero.error().message, "not a regular file")) << zero.error().message;
  EXPECT_FALSE(os::read_file("/definitely/not/here").has_value());
}

TEST(SysrootRead, ProcAndSysFilesThatReportSizeZeroAreReadWhole) {
  auto status = os::read_file("/proc/self/status");
  ASSERT_TRUE(status.has_value()) << status.error().message;
  EXPECT_TRUE(contains(*status, "VmRSS") || contains(*status, "Pid:"));
  auto online = os::read_line("/sys/devices/system/cpu/online");
  ASSERT_TRUE(online.has_value()) << online.error().message;
  EXPECT_FALSE(online->empty());
  auto capped = os::read_file("/proc/self/maps", 16);
  ASSERT_FALSE(capped.has_value());
  EXPECT_TRUE(contains(capped.error().message, "larger than 16 bytes"));
}

TEST(SysrootRead, EveryRecordedMachineStillReads) {
  for (const auto& machine : fs::directory_iterator(GPUSCOUT_SYSROOTS_DIR)) {
    if (!machine.is_directory()) continue;
    os::set_sysroot(machine.path().string());
    for (const char* file : {"/proc/cpuinfo", "/proc/meminfo"}) {
      if (!fs::exists(machine.path().string() + file)) continue;
      auto r = os::read_file(file);
      EXPECT_TRUE(r.has_value()) << machine.path() << file << ": " << r.error().message;
      if (r) EXPECT_FALSE(r->empty()) << machine.path() << file;
    }
  }
  os::set_sysroot("");
}
