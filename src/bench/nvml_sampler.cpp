#include "bench/nvml_sampler.hpp"

#include <chrono>
#include <cstdlib>

#include <fmt/format.h>

#include "os/library.hpp"

namespace gpuscout::bench {

// The few NVML entry points used here, declared by hand (nvml.h is not needed to build).
struct NvmlSampler::Api {
  os::SharedLibrary lib;
  using InitFn = int (*)();
  using HandleByBusFn = int (*)(const char*, void**);
  using UintFn = int (*)(void*, unsigned*);
  using ClockFn = int (*)(void*, int, unsigned*);
  using TempFn = int (*)(void*, int, unsigned*);
  using ReasonsFn = int (*)(void*, unsigned long long*);
  InitFn init = nullptr;
  InitFn shutdown = nullptr;
  HandleByBusFn by_bus = nullptr;
  ClockFn clock = nullptr;
  UintFn power = nullptr;
  TempFn temperature = nullptr;
  ReasonsFn reasons = nullptr;
  UintFn pcie_gen = nullptr;
  UintFn pcie_width = nullptr;
  UintFn max_gen = nullptr;
  UintFn gpu_max_gen = nullptr;
  UintFn max_width = nullptr;
  UintFn power_limit = nullptr;
};

std::vector<std::string> throttle_reason_names(uint64_t bits) {
  static const std::pair<uint64_t, const char*> names[] = {
      {0x1, "gpu_idle"}, {0x2, "applications_clocks_setting"}, {0x4, "sw_power_cap"}, {0x8, "hw_slowdown"},
      {0x10, "sync_boost"}, {0x20, "sw_thermal_slowdown"}, {0x40, "hw_thermal_slowdown"},
      {0x80, "hw_power_brake_slowdown"}, {0x100, "display_clock_setting"}};
  std::vector<std::string> out;
  for (const auto& [bit, name] : names)
    if (bits & bit) out.emplace_back(name);
  return out;
}

std::unique_ptr<NvmlSampler> NvmlSampler::open(const std::string& pci_bus_id, std::string& error) {
  const char* env = std::getenv("GPUSCOUT_NVML_LIBRARY");
  auto lib = os::SharedLibrary::open(env && *env ? env : "libnvidia-ml.so.1");
  if (!lib) {
    error = "NVML not available, no clocks, power or PCIe link during the run: " + lib.error().message;
    return nullptr;
  }
  auto api = std::make_unique<Api>();
  api->lib = std::move(*lib);
  auto& l = api->lib;
  api->init = l.symbol<Api::InitFn>("nvmlInit_v2");
  if (!api->init) api->init = l.symbol<Api::InitFn>("nvmlInit");
  api->shutdown = l.symbol<Api::InitFn>("nvmlShutdown");
  api->by_bus = l.symbol<Api::HandleByBusFn>("nvmlDeviceGetHandleByPciBusId_v2");
  if (!api->by_bus) api->by_bus = l.symbol<Api::HandleByBusFn>("nvmlDeviceGetHandleByPciBusId");
  api->clock = l.symbol<Api::ClockFn>("nvmlDeviceGetClockInfo");
  api->power = l.symbol<Api::UintFn>("nvmlDeviceGetPowerUsage");
  api->temperature = l.symbol<Api::TempFn>("nvmlDeviceGetTemperature");
  api->reasons = l.symbol<Api::ReasonsFn>("nvmlDeviceGetCurrentClocksEventReasons");
  if (!api->reasons) api->reasons = l.symbol<Api::ReasonsFn>("nvmlDeviceGetCurrentClocksThrottleReasons");
  api->pcie_gen = l.symbol<Api::UintFn>("nvmlDeviceGetCurrPcieLinkGeneration");
  api->pcie_width = l.symbol<Api::UintFn>("nvmlDeviceGetCurrPcieLinkWidth");
  api->max_gen = l.symbol<Api::UintFn>("nvmlDeviceGetMaxPcieLinkGeneration");
  api->gpu_max_gen = l.symbol<Api::UintFn>("nvmlDeviceGetGpuMaxPcieLinkGeneration");
  api->max_width = l.symbol<Api::UintFn>("nvmlDeviceGetMaxPcieLinkWidth");
  api->power_limit = l.symbol<Api::UintFn>("nvmlDeviceGetEnforcedPowerLimit");
  if (!api->init || !api->by_bus) {
    error = "NVML library lacks nvmlInit/nvmlDeviceGetHandleByPciBusId";
    return nullptr;
  }
  if (int rc = api->init(); rc != 0) {
    error = fmt::format("nvmlInit failed (NVML error {})", rc);
    return nullptr;
  }
  void* device = nullptr;
  if (int rc = api->by_bus(pci_bus_id.c_str(), &device); rc != 0 || !device) {
    error = fmt::format("nvmlDeviceGetHandleByPciBusId({}) failed (NVML error {})", pci_bus_id, rc);
    if (api->shutdown) api->shutdown();
    return nullptr;
  }
  std::unique_ptr<NvmlSampler> s(new NvmlSampler());
  s->api_ = std::move(api);
  s->device_ = device;
  unsigned v = 0;
  const auto& a = *s->api_;
  if (a.max_gen && a.max_gen(device, &v) == 0) s->link_max_.gen_max = static_cast<int>(v);
  if (a.gpu_max_gen && a.gpu_max_gen(device, &v) == 0) s->link_max_.gpu_gen_max = static_cast<int>(v);
  if (a.max_width && a.max_width(device, &v) == 0) s->link_max_.width_max = static_cast<int>(v);
  if (a.power_limit && a.power_limit(device, &v) == 0) s->link_max_.power_limit_mw = v;
  return s;
}

NvmlSampler::~NvmlSampler() {
  stop();
  if (api_ && api_->shutdown) api_->shutdown();
}

NvmlSample NvmlSampler::read_one(double t) const {
  NvmlSample s;
  s.t_s = t;
  s.phase = phase_.load();
  const auto& a = *api_;
  unsigned v = 0;
  if (a.clock && a.clock(device_, 1 /* NVML_CLOCK_SM */, &v) == 0) s.sm_clock_mhz = static_cast<int>(v);
  if (a.power && a.power(device_, &v) == 0) s.power_mw = v;
  if (a.temperature && a.temperature(device_, 0 /* NVML_TEMPERATURE_GPU */, &v) == 0)
    s.temperature_c = static_cast<int>(v);
  unsigned long long bits = 0;
  if (a.reasons && a.reasons(device_, &bits) == 0) s.throttle_reasons = bits;
  if (a.pcie_gen && a.pcie_gen(device_, &v) == 0) s.pcie_gen = static_cast<int>(v);
  if (a.pcie_width && a.pcie_width(device_, &v) == 0) s.pcie_width = static_cast<int>(v);
  return s;
}

void NvmlSampler::start(int period_ms) {
  if (running_.exchange(true)) return;
  thread_ = std::thread([this, period_ms] {
    const auto t0 = std::chrono::steady_clock::now();
    while (running_.load()) {
      const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      NvmlSample s = read_one(t);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        samples_.push_back(s);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(period_ms));
    }
  });
}

void NvmlSampler::stop() {
  running_.store(false);
  if (thread_.joinable()) thread_.join();
}

std::vector<NvmlSample> NvmlSampler::samples() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return samples_;
}

}  // namespace gpuscout::bench
