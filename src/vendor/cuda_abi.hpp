#pragma once
/// The part of the CUDA driver API (libcuda.so.1, cuda.h) gpuscout calls, declared by hand so that gpuscout
/// builds and starts without the toolkit: the only declaration of it in the tree (the probe and the fake driver in
/// tests/fakes/cuda include this file). tests/unit/vendor_cuda_abi_test.cpp compiles these values against the
/// toolkit's own cuda.h, and the symbol names against the export list of the toolkit's stub libcuda.so.

namespace gpuscout::vendor::cuda {

using Status = int;  ///< CUresult
using Device = int;  ///< CUdevice
struct Uuid {        ///< CUuuid
  unsigned char bytes[16];
};

/// CUresult values (cuda.h).
enum : Status {
  SUCCESS = 0, ERROR_INVALID_VALUE = 1, ERROR_OUT_OF_MEMORY = 2, ERROR_NOT_INITIALIZED = 3, ERROR_DEINITIALIZED = 4,
  ERROR_STUB_LIBRARY = 34, ERROR_DEVICE_UNAVAILABLE = 46, ERROR_NO_DEVICE = 100, ERROR_INVALID_DEVICE = 101,
  ERROR_DEVICE_NOT_LICENSED = 102, ERROR_OPERATING_SYSTEM = 304, ERROR_NOT_FOUND = 500, ERROR_ILLEGAL_ADDRESS = 700,
  ERROR_NOT_PERMITTED = 800, ERROR_NOT_SUPPORTED = 801, ERROR_SYSTEM_NOT_READY = 802,
  ERROR_SYSTEM_DRIVER_MISMATCH = 803, ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804, ERROR_UNKNOWN = 999
};

/// CUdevice_attribute values (cuda.h).
enum Attribute : int {
  ATTRIBUTE_CLOCK_RATE = 13, ATTRIBUTE_MULTIPROCESSOR_COUNT = 16, ATTRIBUTE_INTEGRATED = 18, ATTRIBUTE_PCI_BUS_ID = 33,
  ATTRIBUTE_PCI_DEVICE_ID = 34, ATTRIBUTE_MEMORY_CLOCK_RATE = 36, ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,
  ATTRIBUTE_L2_CACHE_SIZE = 38, ATTRIBUTE_PCI_DOMAIN_ID = 50, ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76
};

}  // namespace gpuscout::vendor::cuda
