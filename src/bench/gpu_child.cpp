#include "bench/gpu_child.hpp"

#include <signal.h>

#include <cstring>

#include <fmt/format.h>

#include "bench/gpu_wire.hpp"
#include "core/i18n.hpp"
#include "core/text.hpp"

namespace gpuscout::bench {
namespace {

// The last line the child wrote to stderr (a driver's own complaint), cleaned and short, or "".
std::string last_stderr_line(const std::string& err) {
  std::string last;
  for (auto line : text::split(err, '\n'))
    if (!text::trim(line).empty()) last = std::string(text::trim(line));
  if (last.size() > 200) last = last.substr(0, 200) + "...";
  return last.empty() ? "" : " (it printed: " + text::clean_utf8(last) + ")";
}

GpuSection failed(std::string message) {
  GpuSection section;
  section.status.requested = true;
  section.status.message = std::move(message);
  return section;
}

const char* signal_name(int signal) {
#ifdef _WIN32
  (void)signal;
  return "crash";
#else
  const char* name = ::strsignal(signal);
  return name ? name : "unknown";
#endif
}

}  // namespace

GpuSection gpu_section_from_child(const os::ProcessResult& r, std::chrono::milliseconds timeout) {
  const double seconds = static_cast<double>(timeout.count()) / 1000.0;
  if (r.timed_out)
    return failed(fmt::format("the GPU benchmark did not finish within {:g} s: the NVIDIA driver or the GPU stopped "
                              "answering, so gpuscout stopped it{}. `gpuscout doctor` checks the driver; if the GPU "
                              "is only slow, give it more time with --timeout",
                              seconds, last_stderr_line(r.err)));
  if (r.signal != 0)
    return failed(fmt::format("the GPU benchmark crashed inside the CUDA driver or the plugin (signal {}, {}){}; "
                              "`gpuscout doctor` checks the driver",
                              r.signal, signal_name(r.signal), last_stderr_line(r.err)));
  if (r.exit_code != 0) {
    std::string why = text::clean_utf8(text::trim(r.out));
    if (why.starts_with("exception: ")) why = why.substr(11);
    return failed(fmt::format("the GPU benchmark failed (exit code {}){}{}", r.exit_code,
                              why.empty() ? "" : ": " + why, last_stderr_line(r.err)));
  }
  auto section = gpu_section_from_wire(r.out);
  if (!section) return failed(section.error().message);
  return std::move(*section);
}

#ifdef _WIN32
GpuSection run_gpus_bounded(const GpuPlan&, std::chrono::milliseconds) {
  // The CUDA plugin is built with nvcc for Linux only: this machine's toolchain cannot make a Windows one.
  return failed(tr("the GPU benchmark has no Windows build yet (its CUDA plugin is built for Linux only): run "
                   "`gpuscout bench` inside WSL2 or on Linux to measure the GPU"));
}
#else
GpuSection run_gpus_bounded(const GpuPlan& plan, std::chrono::milliseconds timeout) {
  GpuPlan quiet = plan;
  quiet.progress = {};  // the child's stderr is collected, not shown: a progress line there would be noise
  auto child = os::fork_call(
      // The parent decides when to stop: its signal handler kills this process group (os/lifetime.hpp).
      [&quiet]() -> std::string { return gpu_section_to_wire(run_gpus(quiet)); },
      timeout);
  if (!child) return failed("the GPU benchmark could not be started: " + child.error().message);
  const auto result = child->wait();
  if (stop_requested()) throw Interrupted{};
  return gpu_section_from_child(result, timeout);
}

#endif

}  // namespace gpuscout::bench
