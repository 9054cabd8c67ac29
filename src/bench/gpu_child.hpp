#pragma once
/// The GPU part of bench in a child process with a deadline, as the doctor's driver probes: dlopen of the plugin
/// and of libcuda, CUDA's initialisation and every measurement happen there, so a hung driver is killed (with
/// its whole process group) at the deadline and a crash inside the driver takes only the child.
#include <chrono>

#include "bench/gpu_bench.hpp"
#include "os/process.hpp"

namespace gpuscout::bench {

/// run_gpus(plan) in a fork_call child. A child that hangs past `timeout`, crashes or fails comes back as a
/// section whose status says so. A stop signal kills it at once (os/lifetime.hpp) and,
/// with bench's hook installed, this then throws Interrupted.
GpuSection run_gpus_bounded(const GpuPlan& plan, std::chrono::milliseconds timeout);

/// The section for a child's end: its answer, or why there is none (hung, crashed, failed). Pure.
GpuSection gpu_section_from_child(const os::ProcessResult& result, std::chrono::milliseconds timeout);

}  // namespace gpuscout::bench
