// NVML's view of the NVIDIA GPUs, through the vendor floor's table of functions (vendor/nvml.hpp). Runs inside a
// bounded child (probe.cpp). A missing late symbol means "not supported", never a failure of the whole probe.
#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "core/version.hpp"
#include "probe/sources.hpp"
#include "vendor/strings.hpp"

namespace gpuscout::probe {
namespace {

namespace nvml = vendor::nvml;
using nvml::Device;
using nvml::Return;

/// Calls one per-device entry point; a failure is recorded on the GPU with the call's name, absence is silent.
struct DeviceCalls {
  const nvml::Functions& fn;
  Device dev;
  Gpu& gpu;

  template <typename Signature, typename... Args>
  bool operator()(const vendor::EntryPoint<Signature>& entry, Args... args) const {
    return answered(entry, entry ? entry(dev, args...) : nvml::ERROR_FUNCTION_NOT_FOUND);
  }

  /// For a call that whole classes of GPU answer NOT_SUPPORTED (Windows-only facts, ECC on a GeForce): that
  /// answer is silence, not an error on every such GPU.
  template <typename Signature, typename... Args>
  bool optional(const vendor::EntryPoint<Signature>& entry, Args... args) const {
    const Return r = entry ? entry(dev, args...) : nvml::ERROR_FUNCTION_NOT_FOUND;
    return r != nvml::ERROR_NOT_SUPPORTED && answered(entry, r);
  }

