#include "vendor/cuda.hpp"

#include <fmt/format.h>

#include "vendor/library_path.hpp"

namespace gpuscout::vendor::cuda {

std::string Functions::describe(Status status) const {
  const char* name = nullptr;
  const char* text = nullptr;
  if (get_error_name) get_error_name(status, &name);
  if (get_error_string) get_error_string(status, &text);
  if (name && text) return fmt::format("{}: {}", name, text);
  if (name) return name;
  return fmt::format("CUDA error {}", status);
}

Functions resolve(const SymbolLookup& l) {
  Functions f;
  f.get_error_name.resolve(l, {"cuGetErrorName"});
  f.get_error_string.resolve(l, {"cuGetErrorString"});
  f.driver_get_version.resolve(l, {"cuDriverGetVersion"});
  f.init.resolve(l, {"cuInit"});
  f.device_get_count.resolve(l, {"cuDeviceGetCount"});
  f.device_get.resolve(l, {"cuDeviceGet"});
  f.device_get_name.resolve(l, {"cuDeviceGetName"});
  f.device_get_pci_bus_id.resolve(l, {"cuDeviceGetPCIBusId"});
  f.device_get_attribute.resolve(l, {"cuDeviceGetAttribute"});
  f.device_total_mem.resolve(l, {"cuDeviceTotalMem_v2"});
  f.device_get_uuid.resolve(l, {"cuDeviceGetUuid_v2", "cuDeviceGetUuid"});
  f.device_get_luid.resolve(l, {"cuDeviceGetLuid"});
  return f;
}

Result<Library> Library::open() {
  auto library = open_library("GPUSCOUT_CUDA_LIBRARY", cuda_library_names());
  if (!library) return std::unexpected(library.error());
  Library out;
  out.library_ = std::move(*library);
  out.functions_ = resolve([&lib = out.library_](const char* name) { return lib.raw_symbol(name); });
  return out;
}

}  // namespace gpuscout::vendor::cuda
