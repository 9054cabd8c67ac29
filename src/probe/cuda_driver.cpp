// The CUDA driver API's view (what torch.cuda would report, without Python), through the vendor floor's table of
// functions (vendor/cuda.hpp). Runs inside a bounded child (probe.cpp).
#include <fmt/format.h>

#include "catalog/gpu_match.hpp"
#include "core/version.hpp"
#include "probe/sources.hpp"
#include "vendor/strings.hpp"

namespace gpuscout::probe {
namespace {

namespace cuda = vendor::cuda;

// nvidia-smi's form: "GPU-" for a whole card, "MIG-" for a MIG slice (CUDA gives a slice its own UUID).
std::string uuid_text(const cuda::Uuid& u, bool mig) {
  const unsigned char* b = u.bytes;
  return fmt::format("{}-{:02x}{:02x}{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}",
                     mig ? "MIG" : "GPU", b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

// cuDeviceGetLuid's 8 bytes are Windows' LUID struct as laid out in memory (x86: little-endian LowPart, then
// HighPart); an all-zero LUID is no adapter's.
std::optional<std::string> luid_of(const cuda::Functions& fn, cuda::Device dev) {
  unsigned char bytes[8] = {0};
  unsigned node_mask = 0;
  if (!fn.device_get_luid || fn.device_get_luid(reinterpret_cast<char*>(bytes), &node_mask, dev) != cuda::SUCCESS)
    return std::nullopt;
  auto word = [&](int at) {
    return static_cast<uint32_t>(bytes[at]) | static_cast<uint32_t>(bytes[at + 1]) << 8 |
           static_cast<uint32_t>(bytes[at + 2]) << 16 | static_cast<uint32_t>(bytes[at + 3]) << 24;
  };
  const uint32_t low = word(0), high = word(4);
  if (low == 0 && high == 0) return std::nullopt;
  return luid_text(high, low);
}

void read_attributes(const cuda::Functions& fn, cuda::Device dev, CudaDevice& d) {
  auto attr = [&](cuda::Attribute which) -> std::optional<int> {
    int v = 0;
    if (fn.device_get_attribute && fn.device_get_attribute(&v, which, dev) == cuda::SUCCESS) return v;
    return std::nullopt;
  };
  const auto major = attr(cuda::ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR), minor = attr(cuda::ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  if (major && minor && *major > 0 && *major < 100 && *minor >= 0 && *minor < 10)
    d.compute_capability = fmt::format("{}.{}", *major, *minor);
  d.sm_count = attr(cuda::ATTRIBUTE_MULTIPROCESSOR_COUNT);
  if (auto khz = attr(cuda::ATTRIBUTE_CLOCK_RATE)) d.clock_mhz = *khz / 1000;
  if (auto khz = attr(cuda::ATTRIBUTE_MEMORY_CLOCK_RATE)) d.memory_clock_mhz = *khz / 1000;
  d.memory_bus_width_bits = attr(cuda::ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  if (auto l2 = attr(cuda::ATTRIBUTE_L2_CACHE_SIZE); l2 && *l2 > 0) d.l2_bytes = static_cast<uint64_t>(*l2);
  d.integrated = attr(cuda::ATTRIBUTE_INTEGRATED).value_or(0) != 0;
}

std::optional<CudaDevice> read_device(const cuda::Functions& fn, int index) {
  CudaDevice d;
  d.index = index;
  cuda::Device dev = index;
  if (fn.device_get && fn.device_get(&dev, index) != cuda::SUCCESS) return std::nullopt;
  char text[256] = {0};
  if (fn.device_get_name && fn.device_get_name(text, static_cast<int>(sizeof text - 1), dev) == cuda::SUCCESS)
    d.name = vendor::text_from(text, sizeof text);
  read_attributes(fn, dev, d);
  size_t bytes = 0;
  if (fn.device_total_mem && fn.device_total_mem(&bytes, dev) == cuda::SUCCESS) d.total_memory_bytes = bytes;
  char bus[64] = {0};
  if (fn.device_get_pci_bus_id && fn.device_get_pci_bus_id(bus, static_cast<int>(sizeof bus - 1), dev) == cuda::SUCCESS)
    d.pci_bus_id = normalize_bus_id(vendor::text_from(bus, sizeof bus));
  cuda::Uuid u{};
  if (fn.device_get_uuid && fn.device_get_uuid(&u, dev) == cuda::SUCCESS) d.uuid = uuid_text(u, catalog::names_mig_slice(d.name));
  d.luid = luid_of(fn, dev);
  return d;
}

}  // namespace

CudaInfo probe_cuda_driver(const vendor::cuda::Functions& fn) {
  CudaInfo info;
  info.library_found = true;
  int v = 0;
  if (fn.driver_get_version && fn.driver_get_version(&v) == cuda::SUCCESS && v > 0)
    info.driver_version = Version::from_cuda_int(v).major_minor();
  if (!fn.init) {
    info.error = ProbeError{"cuda", fn.init.name, "the library has no cuInit: not a CUDA driver", std::nullopt};
    return info;
  }
  if (const cuda::Status r = fn.init(0); r != cuda::SUCCESS) {
    info.error = ProbeError{"cuda", fn.init.name, fn.describe(r), r};
    return info;
  }
  if (!fn.device_get_count) {
    info.error = ProbeError{"cuda", fn.device_get_count.name, "symbol missing", std::nullopt};
    return info;
  }
  int count = 0;
  if (const cuda::Status r = fn.device_get_count(&count); r != cuda::SUCCESS) {
    info.error = ProbeError{"cuda", fn.device_get_count.name, fn.describe(r), r};
    return info;
  }
  if (count < 0 || count > 64) count = 0;  // a garbage count must not make us loop for ever
  info.device_count = count;
  info.available = count > 0;
  for (int i = 0; i < count; ++i)
    if (auto d = read_device(fn, i)) info.devices.push_back(std::move(*d));
  return info;
}

CudaInfo probe_cuda_driver() {
  auto library = vendor::cuda::Library::open();
  if (!library) {
    CudaInfo info;
    info.error = ProbeError{"cuda", "dlopen", library.error().message, std::nullopt};
    return info;
  }
  CudaInfo info = probe_cuda_driver(library->functions());
  if (auto p = library->path(); !p.empty()) info.library_path = text::clean_utf8(p);
  return info;
}

}  // namespace gpuscout::probe