  /// True on SUCCESS; any other answer but absence is recorded with the call's name.
  template <typename Signature>
  bool answered(const vendor::EntryPoint<Signature>& entry, Return r) const {
    if (r == nvml::SUCCESS) return true;
    if (r != nvml::ERROR_FUNCTION_NOT_FOUND || entry)
      gpu.errors.push_back(ProbeError{"nvml", entry.name, fn.describe(r), r});
    return false;
  }
};

void read_system(const nvml::Functions& fn, NvidiaInfo& info) {
  // A version that does not parse is treated as unknown: everything downstream (and --from) trusts these to be
  // versions, and a driver that answers garbage has told us nothing.
  auto version = [](const vendor::EntryPoint<Return(char*, unsigned)>& entry, std::optional<std::string>& out) {
    char buffer[256] = {0};
    if (!entry || entry(buffer, sizeof buffer) != nvml::SUCCESS) return;
    std::string text = vendor::text_from(buffer, sizeof buffer);
    if (Version::parse(text)) out = std::move(text);
  };
  version(fn.system_driver_version, info.driver_version);
  version(fn.system_nvml_version, info.nvml_version);
  int cuda = 0;
  if (fn.system_cuda_driver_version && fn.system_cuda_driver_version(&cuda) == nvml::SUCCESS && cuda > 0)
    info.cuda_driver_version = Version::from_cuda_int(cuda).major_minor();
}

void read_identity(const DeviceCalls& call, Gpu& gpu) {
  char text[256] = {0};
  gpu.name = call(call.fn.device_name, text, 96u) ? vendor::text_from(text, sizeof text) : "NVIDIA GPU";
  if (call(call.fn.device_uuid, text, 96u)) gpu.uuid = vendor::text_from(text, sizeof text);
  if (call.optional(call.fn.device_vbios_version, text, nvml::VBIOS_VERSION_BUFFER_SIZE))
    gpu.vbios_version = vendor::text_from(text, nvml::VBIOS_VERSION_BUFFER_SIZE);
  nvml::PciInfoV3 pci{};
  if (call.fn.device_pci_info) {
    if (call(call.fn.device_pci_info, &pci)) gpu.pci_bus_id = normalize_bus_id(vendor::text_from(pci.busId, sizeof pci.busId));
  } else {
    nvml::PciInfoV1 old{};
    if (call(call.fn.device_pci_info_v1, &old)) {
      gpu.pci_bus_id = normalize_bus_id(vendor::text_from(old.busId, sizeof old.busId));
      pci.pciDeviceId = old.pciDeviceId;
      pci.pciSubSystemId = old.pciSubSystemId;
    }
  }
  if (pci.pciDeviceId) {
    gpu.pci_vendor_id = static_cast<uint16_t>(pci.pciDeviceId & 0xffff);
    gpu.pci_device_id = static_cast<uint16_t>(pci.pciDeviceId >> 16);
  }
  int major = 0, minor = 0;
  if (call(call.fn.device_cuda_compute_capability, &major, &minor) && major > 0 && major < 100 && minor >= 0 && minor < 10)
    gpu.compute_capability = fmt::format("{}.{}", major, minor);
}

// Windows only: WDDM (the display driver model, what GeForce cards run), TCC or MCDM. Linux drivers answer
// NOT_SUPPORTED, which is silence, not an error on every Linux GPU.
void read_driver_model(const DeviceCalls& call, Gpu& gpu) {
  nvml::DriverModel current{}, pending{};
  if (!call.optional(call.fn.device_driver_model, &current, &pending)) return;
  if (const char* name = nvml::driver_model_name(current)) gpu.driver_model = name;
}

// ECC counts answer NOT_SUPPORTED while ECC is off; retired pages stop being kept on boards that remap rows.
void read_ecc(const DeviceCalls& call, MemoryHealth& h) {
  const auto& fn = call.fn;
  nvml::EnableState current{}, pending{};
  if (call.optional(fn.device_ecc_mode, &current, &pending)) {
    h.ecc_enabled = current == nvml::FEATURE_ENABLED;
    if (pending != current) h.ecc_pending_enabled = pending == nvml::FEATURE_ENABLED;
  }
  unsigned long long n = 0;
  const auto& total = fn.device_total_ecc_errors;
  if (call.optional(total, nvml::MEMORY_ERROR_TYPE_UNCORRECTED, nvml::VOLATILE_ECC, &n))
    h.ecc_errors_uncorrected_volatile = n;
  if (call.optional(total, nvml::MEMORY_ERROR_TYPE_UNCORRECTED, nvml::AGGREGATE_ECC, &n))
    h.ecc_errors_uncorrected_aggregate = n;
  if (call.optional(total, nvml::MEMORY_ERROR_TYPE_CORRECTED, nvml::VOLATILE_ECC, &n))
    h.ecc_errors_corrected_volatile = n;
}

// nvmlDeviceGetRetiredPages with room 0 and no buffer: the count alone (SUCCESS when there are none,
// INSUFFICIENT_SIZE with the count otherwise).
std::optional<uint32_t> retired_pages(const DeviceCalls& call, unsigned cause) {
  const auto& entry = call.fn.device_retired_pages;
  if (!entry) return std::nullopt;
  unsigned count = 0;
  const Return r = entry(call.dev, cause, &count, nullptr);
  if (r == nvml::SUCCESS || r == nvml::ERROR_INSUFFICIENT_SIZE) return count;
  if (r != nvml::ERROR_NOT_SUPPORTED) call.answered(entry, r);
  return std::nullopt;
}

void read_memory_health(const DeviceCalls& call, Gpu& gpu) {
  MemoryHealth h;
  read_ecc(call, h);
  h.retired_pages_sbe = retired_pages(call, nvml::PAGE_RETIREMENT_CAUSE_MULTIPLE_SINGLE_BIT_ECC_ERRORS);
  h.retired_pages_dbe = retired_pages(call, nvml::PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR);
  nvml::EnableState pending{};
  if (call.optional(call.fn.device_retired_pages_pending, &pending))
    h.retired_pages_pending = pending == nvml::FEATURE_ENABLED;
  unsigned correctable = 0, uncorrectable = 0, remap_pending = 0, failed = 0;
  if (call.optional(call.fn.device_remapped_rows, &correctable, &uncorrectable, &remap_pending, &failed)) {
    h.remapped_rows_correctable = correctable;
    h.remapped_rows_uncorrectable = uncorrectable;
    h.remapped_rows_pending = remap_pending != 0;
    h.remapped_rows_failed = failed != 0;
  }
  if (h != MemoryHealth{}) gpu.memory_health = h;  // silence on every call: nothing to write
}

void read_memory(const DeviceCalls& call, Gpu& gpu) {
  // As nvidia-smi shows it: the v2 call separates driver-reserved memory from "used".
  nvml::MemoryV2 mem2{};
  mem2.version = nvml::kMemoryV2Version;
  // A failing v2 call is recorded only when the v1 fallback cannot fill the figures either.
  const Return v2 = call.fn.device_memory_info_v2 ? call.fn.device_memory_info_v2(call.dev, &mem2)
                                                   : nvml::ERROR_FUNCTION_NOT_FOUND;
  if (v2 == nvml::SUCCESS) {
    gpu.memory_total_bytes = mem2.total;
    gpu.memory_reserved_bytes = mem2.reserved;
    gpu.memory_used_bytes = mem2.used;
    gpu.memory_free_bytes = mem2.free;
    return;
  }
  nvml::Memory mem{};
  if (call(call.fn.device_memory_info, &mem)) {
    gpu.memory_total_bytes = mem.total;
    gpu.memory_used_bytes = mem.used;  // includes reserved memory on drivers without the v2 call
    gpu.memory_free_bytes = mem.free;
  } else if (v2 != nvml::ERROR_FUNCTION_NOT_FOUND) {
    gpu.errors.push_back(ProbeError{"nvml", call.fn.device_memory_info_v2.name, call.fn.describe(v2), v2});
  }
}

void read_state(const DeviceCalls& call, Gpu& gpu) {
  const auto& fn = call.fn;
  unsigned v = 0;
  int celsius = 0;
  const char* used = "";
  const Return t = nvml::gpu_temperature_c(fn, call.dev, celsius, &used);
  if (t == nvml::SUCCESS) gpu.temperature_c = celsius;
  else if (t != nvml::ERROR_FUNCTION_NOT_FOUND) gpu.errors.push_back(ProbeError{"nvml", used, fn.describe(t), t});
  if (call(fn.device_power_usage, &v)) gpu.power_draw_mw = v;
  if (call(fn.device_enforced_power_limit, &v)) gpu.power_limit_mw = v;
  nvml::Utilization util{};
  if (call(fn.device_utilization_rates, &util)) {
    gpu.utilization_gpu_pct = static_cast<int>(util.gpu);
    gpu.utilization_memory_pct = static_cast<int>(util.memory);
  }
  if (call(fn.device_curr_pcie_link_generation, &v)) gpu.pcie_gen = static_cast<int>(v);
  if (call(fn.device_curr_pcie_link_width, &v)) gpu.pcie_width = static_cast<int>(v);
  if (call(fn.device_max_pcie_link_generation, &v)) gpu.pcie_gen_max = static_cast<int>(v);
  if (call(fn.device_max_pcie_link_width, &v)) gpu.pcie_width_max = static_cast<int>(v);
  if (call(fn.device_clock_info, nvml::CLOCK_SM, &v)) gpu.clock_sm_mhz = static_cast<int>(v);
  if (call(fn.device_max_clock_info, nvml::CLOCK_SM, &v)) gpu.max_clock_sm_mhz = static_cast<int>(v);
  if (call(fn.device_max_clock_info, nvml::CLOCK_MEM, &v)) gpu.clock_memory_mhz = static_cast<int>(v);
  if (call(fn.device_max_clock_info, nvml::CLOCK_GRAPHICS, &v)) gpu.max_clock_graphics_mhz = static_cast<int>(v);
  if (call(fn.device_memory_bus_width, &v)) gpu.memory_bus_width_bits = static_cast<int>(v);
  // Windows has no persistence mode and most GPUs no MIG: NOT_SUPPORTED there is silence.
  nvml::EnableState persistence = nvml::FEATURE_DISABLED;
  if (call.optional(fn.device_persistence_mode, &persistence)) gpu.persistence_mode = persistence == nvml::FEATURE_ENABLED;
  unsigned mig = 0, mig_pending = 0;
  if (call.optional(fn.device_mig_mode, &mig, &mig_pending)) gpu.mig_mode = mig == nvml::MIG_ENABLE;
}

// NVML's two-call protocol: a list longer than the room answers INSUFFICIENT_SIZE with the real count; then one
// more call with that much room (bounded: a driver's count is not trusted).
std::vector<nvml::ProcessInfo> list_processes(const DeviceCalls& call) {
  constexpr unsigned kFirstRoom = 64, kMaxRoom = 4096;
  const auto& fn = call.fn;
  std::vector<nvml::ProcessInfo> procs(kFirstRoom);
  unsigned n = kFirstRoom;
  if (fn.device_compute_processes) {
    Return r = fn.device_compute_processes(call.dev, &n, procs.data());
    if (r == nvml::ERROR_INSUFFICIENT_SIZE && n > kFirstRoom) {
      n = std::min(n + 8, kMaxRoom);  // room for processes started in between
      procs.assign(n, nvml::ProcessInfo{});
      r = fn.device_compute_processes(call.dev, &n, procs.data());
    }
    if (r != nvml::SUCCESS) {
      call.gpu.errors.push_back(ProbeError{"nvml", fn.device_compute_processes.name, fn.describe(r), r});
      return {};
    }
  } else {
    std::vector<nvml::ProcessInfoV1> old(kFirstRoom);
    Return r = fn.device_compute_processes_v1 ? fn.device_compute_processes_v1(call.dev, &n, old.data())
                                              : nvml::ERROR_FUNCTION_NOT_FOUND;
    if (r == nvml::ERROR_INSUFFICIENT_SIZE && n > kFirstRoom) {
      n = std::min(n + 8, kMaxRoom);
      old.assign(n, nvml::ProcessInfoV1{});
      r = fn.device_compute_processes_v1(call.dev, &n, old.data());
    }
    if (r != nvml::SUCCESS) {
      if (r != nvml::ERROR_FUNCTION_NOT_FOUND)
        call.gpu.errors.push_back(ProbeError{"nvml", fn.device_compute_processes_v1.name, fn.describe(r), r});
      return {};
    }
    procs.resize(old.size());
    for (size_t k = 0; k < old.size(); ++k) procs[k] = nvml::ProcessInfo{old[k].pid, old[k].usedGpuMemory, 0, 0};
  }
  procs.resize(std::min<size_t>(n, procs.size()));
  return procs;
}

void read_processes(const DeviceCalls& call, Gpu& gpu) {
  for (const auto& info : list_processes(call)) {
    GpuProcess p;
    p.pid = info.pid;
    if (info.usedGpuMemory != nvml::VALUE_NOT_AVAILABLE) p.used_bytes = info.usedGpuMemory;
    char name[256] = {0};
    if (call.fn.system_process_name && call.fn.system_process_name(p.pid, name, sizeof name) == nvml::SUCCESS)
      p.name = vendor::text_from(name, sizeof name);
    gpu.processes.push_back(std::move(p));
  }
}

Gpu read_device(const nvml::Functions& fn, unsigned index) {
  Gpu gpu;
  gpu.vendor = "nvidia";
  gpu.nvml_index = static_cast<int>(index);
  gpu.sources.push_back("nvml");
  Device dev = nullptr;
  if (const Return r = fn.device_by_index(index, &dev); r != nvml::SUCCESS) {
    // A GPU that fell off the bus ("GPU is lost") still counts: report it with what we know.
    gpu.errors.push_back(ProbeError{"nvml", fn.device_by_index.name, fn.describe(r), r});
    gpu.name = fmt::format("NVIDIA GPU {} (unreachable)", index);
    return gpu;
  }
  const DeviceCalls call{fn, dev, gpu};
  read_identity(call, gpu);
  read_driver_model(call, gpu);
  read_memory(call, gpu);
  read_state(call, gpu);
  read_memory_health(call, gpu);
  read_processes(call, gpu);
  return gpu;
}

}  // namespace

NvmlReport probe_nvml(const vendor::nvml::Functions& fn) {
  NvmlReport report;
  NvidiaInfo& info = report.info;
  info.library_found = true;
  if (!fn.init) {
    info.error = ProbeError{"nvml", fn.init.name, "the library has no nvmlInit: not an NVML library", std::nullopt};
    return report;
  }
  if (const Return r = fn.init(); r != nvml::SUCCESS) {
    info.error = ProbeError{"nvml", fn.init.name, fn.describe(r), r};
    return report;
  }
  read_system(fn, info);
  unsigned count = 0;
  const Return r = fn.device_count ? fn.device_count(&count) : nvml::ERROR_FUNCTION_NOT_FOUND;
  if (r != nvml::SUCCESS) {
    info.error = ProbeError{"nvml", fn.device_count.name, fn.describe(r), r};
    count = 0;
  }
  if (count > 64) count = 64;  // a garbage count must not make us loop for ever
  for (unsigned i = 0; i < count && fn.device_by_index; ++i) report.gpus.push_back(read_device(fn, i));
  if (fn.shutdown) fn.shutdown();
  return report;
}

NvmlReport probe_nvml() {
  auto library = vendor::nvml::Library::open();
  if (!library) {
    NvmlReport report;
    report.info.error = ProbeError{"nvml", "dlopen", library.error().message, std::nullopt};
    return report;
  }
  NvmlReport report = probe_nvml(library->functions());
  if (auto p = library->path(); !p.empty()) report.info.library_path = text::clean_utf8(p);
  return report;
}

}  // namespace gpuscout::probe
