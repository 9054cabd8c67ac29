// Our hand-written CUDA driver API declarations against the toolkit's own cuda.h (compiled together here) and the
// symbol names we resolve against the toolkit's stub libcuda.so, which exports the driver's whole API.
#include <dlfcn.h>

#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "vendor/cuda.hpp"

#if defined(GPUSCOUT_HAVE_CUDA_H)
#include <cuda.h>

namespace cuda = gpuscout::vendor::cuda;

#define SAME(ours, theirs) static_assert(static_cast<int>(ours) == static_cast<int>(theirs), #ours " differs from cuda.h")
SAME(cuda::SUCCESS, CUDA_SUCCESS);
SAME(cuda::ERROR_INVALID_VALUE, CUDA_ERROR_INVALID_VALUE);
SAME(cuda::ERROR_OUT_OF_MEMORY, CUDA_ERROR_OUT_OF_MEMORY);
SAME(cuda::ERROR_NOT_INITIALIZED, CUDA_ERROR_NOT_INITIALIZED);
SAME(cuda::ERROR_DEINITIALIZED, CUDA_ERROR_DEINITIALIZED);
SAME(cuda::ERROR_STUB_LIBRARY, CUDA_ERROR_STUB_LIBRARY);
SAME(cuda::ERROR_CALL_REQUIRES_NEWER_DRIVER, CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER);
SAME(cuda::ERROR_DEVICE_UNAVAILABLE, CUDA_ERROR_DEVICE_UNAVAILABLE);
SAME(cuda::ERROR_NO_DEVICE, CUDA_ERROR_NO_DEVICE);
SAME(cuda::ERROR_INVALID_DEVICE, CUDA_ERROR_INVALID_DEVICE);
SAME(cuda::ERROR_DEVICE_NOT_LICENSED, CUDA_ERROR_DEVICE_NOT_LICENSED);
SAME(cuda::ERROR_INVALID_CONTEXT, CUDA_ERROR_INVALID_CONTEXT);
SAME(cuda::ERROR_OPERATING_SYSTEM, CUDA_ERROR_OPERATING_SYSTEM);
SAME(cuda::ERROR_NOT_FOUND, CUDA_ERROR_NOT_FOUND);
SAME(cuda::ERROR_ILLEGAL_ADDRESS, CUDA_ERROR_ILLEGAL_ADDRESS);
SAME(cuda::ERROR_NOT_PERMITTED, CUDA_ERROR_NOT_PERMITTED);
SAME(cuda::ERROR_NOT_SUPPORTED, CUDA_ERROR_NOT_SUPPORTED);
SAME(cuda::ERROR_SYSTEM_NOT_READY, CUDA_ERROR_SYSTEM_NOT_READY);
SAME(cuda::ERROR_SYSTEM_DRIVER_MISMATCH, CUDA_ERROR_SYSTEM_DRIVER_MISMATCH);
SAME(cuda::ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE, CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE);
SAME(cuda::ERROR_UNKNOWN, CUDA_ERROR_UNKNOWN);
SAME(cuda::ATTRIBUTE_CLOCK_RATE, CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
SAME(cuda::ATTRIBUTE_MULTIPROCESSOR_COUNT, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
SAME(cuda::ATTRIBUTE_INTEGRATED, CU_DEVICE_ATTRIBUTE_INTEGRATED);
SAME(cuda::ATTRIBUTE_PCI_BUS_ID, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
SAME(cuda::ATTRIBUTE_PCI_DEVICE_ID, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID);
SAME(cuda::ATTRIBUTE_MEMORY_CLOCK_RATE, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
SAME(cuda::ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
SAME(cuda::ATTRIBUTE_L2_CACHE_SIZE, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
SAME(cuda::ATTRIBUTE_PCI_DOMAIN_ID, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID);
SAME(cuda::ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
SAME(cuda::ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
SAME(cuda::ATTRIBUTE_MAX_THREADS_PER_BLOCK, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
SAME(cuda::ATTRIBUTE_TOTAL_CONSTANT_MEMORY, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY);
SAME(cuda::ATTRIBUTE_WARP_SIZE, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
SAME(cuda::ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
SAME(cuda::ATTRIBUTE_CONCURRENT_KERNELS, CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS);
SAME(cuda::ATTRIBUTE_ECC_ENABLED, CU_DEVICE_ATTRIBUTE_ECC_ENABLED);
SAME(cuda::ATTRIBUTE_TCC_DRIVER, CU_DEVICE_ATTRIBUTE_TCC_DRIVER);
SAME(cuda::ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
SAME(cuda::ATTRIBUTE_ASYNC_ENGINE_COUNT, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT);
SAME(cuda::ATTRIBUTE_UNIFIED_ADDRESSING, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING);
SAME(cuda::ATTRIBUTE_MANAGED_MEMORY, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY);
#undef SAME
static_assert(sizeof(cuda::Uuid) == sizeof(CUuuid));
static_assert(sizeof(cuda::Status) == sizeof(CUresult));
static_assert(sizeof(cuda::Device) == sizeof(CUdevice));
static_assert(std::is_same_v<cuda::Context, CUcontext>);  // the same incomplete struct CUctx_st

// The signatures: same arity and the same width of result and of every parameter as cuda.h's declaration of the
// symbol we resolve (our Status and Device are int where cuda.h has enums; a size_t where cuda.h has one).
template <typename Ours, typename Theirs>
struct SameShape : std::false_type {};
template <typename R1, typename... P1, typename R2, typename... P2>
struct SameShape<R1(P1...), R2(P2...)>
    : std::bool_constant<sizeof...(P1) == sizeof...(P2) && sizeof(R1) == sizeof(R2) &&
                         ((sizeof(P1) == sizeof(P2)) && ...)> {};
#define SHAPE(member, symbol)                                                                                  \
  static_assert(SameShape<decltype(cuda::Functions::member)::Signature, std::remove_pointer_t<decltype(&symbol)>>::value, \
                #member " does not match cuda.h's " #symbol)
SHAPE(get_error_name, cuGetErrorName);
SHAPE(get_error_string, cuGetErrorString);
SHAPE(driver_get_version, cuDriverGetVersion);
SHAPE(init, cuInit);
SHAPE(device_get_count, cuDeviceGetCount);
SHAPE(device_get, cuDeviceGet);
SHAPE(device_get_name, cuDeviceGetName);
SHAPE(device_get_pci_bus_id, cuDeviceGetPCIBusId);
SHAPE(device_get_attribute, cuDeviceGetAttribute);
SHAPE(device_total_mem, cuDeviceTotalMem_v2);
SHAPE(device_get_uuid, cuDeviceGetUuid_v2);
SHAPE(device_get_luid, cuDeviceGetLuid);
#undef SHAPE

TEST(VendorCudaAbi, ResolvedNamesAreExportedByTheToolkitStub) {
  void* stub = ::dlopen(GPUSCOUT_CUDA_STUB, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(stub, nullptr) << GPUSCOUT_CUDA_STUB << ": " << ::dlerror();
  std::vector<std::string> asked, missing;
  const auto table = cuda::resolve([&](const char* name) -> void* {
    asked.emplace_back(name);
    void* address = ::dlsym(stub, name);
    if (!address) missing.emplace_back(name);
    return nullptr;  // ask for every fallback name too
  });
  (void)table;
  EXPECT_GE(asked.size(), 13u);
  EXPECT_TRUE(missing.empty()) << "not exported by " << GPUSCOUT_CUDA_STUB << ": " << ::testing::PrintToString(missing);
  ::dlclose(stub);
}

#else
TEST(VendorCudaAbi, ResolvedNamesAreExportedByTheToolkitStub) {
  GTEST_SKIP() << "no CUDA toolkit (cuda.h, stubs/libcuda.so) found at configure time";
}
#endif
