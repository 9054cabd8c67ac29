#pragma once
/// The check function of each row of the rules table (rules.cpp), one per code, grouped by the file that
/// holds them. Each is pure: Context in, zero or more notes out.
#include <string>
#include <utility>
#include <vector>

#include "diagnose/rules.hpp"

namespace gpuscout::diagnose::checks {

inline std::vector<Note> one(std::string message, std::string fix) {
  std::vector<Note> out;
  out.push_back(Note{std::move(message), std::move(fix)});
  return out;
}

/// A plan step as a finding's fix: its words, then its command (last, so nothing is glued to it).
std::string step_text(const Step& step);

// rules_driver.cpp: the NVIDIA driver and the CUDA driver API.
std::vector<Note> nouveau_driver(const Context& c);
std::vector<Note> driver_probe_timeout(const Context& c);
std::vector<Note> driver_library_mismatch(const Context& c);
std::vector<Note> nvidia_driver_not_loaded(const Context& c);
std::vector<Note> nvidia_driver_missing(const Context& c);
std::vector<Note> nvml_error(const Context& c);
std::vector<Note> cuda_stub_library(const Context& c);
std::vector<Note> cuda_init_failed(const Context& c);
std::vector<Note> fabric_manager(const Context& c);
std::vector<Note> driver_too_old(const Context& c);
std::vector<Note> cuda_no_device(const Context& c);

// rules_environment.cpp: the environment variables that change which GPUs CUDA sees and how it runs them.
std::vector<Note> cuda_visible_devices_empty(const Context& c);
std::vector<Note> cuda_visible_devices_hides(const Context& c);
std::vector<Note> cuda_count_mismatch(const Context& c);
std::vector<Note> cuda_device_order(const Context& c);
std::vector<Note> cuda_launch_blocking(const Context& c);

// rules_torch.cpp: each GPU against PyTorch's builds, and the installed PyTorch.
std::vector<Note> gpu_too_old(const Context& c);
std::vector<Note> gpu_unsupported_by_torch(const Context& c);
std::vector<Note> low_vram(const Context& c);
std::vector<Note> torch_broken(const Context& c);
std::vector<Note> python_too_old(const Context& c);
std::vector<Note> torch_missing(const Context& c);
std::vector<Note> python_missing(const Context& c);
std::vector<Note> python_store_alias(const Context& c);
std::vector<Note> torch_few_threads(const Context& c);
std::vector<Note> torch_debug_build(const Context& c);
std::vector<Note> torch_cpu_only(const Context& c);
std::vector<Note> driver_too_old_for_torch(const Context& c);
std::vector<Note> driver_older_than_torch_cuda(const Context& c);
std::vector<Note> torch_cuda_unavailable(const Context& c);

// rules_machine.cpp: no NVIDIA GPU, several GPUs, the machine itself.
std::vector<Note> no_nvidia_gpu(const Context& c);
std::vector<Note> torch_wrong_backend(const Context& c);
std::vector<Note> rocm_unusable(const Context& c);
std::vector<Note> no_gpu(const Context& c);
std::vector<Note> gpu_busy(const Context& c);
std::vector<Note> gpu_memory_errors(const Context& c);
std::vector<Note> mixed_vram(const Context& c);
std::vector<Note> low_ram(const Context& c);
std::vector<Note> small_dev_shm(const Context& c);
std::vector<Note> gpu_far_numa(const Context& c);
std::vector<Note> low_disk(const Context& c);
std::vector<Note> windows_long_paths(const Context& c);
std::vector<Note> driver_model_tcc(const Context& c);
std::vector<Note> laptop(const Context& c);
std::vector<Note> cloud_notebook(const Context& c);

}  // namespace gpuscout::diagnose::checks
