#pragma once
/// The CUDA driver API as a table of functions (see vendor/nvml.hpp for why a table): libcuda.so.1 opened once,
/// each entry point resolved once with its _v2 fallback. Every pointer may be null.
#include <cstddef>
#include <string>

#include "core/error.hpp"
#include "os/library.hpp"
#include "vendor/cuda_abi.hpp"
#include "vendor/entry_point.hpp"

namespace gpuscout::vendor::cuda {

struct Functions {
  EntryPoint<Status(Status, const char**)> get_error_name, get_error_string;
  EntryPoint<Status(int*)> driver_get_version, device_get_count;
  EntryPoint<Status(unsigned)> init;
  EntryPoint<Status(Device*, int)> device_get;
  EntryPoint<Status(char*, int, Device)> device_get_name, device_get_pci_bus_id;
  EntryPoint<Status(int*, int, Device)> device_get_attribute;
  EntryPoint<Status(size_t*, Device)> device_total_mem;  ///< cuDeviceTotalMem_v2 (64-bit sizes)
  EntryPoint<Status(Uuid*, Device)> device_get_uuid;
  /// The adapter's LUID (8 bytes, Windows' LUID struct: LowPart then HighPart) and node mask, to match DXGI's
  /// adapters; a Windows call (Linux drivers export it and answer an error).
  EntryPoint<Status(char*, unsigned*, Device)> device_get_luid;

  /// "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected", else "CUDA error N".
  std::string describe(Status status) const;
};

/// Fills a table from a library's symbols (tests pass a lookup that records the names asked for).
Functions resolve(const SymbolLookup& lookup);

/// libcuda.so.1 (never libcuda.so: in a toolkit's stubs/ folder that is a stub answering CUDA_ERROR_STUB_LIBRARY),
/// on Windows nvcuda.dll from System32 only; or the file GPUSCOUT_CUDA_LIBRARY names (it must be a regular file).
class Library {
 public:
  static Result<Library> open();
  const Functions& functions() const { return functions_; }
  std::string path() const { return library_.path(); }

 private:
  os::SharedLibrary library_;
  Functions functions_;
};

}  // namespace gpuscout::vendor::cuda
