#pragma once
// An NVML table of plain functions for one GPU at a fixed handle, for probe tests in process: each test adds the
// entry points it is about.
#include <cstdint>

#include "vendor/nvml.hpp"

namespace gpuscout::test_nvml {

namespace nvml = vendor::nvml;

inline nvml::Return ok() { return nvml::SUCCESS; }
inline const char* error_string(nvml::Return r) {
  return r == nvml::ERROR_GPU_IS_LOST ? "GPU is lost" : "Unknown Error";
}
inline nvml::Return one_device(unsigned* c) {
  *c = 1;
  return nvml::SUCCESS;
}
inline nvml::Return the_device(unsigned, nvml::Device* d) {
  *d = reinterpret_cast<nvml::Device>(static_cast<uintptr_t>(0x1000));
  return nvml::SUCCESS;
}

/// Init, shutdown, error strings and one device; nothing else.
inline nvml::Functions one_gpu_table() {
  nvml::Functions f;
  f.init = {&ok, "nvmlInit_v2"};
  f.shutdown = {&ok, "nvmlShutdown"};
  f.error_string = {&error_string, "nvmlErrorString"};
  f.device_count = {&one_device, "nvmlDeviceGetCount_v2"};
  f.device_by_index = {&the_device, "nvmlDeviceGetHandleByIndex_v2"};
  return f;
}

}  // namespace gpuscout::test_nvml
