#include "bench/nvml_sampler.hpp"

#include <chrono>

#include <fmt/format.h>

namespace gpuscout::bench {

namespace nvml = vendor::nvml;

std::vector<std::string> throttle_reason_names(uint64_t bits) {
  static const std::pair<uint64_t, const char*> names[] = {
      {nvml::kReasonGpuIdle, "gpu_idle"},
      {nvml::kReasonAppClocks, "applications_clocks_setting"},
      {nvml::kReasonSwPowerCap, "sw_power_cap"},
      {nvml::kReasonHwSlowdown, "hw_slowdown"},
      {nvml::kReasonSyncBoost, "sync_boost"},
      {nvml::kReasonSwThermal, "sw_thermal_slowdown"},
      {nvml::kReasonHwThermal, "hw_thermal_slowdown"},
      {nvml::kReasonHwPowerBrake, "hw_power_brake_slowdown"},
      {nvml::kReasonDisplayClocks, "display_clock_setting"}};
  std::vector<std::string> out;
  for (const auto& [bit, name] : names)
    if (bits & bit) out.emplace_back(name);
  return out;
}

std::optional<uint32_t> power_instant_mw(const vendor::nvml::Functions& f, vendor::nvml::Device device) {
  if (!f.device_field_values) return std::nullopt;
  nvml::FieldValue field{};
  field.fieldId = nvml::FI_DEV_POWER_INSTANT;
  if (f.device_field_values(device, 1, &field) != nvml::SUCCESS || field.nvmlReturn != nvml::SUCCESS)
    return std::nullopt;
  switch (field.valueType) {  // NVML documents unsigned int; take the integer types, refuse the rest
    case 1: return field.value.uiVal;
    case 2: return field.value.ulVal <= UINT32_MAX ? std::optional<uint32_t>(static_cast<uint32_t>(field.value.ulVal)) : std::nullopt;
    case 3: return field.value.ullVal <= UINT32_MAX ? std::optional<uint32_t>(static_cast<uint32_t>(field.value.ullVal)) : std::nullopt;
    default: return std::nullopt;
  }
}

bool NvmlSampler::bind_calling_thread() {
  const auto& f = nvml_->functions();
  return f.device_set_cpu_affinity && f.device_set_cpu_affinity(device_) == nvml::SUCCESS;
}

void NvmlSampler::unbind_calling_thread() {
  const auto& f = nvml_->functions();
  if (f.device_clear_cpu_affinity) f.device_clear_cpu_affinity(device_);
}

std::unique_ptr<NvmlSampler> NvmlSampler::open(const std::string& pci_bus_id, std::string& error) {
  auto library = nvml::Library::open();
  if (!library) {
    error = "NVML not available, no clocks, power or PCIe link during the run: " + library.error().message;
    return nullptr;
  }
  auto lib = std::make_unique<nvml::Library>(std::move(*library));
  const auto& f = lib->functions();
  if (!f.init || !f.device_by_pci_bus_id) {
    error = fmt::format("NVML library lacks {} or {}: no clocks, power or PCIe link during the run", f.init.name,
                        f.device_by_pci_bus_id.name);
    return nullptr;
  }
  if (const nvml::Return rc = f.init(); rc != nvml::SUCCESS) {
    error = fmt::format("{} failed ({}): no clocks, power or PCIe link during the run", f.init.name, f.describe(rc));
    return nullptr;
  }
  nvml::Device device = nullptr;
  if (const nvml::Return rc = f.device_by_pci_bus_id(pci_bus_id.c_str(), &device); rc != nvml::SUCCESS || !device) {
    error = fmt::format("{}({}) failed ({})", f.device_by_pci_bus_id.name, pci_bus_id, f.describe(rc));
    if (f.shutdown) f.shutdown();
    return nullptr;
  }
  std::unique_ptr<NvmlSampler> s(new NvmlSampler());
  s->nvml_ = std::move(lib);
  s->device_ = device;
  unsigned v = 0;
  if (f.device_max_pcie_link_generation && f.device_max_pcie_link_generation(device, &v) == nvml::SUCCESS)
    s->link_max_.gen_max = static_cast<int>(v);
  if (f.device_gpu_max_pcie_link_generation && f.device_gpu_max_pcie_link_generation(device, &v) == nvml::SUCCESS)
    s->link_max_.gpu_gen_max = static_cast<int>(v);
  if (f.device_max_pcie_link_width && f.device_max_pcie_link_width(device, &v) == nvml::SUCCESS)
    s->link_max_.width_max = static_cast<int>(v);
  if (f.device_enforced_power_limit && f.device_enforced_power_limit(device, &v) == nvml::SUCCESS)
    s->link_max_.power_limit_mw = v;
  return s;
}

NvmlSampler::~NvmlSampler() {
  stop();
  if (nvml_ && nvml_->functions().shutdown) nvml_->functions().shutdown();
}

NvmlSample NvmlSampler::read_one(double t) const {
  NvmlSample s;
  s.t_s = t;
  s.phase = phase_.load();
  const auto& f = nvml_->functions();
  unsigned v = 0;
  if (f.device_clock_info && f.device_clock_info(device_, nvml::CLOCK_SM, &v) == nvml::SUCCESS)
    s.sm_clock_mhz = static_cast<int>(v);
  s.power_mw = power_instant_mw(f, device_);
  s.power_instant = s.power_mw.has_value();
  if (!s.power_mw && f.device_power_usage && f.device_power_usage(device_, &v) == nvml::SUCCESS) s.power_mw = v;
  if (int c = 0; nvml::gpu_temperature_c(f, device_, c) == nvml::SUCCESS) s.temperature_c = c;
  unsigned long long bits = 0;
  if (f.device_clocks_event_reasons && f.device_clocks_event_reasons(device_, &bits) == nvml::SUCCESS)
    s.throttle_reasons = bits;
  if (f.device_curr_pcie_link_generation && f.device_curr_pcie_link_generation(device_, &v) == nvml::SUCCESS)
    s.pcie_gen = static_cast<int>(v);
  if (f.device_curr_pcie_link_width && f.device_curr_pcie_link_width(device_, &v) == nvml::SUCCESS)
    s.pcie_width = static_cast<int>(v);
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
