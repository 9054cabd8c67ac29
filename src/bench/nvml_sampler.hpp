#pragma once
/// Samples one GPU through NVML (vendor::nvml: libnvidia-ml.so.1 by soname, or $GPUSCOUT_NVML_LIBRARY) on a
/// background thread while the benchmarks run: SM clock, power, temperature, throttle reasons, and the
/// PCIe link generation and width, which are only meaningful under load (idle links drop to gen 1).
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "vendor/nvml.hpp"

namespace gpuscout::bench {

struct NvmlSample {
  double t_s = 0;
  int phase = 0;  ///< index into the phase names given to set_phase()
  std::optional<int> sm_clock_mhz;
  std::optional<uint32_t> power_mw;
  bool power_instant = false;  ///< power_mw is the instantaneous field, not the one-second average
  std::optional<int> temperature_c;
  std::optional<uint64_t> throttle_reasons;  ///< nvmlClocksEventReason bits
  std::optional<int> pcie_gen;
  std::optional<int> pcie_width;
};

struct LinkMax {
  std::optional<int> gen_max;      ///< what card and slot allow (MaxPcieLinkGeneration)
  std::optional<int> gpu_gen_max;  ///< what the card allows (GpuMaxPcieLinkGeneration)
  std::optional<int> width_max;
  std::optional<uint32_t> power_limit_mw;
};

/// Throttle reason bits that mean a fault (thermal, hardware slowdown, power brake). The software power cap is not
/// one: a card at its power limit (an H200 at 700 W under every dense GEMM) sets it while working as designed.
inline constexpr uint64_t kThrottleLossMask = vendor::nvml::kReasonHwSlowdown | vendor::nvml::kReasonSwThermal |
                                              vendor::nvml::kReasonHwThermal | vendor::nvml::kReasonHwPowerBrake;
/// Readable names of the set bits ("sw_power_cap", "hw_thermal_slowdown", ...). Pure.
std::vector<std::string> throttle_reason_names(uint64_t bits);

/// The board's instantaneous power (field NVML_FI_DEV_POWER_INSTANT), or nullopt where the driver lacks it.
std::optional<uint32_t> power_instant_mw(const vendor::nvml::Functions& f, vendor::nvml::Device device);

class NvmlSampler {
 public:
  /// Opens NVML and finds the device by PCI bus id; the error says why sampling is off.
  static std::unique_ptr<NvmlSampler> open(const std::string& pci_bus_id, std::string& error);
  ~NvmlSampler();
  void start(int period_ms = 50);
  void stop();
  /// Marks the following samples with `phase` (an index the caller names).
  void set_phase(int phase) { phase_.store(phase); }
  std::vector<NvmlSample> samples() const;
  const LinkMax& link_max() const { return link_max_; }
  /// Binds the calling thread to the CPUs near the GPU (nvmlDeviceSetCpuAffinity, as nvbandwidth does before host
  /// transfers, so a two-socket server does not read host memory across the sockets); false when NVML cannot.
  bool bind_calling_thread();
  /// Undoes bind_calling_thread (nvmlDeviceClearCpuAffinity).
  void unbind_calling_thread();

 private:
  NvmlSampler() = default;
  NvmlSample read_one(double t) const;
  std::unique_ptr<vendor::nvml::Library> nvml_;
  vendor::nvml::Device device_ = nullptr;
  LinkMax link_max_;
  std::atomic<int> phase_{0};
  std::atomic<bool> running_{false};
  std::thread thread_;
  mutable std::mutex mutex_;
  std::vector<NvmlSample> samples_;
};

}  // namespace gpuscout::bench
