#pragma once
/// The part of the CUDA driver API (libcuda.so.1, cuda.h) gpuscout calls, declared by hand so that gpuscout
/// builds and starts without the toolkit: the only declaration of it in the tree (the probe and the fake driver in
/// tests/fakes/cuda include this file). tests/unit/vendor_cuda_abi_test.cpp compiles these values against the
/// toolkit's own cuda.h, and the symbol names against the export list of the toolkit's stub libcuda.so.

struct CUctx_st;  // cuda.h's opaque context, at global scope as there

namespace gpuscout::vendor::cuda {

using Device = int;  ///< CUdevice
using Context = ::CUctx_st*;  ///< CUcontext
struct Uuid {        ///< CUuuid
  unsigned char bytes[16];
};

/// CUresult values (cuda.h), as plain ints: the C enum is int-sized, and a driver may return a value this list lacks.
using Status = int;
inline constexpr Status SUCCESS = 0;
inline constexpr Status ERROR_INVALID_VALUE = 1;
inline constexpr Status ERROR_OUT_OF_MEMORY = 2;
inline constexpr Status ERROR_NOT_INITIALIZED = 3;
inline constexpr Status ERROR_DEINITIALIZED = 4;
inline constexpr Status ERROR_STUB_LIBRARY = 34;
inline constexpr Status ERROR_CALL_REQUIRES_NEWER_DRIVER = 36;
inline constexpr Status ERROR_DEVICE_UNAVAILABLE = 46;
inline constexpr Status ERROR_NO_DEVICE = 100;
inline constexpr Status ERROR_INVALID_DEVICE = 101;
inline constexpr Status ERROR_DEVICE_NOT_LICENSED = 102;
inline constexpr Status ERROR_INVALID_CONTEXT = 201;
inline constexpr Status ERROR_OPERATING_SYSTEM = 304;
inline constexpr Status ERROR_NOT_FOUND = 500;
inline constexpr Status ERROR_ILLEGAL_ADDRESS = 700;
inline constexpr Status ERROR_NOT_PERMITTED = 800;
inline constexpr Status ERROR_NOT_SUPPORTED = 801;
inline constexpr Status ERROR_SYSTEM_NOT_READY = 802;
inline constexpr Status ERROR_SYSTEM_DRIVER_MISMATCH = 803;
inline constexpr Status ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804;
inline constexpr Status ERROR_UNKNOWN = 999;

/// CUdevice_attribute values (cuda.h).
enum Attribute : int {
  ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1, ATTRIBUTE_TOTAL_CONSTANT_MEMORY = 9, ATTRIBUTE_WARP_SIZE = 10,
  ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12, ATTRIBUTE_CLOCK_RATE = 13, ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  ATTRIBUTE_INTEGRATED = 18, ATTRIBUTE_CONCURRENT_KERNELS = 31, ATTRIBUTE_ECC_ENABLED = 32, ATTRIBUTE_PCI_BUS_ID = 33,
  ATTRIBUTE_PCI_DEVICE_ID = 34,  ///< the slot number on the bus, not the product id
  ATTRIBUTE_TCC_DRIVER = 35, ATTRIBUTE_MEMORY_CLOCK_RATE = 36, ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,
  ATTRIBUTE_L2_CACHE_SIZE = 38, ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39, ATTRIBUTE_ASYNC_ENGINE_COUNT = 40,
  ATTRIBUTE_UNIFIED_ADDRESSING = 41, ATTRIBUTE_PCI_DOMAIN_ID = 50, ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76, ATTRIBUTE_MANAGED_MEMORY = 83
};

static_assert(sizeof(Uuid) == 16);

}  // namespace gpuscout::vendor::cuda
