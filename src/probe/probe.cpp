// Orchestration: start the slow, fallible probes (Python, NVML, CUDA) as bounded children first, read the
// local files meanwhile, then collect. A child that hangs is killed at its deadline and reported.
#include "probe/probe.hpp"

#include <unistd.h>

#include <chrono>
#include <ctime>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "inventory/json.hpp"
#include "os/process.hpp"
#include "os/system.hpp"
#include "probe/sources.hpp"

namespace gpuscout::probe {
namespace {

std::string child_failure(const os::ProcessResult& r, std::chrono::milliseconds timeout) {
  if (r.timed_out) return fmt::format("no answer within {:.1f} s: the driver is hung (killed the probe)", static_cast<double>(timeout.count()) / 1000.0);
  if (r.signal) return fmt::format("the probe crashed inside the driver library (signal {})", r.signal);
  return fmt::format("the probe failed (exit code {})", r.exit_code);
}

}  // namespace

Inventory collect(const Options& options) {
  const auto start = std::chrono::steady_clock::now();
  Inventory inv;
  inv.gpuscout_version = GPUSCOUT_VERSION;
  inv.collected_at = os::utc_now_iso8601();

  // 1. Children first, so they run while we read files.
  std::optional<os::Child> python_child;
  if (options.python) {
    inv.python.probed = true;
    std::string exe = options.python_executable;
    if (exe.empty()) {
      const char* env = std::getenv("GPUSCOUT_PYTHON");
      exe = env && *env ? env : "python3";
    }
    auto python_timeout = options.python_timeout;
    if (const char* t = std::getenv("GPUSCOUT_PYTHON_TIMEOUT")) {
      char* end = nullptr;
      const double seconds = std::strtod(t, &end);
      if (end != t && seconds > 0 && seconds < 3600) python_timeout = std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
    }
    auto child = os::spawn({exe, "-c", std::string(python_probe_script())}, python_timeout);
    if (child) python_child = std::move(*child);
    else inv.python.error = ProbeError{"python", exe, child.error().message, std::nullopt};
  }
  auto nvml_child = os::fork_call([] {
    auto report = probe_nvml();
    return nlohmann::json{{"info", report.info}, {"gpus", report.gpus}}.dump();
  }, options.driver_timeout);
  auto cuda_child = os::fork_call([] { return nlohmann::json(probe_cuda_driver()).dump(); }, options.driver_timeout);

  // 2. Local facts.
  inv.cpu = probe_cpu();
  inv.memory = probe_memory();
  inv.disks = probe_disks(inv.disk_errors);
  inv.os = probe_os(inv.cpu.hypervisor);
  inv.platform = probe_platform(inv.os);
  inv.gpus = probe_pci_gpus(inv.pci_errors);
  if (options.toolkit) inv.toolkit = probe_toolkit();
  char host[256] = {0};
  if (os::sysroot().empty() && ::gethostname(host, sizeof host - 1) == 0) inv.hostname = std::string(host);

  // 3. Drivers.
  NvmlReport nvml;
  if (nvml_child) {
    const auto r = nvml_child->wait();
    if (r.exit_code == 0 && !r.timed_out) {
      try {
        auto doc = nlohmann::json::parse(r.out);
        doc.at("info").get_to(nvml.info);
        doc.at("gpus").get_to(nvml.gpus);
      } catch (const nlohmann::json::exception& e) {
        nvml.info.error = ProbeError{"nvml", "probe child", std::string("unreadable result: ") + e.what(), std::nullopt};
      }
    } else {
      nvml.info.timed_out = r.timed_out;
      nvml.info.library_found = true;  // it got far enough to hang or crash
      nvml.info.error = ProbeError{"nvml", "nvmlInit_v2", child_failure(r, options.driver_timeout), std::nullopt};
    }
  } else {
    nvml.info.error = ProbeError{"nvml", "fork", nvml_child.error().message, std::nullopt};
  }
  if (cuda_child) {
    const auto r = cuda_child->wait();
    if (r.exit_code == 0 && !r.timed_out) {
      try {
        nlohmann::json::parse(r.out).get_to(inv.cuda);
      } catch (const nlohmann::json::exception& e) {
        inv.cuda.error = ProbeError{"cuda", "probe child", std::string("unreadable result: ") + e.what(), std::nullopt};
      }
    } else {
      inv.cuda.timed_out = r.timed_out;
      inv.cuda.library_found = true;
      inv.cuda.error = ProbeError{"cuda", "cuInit", child_failure(r, options.driver_timeout), std::nullopt};
    }
  } else {
    inv.cuda.error = ProbeError{"cuda", "fork", cuda_child.error().message, std::nullopt};
  }
  inv.nvidia = nvml.info;
  probe_nvidia_module(inv.nvidia);
  join_gpus(inv, nvml);

  // 4. Python.
  if (python_child) {
    const auto r = python_child->wait();
    if (r.timed_out) {
      inv.python.timed_out = true;
      inv.python.error = ProbeError{"python", "import torch",
                                    "no answer within the time limit (import torch hung?)",
                                    std::nullopt};
    } else {
      parse_python_probe_output(r.out, inv.python, inv.torch);
      if (!inv.python.version && !inv.python.error)
        inv.python.error = ProbeError{"python", "python3", fmt::format("exited with code {}: {}", r.exit_code, r.err.substr(0, 300)),
                                      std::nullopt};
    }
  }
  inv.probe_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return inv;
}

}  // namespace gpuscout::probe
