#include "cli/inventory_source.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

#include "cli/environment.hpp"
#include "core/error.hpp"
#include "core/i18n.hpp"
#include "inventory/json.hpp"
#include "os/system.hpp"
#include "probe/probe.hpp"

namespace gpuscout::cli {

namespace {

/// "Checking this machine ..." on stderr while the probes run longer than half a second, on a terminal only (never
/// in a pipe, a log or --json's output); the line is erased when they finish.
class ProgressLine {
 public:
  ProgressLine() {
    if (!os::stderr_is_terminal()) return;
    worker_ = std::thread([this] {
      std::unique_lock lock(mutex_);
      if (wake_.wait_for(lock, std::chrono::milliseconds(500), [this] { return done_; })) return;
      const std::string line = std::string("\r") + tr("Checking this machine (drivers, Python, PyTorch)...");
      std::fwrite(line.data(), 1, line.size(), stderr);
      std::fflush(stderr);
      shown_ = true;
    });
  }
  ~ProgressLine() {
    if (!worker_.joinable()) return;
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    wake_.notify_all();
    worker_.join();
    if (shown_) {
      std::fputs("\r\033[K", stderr);
      std::fflush(stderr);
    }
  }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  bool shown_ = false;
  std::thread worker_;
};

}  // namespace

Inventory obtain_inventory(const InventorySource& source) {
  if (!source.from.empty()) {
    auto inv = load_inventory_file(source.from);
    if (!inv) throw UsageError(inv.error().message);
    return std::move(*inv);
  }
  probe::Options options;
  options.python = source.python;
  options.driver_timeout = std::chrono::milliseconds(static_cast<long long>(source.timeout_s * 1000));
  if (source.timeout_given) options.python_timeout = options.driver_timeout;
  else if (const auto seconds = python_timeout_from_environment())
    options.python_timeout = std::chrono::milliseconds(static_cast<long long>(*seconds * 1000));
  options.python_executable = source.python_executable;
  const ProgressLine progress;
  return probe::collect(options);
}

}  // namespace gpuscout::cli
