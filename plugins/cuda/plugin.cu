// libgpuscout-cuda.so: GEMM through cuBLAS/cuBLASLt per precision, device and host copies, timed with CUDA
// events, on random data, checked against an fp64 reference of sampled entries. See gpuscout_cuda_plugin.h.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <nccl.h>  // types only: NCCL itself is dlopened (NcclLibrary)

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <functional>
#include <set>
#include <vector>

#include "gpuscout_cuda_plugin.h"
#include "plugin_rules.h"

#define EXPORT extern "C" __attribute__((visibility("default")))

namespace {

int (*g_should_stop)(void) = nullptr;
bool g_initialized = false;
std::set<int> g_used_devices;

bool stop_requested() { return g_should_stop && g_should_stop() != 0; }

void set_text(char* dst, size_t len, const char* fmt, ...) {
  if (!dst || len == 0) return;
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(dst, len, fmt, ap);
  va_end(ap);
}

const char* cublas_text(cublasStatus_t s) {
  switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "not initialized";
    case CUBLAS_STATUS_ALLOC_FAILED: return "allocation failed";
    case CUBLAS_STATUS_INVALID_VALUE: return "invalid value";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "architecture mismatch";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "execution failed";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "not supported";
    default: return "error";
  }
}

// Device memory that frees itself, so every return path (errors, Ctrl-C) releases it.
struct DeviceBuffer {
  void* ptr = nullptr;
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr(o.ptr) { o.ptr = nullptr; }
  ~DeviceBuffer() { reset(); }
  void reset() {
    if (ptr) cudaFree(ptr);
    ptr = nullptr;
  }
  cudaError_t alloc(size_t bytes) {
    reset();
    return cudaMalloc(&ptr, bytes);
  }
};

struct HostBuffer {
  void* ptr = nullptr;
  bool pinned = false;
  HostBuffer() = default;
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  ~HostBuffer() { reset(); }
  void reset() {
    if (ptr) {
      if (pinned) cudaFreeHost(ptr);
      else std::free(ptr);
    }
    ptr = nullptr;
  }
  bool alloc(size_t bytes, bool want_pinned) {
    reset();
    pinned = want_pinned;
    if (pinned) return cudaMallocHost(&ptr, bytes) == cudaSuccess;
    ptr = std::malloc(bytes);
    return ptr != nullptr;
  }
};

struct Events {
  cudaEvent_t start = nullptr, stop = nullptr;
  Events() {
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
  }
  ~Events() {
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
  }
};

struct Stream {
  cudaStream_t s = nullptr;
  Stream() { cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking); }
  ~Stream() {
    if (s) cudaStreamDestroy(s);
  }
};

__host__ __device__ inline uint64_t splitmix64(uint64_t x) {
  uint64_t z = x + 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// Uniform in [-1, 1) from the element index: random, never all zeros, reproducible on the host.
__host__ __device__ inline float uniform_pm1(uint64_t seed, uint64_t i) {
  return static_cast<float>(static_cast<double>(splitmix64(seed * 0x100000001B3ULL + i) >> 11) *
                                (2.0 / 9007199254740992.0) -
                            1.0);
}

template <typename T>
__device__ inline T from_float(float f) {
  return T(f);
}
template <>
__device__ inline __half from_float<__half>(float f) {
  return __float2half_rn(f);
}
template <>
__device__ inline __nv_bfloat16 from_float<__nv_bfloat16>(float f) {
  return __float2bfloat16_rn(f);
}

template <typename T>
__device__ inline double to_double(T v) {
  return static_cast<double>(static_cast<float>(v));
}
template <>
__device__ inline double to_double<float>(float v) {
  return static_cast<double>(v);
}
template <>
__device__ inline double to_double<__half>(__half v) {
  return static_cast<double>(__half2float(v));
}
template <>
__device__ inline double to_double<__nv_bfloat16>(__nv_bfloat16 v) {
  return static_cast<double>(__bfloat162float(v));
}

template <typename T>
__global__ void fill_kernel(T* p, size_t count, uint64_t seed) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    p[i] = from_float<T>(uniform_pm1(seed, i));
}

__global__ void fill_words_kernel(uint32_t* p, size_t count, uint64_t seed) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    p[i] = static_cast<uint32_t>(splitmix64(seed * 0x100000001B3ULL + i));
}

__global__ void count_mismatch_kernel(const uint32_t* a, const uint32_t* b, size_t count, unsigned long long* bad) {
  unsigned long long local = 0;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    local += a[i] != b[i];
  if (local) atomicAdd(bad, local);
}

// One block per sampled entry (i, j): reference C_ij = sum_k op(A)_ik B_kj in fp64 from the stored inputs,
// the magnitude sum_k |op(A)_ik B_kj|, and the value the GEMM produced. Column-major; op(A) = A^T when transA.
template <typename TIn, typename TOut>
__global__ void reference_kernel(const TIn* A, const TIn* B, const TOut* C, int n, int transA, const int* is,
                                 const int* js, double* ref, double* mag, double* got) {
  __shared__ double s_ref[256];
  __shared__ double s_mag[256];
  const int i = is[blockIdx.x], j = js[blockIdx.x];
  double r = 0, m = 0;
  for (int k = threadIdx.x; k < n; k += blockDim.x) {
    const size_t a_idx = transA ? static_cast<size_t>(k) + static_cast<size_t>(i) * n
                                : static_cast<size_t>(i) + static_cast<size_t>(k) * n;
    const double p = to_double(A[a_idx]) * to_double(B[static_cast<size_t>(k) + static_cast<size_t>(j) * n]);
    r += p;
    m += fabs(p);
  }
  s_ref[threadIdx.x] = r;
  s_mag[threadIdx.x] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      s_ref[threadIdx.x] += s_ref[threadIdx.x + s];
      s_mag[threadIdx.x] += s_mag[threadIdx.x + s];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    ref[blockIdx.x] = s_ref[0];
    mag[blockIdx.x] = s_mag[0];
    got[blockIdx.x] = to_double(C[static_cast<size_t>(i) + static_cast<size_t>(j) * n]);
  }
}

template <typename T>
void launch_fill(void* p, size_t count, uint64_t seed, cudaStream_t s) {
  fill_kernel<T><<<1024, 256, 0, s>>>(static_cast<T*>(p), count, seed);
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Holds the stream until the host has queued a whole sample (nvbandwidth's latch, triton do_bench's busy stream):
// the start event then fires only once every call of the sample waits behind it, so the host's launch cost is
// never inside the measured time. The bound (about a second) keeps a lost release from hanging the run.
__global__ void hold_kernel(const volatile int* release, long long max_cycles) {
  const long long t0 = clock64();
  while (*release == 0 && clock64() - t0 < max_cycles) {
  }
}

struct Latch {
  int* host = nullptr;
  int* device = nullptr;
  Latch() {
    if (cudaHostAlloc(reinterpret_cast<void**>(&host), sizeof(int), cudaHostAllocMapped) != cudaSuccess) {
      host = nullptr;
      cudaGetLastError();
      return;
    }
    *host = 0;
    if (cudaHostGetDevicePointer(reinterpret_cast<void**>(&device), host, 0) != cudaSuccess) {
      device = nullptr;
      cudaGetLastError();
    }
  }
  ~Latch() {
    if (host) cudaFreeHost(host);
  }
  Latch(const Latch&) = delete;
  Latch& operator=(const Latch&) = delete;
  bool usable() const { return device != nullptr; }
  void hold(cudaStream_t s) {
    *reinterpret_cast<volatile int*>(host) = 0;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    hold_kernel<<<1, 1, 0, s>>>(device, 1ll << 31);
  }
  void release() {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    *reinterpret_cast<volatile int*>(host) = 1;
  }
};

// Evicts L2 between samples (triton do_bench zeroes a buffer larger than the cache), so a sample never starts
// with the previous one's data cached. Twice the L2, at least 32 MiB; none when the memory is short.
struct L2Flush {
  DeviceBuffer buffer;
  size_t bytes = 0;
  explicit L2Flush(size_t l2_bytes) {
    const size_t want = std::max<size_t>(2 * l2_bytes, size_t{32} << 20);
    if (buffer.alloc(want) == cudaSuccess) bytes = want;
    else cudaGetLastError();
  }
  void run(cudaStream_t s, int sample) {
    if (bytes) cudaMemsetAsync(buffer.ptr, sample & 0xff, bytes, s);
  }
};

size_t device_l2_bytes() {
  int device = 0, l2 = 0;
  if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device) != cudaSuccess)
    return 0;
  return static_cast<size_t>(l2);
}

// A sample lasts about this long (many back-to-back calls for a fast one), at most kMaxCallsPerSample calls: the
// launch queue holds about a thousand entries and everything of a sample is queued behind the latch.
constexpr double kSampleTargetS = 0.01;
constexpr int kMaxCallsPerSample = 128;

struct TimingOut {
  double* first_call_s;
  int* n_samples;
  double* samples;
  char* error;
  size_t error_len;
};

// Warm-ups: the first timed on the host clock (set-up included, what a naive first call pays), the last timed
// with events to size the samples.
template <typename Call>
int warm_up(const gpuscout_method* method, cudaStream_t stream, Call& call, Events& ev, double* call_s,
            const TimingOut& out) {
  const int warmups = std::max(2, method->warmup);
  for (int w = 0; w < warmups; ++w) {
    if (stop_requested()) return GPUSCOUT_STOPPED;
    const auto t0 = std::chrono::steady_clock::now();
    if (w == warmups - 1) cudaEventRecord(ev.start, stream);
    if (!call(w)) return GPUSCOUT_FAILED;
    if (w == warmups - 1) cudaEventRecord(ev.stop, stream);
    cudaError_t e = cudaStreamSynchronize(stream);
    if (e != cudaSuccess) {
      set_text(out.error, out.error_len, "warm-up: %s", cudaGetErrorString(e));
      return GPUSCOUT_FAILED;
    }
    if (w == 0) *out.first_call_s = seconds_since(t0);
  }
  float ms = 0;
  cudaEventElapsedTime(&ms, ev.start, ev.stop);
  *call_s = ms / 1e3;
  return GPUSCOUT_OK;
}

// Runs `call` per the method: warm-ups, then samples until min_repeats and budget_s, or max_repeats. Each sample
// is `calls` back-to-back calls between one event pair (cuda-samples' method), queued behind the latch when
// `latched` (a pageable copy blocks the host, so it cannot be queued behind one), after an L2 flush; the sample
// is the mean time per call. Returns a status.
template <typename Call>
int time_calls(const gpuscout_method* method, cudaStream_t stream, bool latched, Call call, const TimingOut& out) {
  Events ev;
  *out.n_samples = 0;
  double call_s = 0;
  if (int st = warm_up(method, stream, call, ev, &call_s, out); st != GPUSCOUT_OK) return st;
  const int calls = gpuscout_plugin::calls_per_sample(call_s, kSampleTargetS, kMaxCallsPerSample);
  Latch latch;
  L2Flush flush(device_l2_bytes());
  const bool hold = latched && latch.usable();
  const int max_repeats = std::clamp(method->max_repeats, 1, GPUSCOUT_PLUGIN_MAX_SAMPLES);
  double total = 0;
  int iteration = 1000;  // after the warm-ups' input sets
  while (*out.n_samples < max_repeats) {
    if (*out.n_samples >= method->min_repeats && total >= method->budget_s) break;
    if (stop_requested()) return GPUSCOUT_STOPPED;
    flush.run(stream, *out.n_samples);
    if (hold) latch.hold(stream);
    cudaEventRecord(ev.start, stream);
    bool ok = true;
    for (int c = 0; ok && c < calls; ++c) ok = call(++iteration);
    cudaEventRecord(ev.stop, stream);
    if (hold) latch.release();
    cudaError_t e = cudaEventSynchronize(ev.stop);
    if (!ok) return GPUSCOUT_FAILED;
    if (e != cudaSuccess) {
      set_text(out.error, out.error_len, "timed run: %s", cudaGetErrorString(e));
      return GPUSCOUT_FAILED;
    }
    float ms = 0;
    cudaEventElapsedTime(&ms, ev.start, ev.stop);
    out.samples[(*out.n_samples)++] = ms / 1e3 / calls;
    total += ms / 1e3;
  }
  return GPUSCOUT_OK;
}

struct GemmTypes {
  cudaDataType_t in, out;
  size_t in_size, out_size;
  cublasComputeType_t compute;
};

GemmTypes gemm_types(int dtype) {
  switch (dtype) {
    case GPUSCOUT_DTYPE_TF32: return {CUDA_R_32F, CUDA_R_32F, 4, 4, CUBLAS_COMPUTE_32F_FAST_TF32};
    case GPUSCOUT_DTYPE_FP16: return {CUDA_R_16F, CUDA_R_16F, 2, 2, CUBLAS_COMPUTE_32F};
    case GPUSCOUT_DTYPE_BF16: return {CUDA_R_16BF, CUDA_R_16BF, 2, 2, CUBLAS_COMPUTE_32F};
    case GPUSCOUT_DTYPE_FP8: return {CUDA_R_8F_E4M3, CUDA_R_16BF, 1, 2, CUBLAS_COMPUTE_32F};
    default: return {CUDA_R_32F, CUDA_R_32F, 4, 4, CUBLAS_COMPUTE_32F};  // TF32 off: plain fp32 FMA
  }
}

void fill_typed(int dtype, bool input, void* p, size_t count, uint64_t seed, cudaStream_t s) {
  const GemmTypes t = gemm_types(dtype);
  const cudaDataType_t type = input ? t.in : t.out;
  switch (type) {
    case CUDA_R_16F: launch_fill<__half>(p, count, seed, s); break;
    case CUDA_R_16BF: launch_fill<__nv_bfloat16>(p, count, seed, s); break;
    case CUDA_R_8F_E4M3: launch_fill<__nv_fp8_e4m3>(p, count, seed, s); break;
    default: launch_fill<float>(p, count, seed, s); break;
  }
}

void launch_reference(int dtype, const void* A, const void* B, const void* C, int n, int transA, const int* is,
                      const int* js, int samples, double* ref, double* mag, double* got, cudaStream_t s) {
  switch (dtype) {
    case GPUSCOUT_DTYPE_FP16:
      reference_kernel<__half, __half><<<samples, 256, 0, s>>>(static_cast<const __half*>(A), static_cast<const __half*>(B),
                                                              static_cast<const __half*>(C), n, transA, is, js, ref, mag, got);
      break;
    case GPUSCOUT_DTYPE_BF16:
      reference_kernel<__nv_bfloat16, __nv_bfloat16><<<samples, 256, 0, s>>>(
          static_cast<const __nv_bfloat16*>(A), static_cast<const __nv_bfloat16*>(B),
          static_cast<const __nv_bfloat16*>(C), n, transA, is, js, ref, mag, got);
      break;
    case GPUSCOUT_DTYPE_FP8:
      reference_kernel<__nv_fp8_e4m3, __nv_bfloat16><<<samples, 256, 0, s>>>(
          static_cast<const __nv_fp8_e4m3*>(A), static_cast<const __nv_fp8_e4m3*>(B),
          static_cast<const __nv_bfloat16*>(C), n, transA, is, js, ref, mag, got);
      break;
    default:
      reference_kernel<float, float><<<samples, 256, 0, s>>>(static_cast<const float*>(A), static_cast<const float*>(B),
                                                            static_cast<const float*>(C), n, transA, is, js, ref, mag, got);
      break;
  }
}

// cuBLASLt set-up for fp8 (cublasGemmEx has no fp8): D = op(A)^T B with A stored k x m ("TN", required for fp8).
struct LtGemm {
  cublasLtHandle_t lt = nullptr;
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
  cublasLtMatmulPreference_t pref = nullptr;
  cublasLtMatmulHeuristicResult_t heuristic{};
  DeviceBuffer workspace;
  size_t workspace_bytes = 32u << 20;
  ~LtGemm() {
    if (pref) cublasLtMatmulPreferenceDestroy(pref);
    if (a) cublasLtMatrixLayoutDestroy(a);
    if (b) cublasLtMatrixLayoutDestroy(b);
    if (c) cublasLtMatrixLayoutDestroy(c);
    if (desc) cublasLtMatmulDescDestroy(desc);
    if (lt) cublasLtDestroy(lt);
  }
  cublasStatus_t setup(int n) {
    cublasStatus_t st = cublasLtCreate(&lt);
    if (st != CUBLAS_STATUS_SUCCESS) return st;
    if ((st = cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F)) != CUBLAS_STATUS_SUCCESS) return st;
    const cublasOperation_t t = CUBLAS_OP_T, nt = CUBLAS_OP_N;
    cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof t);
    cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &nt, sizeof nt);
    // Full fp32 accumulation: fast accumulation (faster, less accurate on long sums) is left off on purpose.
    const int8_t fast_accumulate = 0;
    cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast_accumulate, sizeof fast_accumulate);
    if ((st = cublasLtMatrixLayoutCreate(&a, CUDA_R_8F_E4M3, n, n, n)) != CUBLAS_STATUS_SUCCESS) return st;
    if ((st = cublasLtMatrixLayoutCreate(&b, CUDA_R_8F_E4M3, n, n, n)) != CUBLAS_STATUS_SUCCESS) return st;
    if ((st = cublasLtMatrixLayoutCreate(&c, CUDA_R_16BF, n, n, n)) != CUBLAS_STATUS_SUCCESS) return st;
    if (workspace.alloc(workspace_bytes) != cudaSuccess) workspace_bytes = 0;
    if ((st = cublasLtMatmulPreferenceCreate(&pref)) != CUBLAS_STATUS_SUCCESS) return st;
    cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_bytes,
                                         sizeof workspace_bytes);
    int found = 0;
    st = cublasLtMatmulAlgoGetHeuristic(lt, desc, a, b, c, c, pref, 1, &heuristic, &found);
    if (st != CUBLAS_STATUS_SUCCESS) return st;
    return found > 0 ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_SUPPORTED;
  }
};

using gpuscout_plugin::round_down;

}  // namespace

namespace {

const char* plugin_version() {
  static char text[64];
  std::snprintf(text, sizeof text, "gpuscout-cuda 1 (built with CUDA %d.%d)", CUDART_VERSION / 1000,
                (CUDART_VERSION % 1000) / 10);
  return text;
}

int plugin_init(int (*should_stop)(void), char* err, size_t err_len) {
  g_should_stop = should_stop;
  int driver = 0;
  cudaError_t e = cudaDriverGetVersion(&driver);
  if (e != cudaSuccess || driver == 0) {
    set_text(err, err_len, "no usable NVIDIA driver (cudaDriverGetVersion: %s)",
             e != cudaSuccess ? cudaGetErrorString(e) : "no driver");
    return GPUSCOUT_FAILED;
  }
  // Minor-version compatibility: a CUDA 13.x build runs on any CUDA 13.0 driver (R580 or newer).
  if (!gpuscout_plugin::driver_runs_runtime(driver, CUDART_VERSION)) {
    set_text(err, err_len, "the driver supports CUDA %d.%d but this plugin was built with CUDA %d.%d: update the driver",
             driver / 1000, (driver % 1000) / 10, CUDART_VERSION / 1000, (CUDART_VERSION % 1000) / 10);
    return GPUSCOUT_FAILED;
  }
  int count = 0;
  e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    set_text(err, err_len, "cudaGetDeviceCount: %s", cudaGetErrorString(e));
    return GPUSCOUT_FAILED;
  }
  g_initialized = true;
  return GPUSCOUT_OK;
}

int plugin_device_count() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

int plugin_device_info(int device, gpuscout_device_info* out, char* err, size_t err_len) {
  std::memset(out, 0, sizeof *out);
  cudaDeviceProp p{};
  cudaError_t e = cudaGetDeviceProperties(&p, device);
  if (e != cudaSuccess) {
    set_text(err, err_len, "cudaGetDeviceProperties(%d): %s", device, cudaGetErrorString(e));
    return GPUSCOUT_FAILED;
  }
  set_text(out->name, sizeof out->name, "%s", p.name);
  set_text(out->pci_bus_id, sizeof out->pci_bus_id, "%04x:%02x:%02x.0", p.pciDomainID, p.pciBusID, p.pciDeviceID);
  out->cc_major = p.major;
  out->cc_minor = p.minor;
  out->sm_count = p.multiProcessorCount;
  int khz = 0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device) == cudaSuccess) out->clock_sm_mhz_max = khz / 1000;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, device) == cudaSuccess)
    out->clock_memory_mhz_max = khz / 1000;
  int bits = 0;
  if (cudaDeviceGetAttribute(&bits, cudaDevAttrGlobalMemoryBusWidth, device) == cudaSuccess)
    out->memory_bus_width_bits = bits;
  out->memory_total_bytes = p.totalGlobalMem;
  out->l2_bytes = static_cast<uint64_t>(p.l2CacheSize);
  size_t free_bytes = 0, total_bytes = 0;
  if (cudaSetDevice(device) == cudaSuccess && cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) {
    g_used_devices.insert(device);
    out->memory_free_bytes = free_bytes;
  }
  cudaDriverGetVersion(&out->driver_version);
  cudaRuntimeGetVersion(&out->runtime_version);
  int major = 0, minor = 0, patch = 0;
  if (cublasGetProperty(MAJOR_VERSION, &major) == CUBLAS_STATUS_SUCCESS &&
      cublasGetProperty(MINOR_VERSION, &minor) == CUBLAS_STATUS_SUCCESS &&
      cublasGetProperty(PATCH_LEVEL, &patch) == CUBLAS_STATUS_SUCCESS)
    out->cublas_version = major * 10000 + minor * 100 + patch;
  return GPUSCOUT_OK;
}

// The GEMM's buffers: rotating input sets (so that small problems are not served from L2) and C.
struct GemmBuffers {
  std::vector<DeviceBuffer> as, bs;
  DeviceBuffer c;
  size_t nn = 0;
  // Allocates for `shape`, shrinking it after an out-of-memory (plugin_rules.h: allocate_gemm).
  bool allocate(gpuscout_plugin::GemmShape& shape, bool fp8, const GemmTypes& t) {
    return gpuscout_plugin::allocate_gemm(shape, fp8, [&](size_t elements, int sets) {
      as.clear();
      bs.clear();
      c.reset();
      as.resize(sets);
      bs.resize(sets);
      bool ok = c.alloc(elements * t.out_size) == cudaSuccess;
      for (int s = 0; ok && s < sets; ++s)
        ok = as[s].alloc(elements * t.in_size) == cudaSuccess && bs[s].alloc(elements * t.in_size) == cudaSuccess;
      if (!ok) cudaGetLastError();  // clear the out-of-memory error
      nn = ok ? elements : 0;
      return ok;
    });
  }
};

// Compares 64 sampled entries of C with an fp64 reference computed on the GPU from the same inputs. Every copy is
// ordered on `stream`, the stream the reference kernel runs on (the legacy stream does not order a non-blocking one).
void check_gemm(int dtype, const GemmBuffers& buf, int set, int n, cudaStream_t stream, gpuscout_gemm_result* out) {
  constexpr int samples = 64;
  std::vector<int> is(samples), js(samples);
  uint64_t state = 0x5eed;
  for (int k = 0; k < samples; ++k) {
    is[k] = static_cast<int>(splitmix64(state++) % static_cast<uint64_t>(n));
    js[k] = static_cast<int>(splitmix64(state++) % static_cast<uint64_t>(n));
  }
  DeviceBuffer d_is, d_js, d_ref, d_mag, d_got;
  if (d_is.alloc(samples * sizeof(int)) != cudaSuccess || d_js.alloc(samples * sizeof(int)) != cudaSuccess ||
      d_ref.alloc(samples * sizeof(double)) != cudaSuccess || d_mag.alloc(samples * sizeof(double)) != cudaSuccess ||
      d_got.alloc(samples * sizeof(double)) != cudaSuccess)
    return;
  cudaMemcpyAsync(d_is.ptr, is.data(), samples * sizeof(int), cudaMemcpyHostToDevice, stream);
  cudaMemcpyAsync(d_js.ptr, js.data(), samples * sizeof(int), cudaMemcpyHostToDevice, stream);
  launch_reference(dtype, buf.as[set].ptr, buf.bs[set].ptr, buf.c.ptr, n, dtype == GPUSCOUT_DTYPE_FP8 ? 1 : 0,
                   static_cast<int*>(d_is.ptr), static_cast<int*>(d_js.ptr), samples, static_cast<double*>(d_ref.ptr),
                   static_cast<double*>(d_mag.ptr), static_cast<double*>(d_got.ptr), stream);
  std::vector<double> ref(samples), mag(samples), got(samples);
  cudaMemcpyAsync(ref.data(), d_ref.ptr, samples * sizeof(double), cudaMemcpyDeviceToHost, stream);
  cudaMemcpyAsync(mag.data(), d_mag.ptr, samples * sizeof(double), cudaMemcpyDeviceToHost, stream);
  cudaMemcpyAsync(got.data(), d_got.ptr, samples * sizeof(double), cudaMemcpyDeviceToHost, stream);
  if (cudaStreamSynchronize(stream) != cudaSuccess) return;
  double worst = 0;
  for (int k = 0; k < samples; ++k) {
    const double err = std::fabs(got[k] - ref[k]) / std::max(mag[k], 1e-300);
    worst = std::max(worst, std::isfinite(err) ? err : INFINITY);
  }
  out->rel_error = worst;
  out->checked = samples;
}

// nullptr when the device can run this precision, else why not.
const char* unsupported_reason(int dtype, int cc) {
  if (dtype == GPUSCOUT_DTYPE_FP8 && cc < 89) return "fp8 needs compute capability 8.9 or newer";
  if (dtype == GPUSCOUT_DTYPE_BF16 && cc < 80) return "bf16 needs compute capability 8.0 or newer";
  if (dtype == GPUSCOUT_DTYPE_TF32 && cc < 80) return "tf32 needs compute capability 8.0 or newer";
  return nullptr;
}

// The cuBLAS (or, for fp8, cuBLASLt) handle, created inside the first warm-up call: what a naive first call pays.
struct GemmRunner {
  int dtype;
  int n;
  GemmTypes t;
  GemmBuffers* buf;
  cudaStream_t stream;
  gpuscout_gemm_result* out;
  cublasHandle_t handle = nullptr;
  LtGemm lt;
  bool setup_done = false;
  int last_set = 0;
  GemmRunner(int dtype_, int n_, GemmTypes t_, GemmBuffers* buf_, cudaStream_t stream_, gpuscout_gemm_result* out_)
      : dtype(dtype_), n(n_), t(t_), buf(buf_), stream(stream_), out(out_) {}
  GemmRunner(const GemmRunner&) = delete;
  GemmRunner& operator=(const GemmRunner&) = delete;
  ~GemmRunner() {
    if (handle) cublasDestroy(handle);
  }
  bool fp8() const { return dtype == GPUSCOUT_DTYPE_FP8; }
  bool fail(const char* what, cublasStatus_t st) {
    set_text(out->error, sizeof out->error, "%s: %s", what, cublas_text(st));
    return false;
  }
  bool setup() {
    setup_done = true;
    if (fp8()) {
      const cublasStatus_t st = lt.setup(n);
      return st == CUBLAS_STATUS_SUCCESS || fail("cuBLASLt fp8 set-up", st);
    }
    const cublasStatus_t st = cublasCreate(&handle);
    if (st != CUBLAS_STATUS_SUCCESS) return fail("cublasCreate", st);
    cublasSetStream(handle, stream);
    cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH);  // TF32 only when the compute type asks for it
    return true;
  }
  bool operator()(int iteration) {
    if (!setup_done && !setup()) return false;
    const int s = iteration % static_cast<int>(buf->as.size());
    last_set = s;
    const float alpha = 1.0f, beta = 0.0f;
    cublasStatus_t st;
    if (fp8())
      st = cublasLtMatmul(lt.lt, lt.desc, &alpha, buf->as[s].ptr, lt.a, buf->bs[s].ptr, lt.b, &beta, buf->c.ptr, lt.c,
                          buf->c.ptr, lt.c, &lt.heuristic.algo, lt.workspace.ptr, lt.workspace_bytes, stream);
    else
      st = cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, buf->as[s].ptr, t.in, n, buf->bs[s].ptr,
                        t.in, n, &beta, buf->c.ptr, t.out, n, t.compute, CUBLAS_GEMM_DEFAULT);
    return st == CUBLAS_STATUS_SUCCESS || fail(fp8() ? "cublasLtMatmul" : "cublasGemmEx", st);
  }
};

int plugin_gemm(int device, int dtype, int n_asked, const gpuscout_method* method, gpuscout_gemm_result* out) {
  std::memset(out, 0, sizeof *out);
  out->n = n_asked;
  if (cudaSetDevice(device) != cudaSuccess) {
    set_text(out->error, sizeof out->error, "cudaSetDevice(%d) failed", device);
    return out->status = GPUSCOUT_FAILED;
  }
  g_used_devices.insert(device);
  cudaDeviceProp p{};
  cudaGetDeviceProperties(&p, device);
  if (const char* why = unsupported_reason(dtype, p.major * 10 + p.minor)) {
    set_text(out->note, sizeof out->note, "%s (this GPU is %d.%d)", why, p.major, p.minor);
    return out->status = GPUSCOUT_UNSUPPORTED;
  }
  const GemmTypes t = gemm_types(dtype);
  const bool fp8 = dtype == GPUSCOUT_DTYPE_FP8;
  size_t free_bytes = 0, total_bytes = 0;
  cudaMemGetInfo(&free_bytes, &total_bytes);
  gpuscout_plugin::GemmShape shape =
      gpuscout_plugin::plan_gemm(n_asked, fp8, free_bytes, static_cast<size_t>(p.l2CacheSize), t.in_size, t.out_size);
  GemmBuffers buf;
  if (!buf.allocate(shape, fp8, t)) {
    set_text(out->error, sizeof out->error, "out of GPU memory even at n=%d", shape.n);
    return out->status = GPUSCOUT_FAILED;
  }
  const int n = shape.n;
  gpuscout_plugin::size_note(out->note, sizeof out->note, n, n_asked, fp8);
  if (fp8) {
    const size_t used = std::strlen(out->note);
    set_text(out->note + used, sizeof out->note - used, "%sfp32 accumulation, fast accumulation off", used ? "; " : "");
  }
  out->n = n;
  Stream stream;
  for (int s = 0; s < shape.sets; ++s) {
    fill_typed(dtype, true, buf.as[s].ptr, buf.nn, 1000 + 2 * s, stream.s);
    fill_typed(dtype, true, buf.bs[s].ptr, buf.nn, 1001 + 2 * s, stream.s);
  }
  fill_typed(dtype, false, buf.c.ptr, buf.nn, 999, stream.s);
  if (cudaError_t e = cudaStreamSynchronize(stream.s); e != cudaSuccess) {
    set_text(out->error, sizeof out->error, "filling inputs: %s", cudaGetErrorString(e));
    return out->status = GPUSCOUT_FAILED;
  }
  GemmRunner run(dtype, n, t, &buf, stream.s, out);
  const int status = time_calls(method, stream.s, true, std::ref(run),
                                TimingOut{&out->first_call_s, &out->n_samples, out->samples_s, out->error, sizeof out->error});
  if (status == GPUSCOUT_OK) check_gemm(dtype, buf, run.last_set, n, stream.s, out);
  return out->status = status;
}

int plugin_copy(int device, int kind, uint64_t size_asked, const gpuscout_method* method, gpuscout_copy_result* out) {
  std::memset(out, 0, sizeof *out);
  if (cudaSetDevice(device) != cudaSuccess) {
    set_text(out->error, sizeof out->error, "cudaSetDevice(%d) failed", device);
    return out->status = GPUSCOUT_FAILED;
  }
  g_used_devices.insert(device);
  size_t free_bytes = 0, total_bytes = 0;
  cudaMemGetInfo(&free_bytes, &total_bytes);
  const bool d2d = kind == GPUSCOUT_COPY_D2D;
  size_t size = round_down(static_cast<size_t>(size_asked), 4096);
  while (size > (16u << 20) && size * (d2d ? 2 : 1) > free_bytes / 2) size = round_down(size / 2, 4096);
  DeviceBuffer src, dst;
  HostBuffer host;
  const bool pinned = kind == GPUSCOUT_COPY_H2D_PINNED || kind == GPUSCOUT_COPY_D2H_PINNED;
  for (;;) {
    bool ok = dst.alloc(size) == cudaSuccess && (!d2d || src.alloc(size) == cudaSuccess) &&
              (d2d || host.alloc(size, pinned));
    if (ok) break;
    cudaGetLastError();
    src.reset();
    dst.reset();
    host.reset();
    if (size <= (16u << 20)) {
      set_text(out->error, sizeof out->error, "out of memory even at %zu MiB", size >> 20);
      return out->status = GPUSCOUT_FAILED;
    }
    size = round_down(size / 2, 4096);
  }
  if (size != size_asked) set_text(out->note, sizeof out->note, "copied %zu MiB instead of %llu MiB: memory was short",
                                   size >> 20, static_cast<unsigned long long>(size_asked >> 20));
  out->size_bytes = size;
  const size_t words = size / 4;
  Stream stream;
  // Random source contents: device side by kernel, host side on the CPU (touching every page of pageable memory).
  if (d2d) fill_words_kernel<<<1024, 256, 0, stream.s>>>(static_cast<uint32_t*>(src.ptr), words, 77);
  else if (kind == GPUSCOUT_COPY_H2D_PINNED || kind == GPUSCOUT_COPY_H2D_PAGEABLE) {
    auto* h = static_cast<uint32_t*>(host.ptr);
    for (size_t i = 0; i < words; ++i) h[i] = static_cast<uint32_t>(splitmix64(77 * 0x100000001B3ULL + i));
  } else {
    fill_words_kernel<<<1024, 256, 0, stream.s>>>(static_cast<uint32_t*>(dst.ptr), words, 77);
    std::memset(host.ptr, 0, size);
  }
  cudaStreamSynchronize(stream.s);
  auto call = [&](int) -> bool {
    cudaError_t e;
    switch (kind) {
      case GPUSCOUT_COPY_D2D: e = cudaMemcpyAsync(dst.ptr, src.ptr, size, cudaMemcpyDeviceToDevice, stream.s); break;
      case GPUSCOUT_COPY_H2D_PINNED:
      case GPUSCOUT_COPY_H2D_PAGEABLE: e = cudaMemcpyAsync(dst.ptr, host.ptr, size, cudaMemcpyHostToDevice, stream.s); break;
      default: e = cudaMemcpyAsync(host.ptr, dst.ptr, size, cudaMemcpyDeviceToHost, stream.s); break;
    }
    if (e != cudaSuccess) {
      set_text(out->error, sizeof out->error, "cudaMemcpyAsync: %s", cudaGetErrorString(e));
      return false;
    }
    return true;
  };
  // A pageable copy returns only once the driver has staged it, so it cannot be queued behind the latch.
  int status = time_calls(method, stream.s, pinned || d2d, call,
                          TimingOut{&out->first_call_s, &out->n_samples, out->samples_s, out->error, sizeof out->error});
  if (status == GPUSCOUT_OK) {
    if (d2d) {
      DeviceBuffer bad;
      unsigned long long mismatches = 1;
      if (bad.alloc(sizeof(unsigned long long)) == cudaSuccess) {
        cudaMemsetAsync(bad.ptr, 0, sizeof(unsigned long long), stream.s);
        count_mismatch_kernel<<<1024, 256, 0, stream.s>>>(static_cast<const uint32_t*>(src.ptr),
                                                          static_cast<const uint32_t*>(dst.ptr), words,
                                                          static_cast<unsigned long long*>(bad.ptr));
        cudaStreamSynchronize(stream.s);
        cudaMemcpy(&mismatches, bad.ptr, sizeof mismatches, cudaMemcpyDeviceToHost);
      }
      out->verified = mismatches == 0;
    } else {
      // Both directions end with the same pseudo-random words on each side: compare sampled words with the formula.
      std::vector<uint32_t> back(1024);
      bool ok = true;
      const bool h2d = kind == GPUSCOUT_COPY_H2D_PINNED || kind == GPUSCOUT_COPY_H2D_PAGEABLE;
      for (size_t chunk = 0; ok && chunk < 8; ++chunk) {
        const size_t first = std::min(words - 1024, chunk * (words / 8));
        const uint32_t* seen = static_cast<const uint32_t*>(host.ptr) + first;
        if (h2d) {
          ok = cudaMemcpy(back.data(), static_cast<const uint32_t*>(dst.ptr) + first, 1024 * 4, cudaMemcpyDeviceToHost) ==
               cudaSuccess;
          seen = back.data();
        }
        for (size_t i = 0; ok && i < 1024; ++i)
          ok = seen[i] == static_cast<uint32_t>(splitmix64(77 * 0x100000001B3ULL + first + i));
      }
      out->verified = ok;
    }
  }
  return out->status = status;
}


// NCCL, dlopened on first use so the plugin loads where it is absent. The pointer types are taken from nccl.h's own
// declarations, so a signature mismatch is a compile error.
struct NcclLibrary {
  void* handle = nullptr;
  decltype(&ncclGetVersion) get_version = nullptr;
  decltype(&ncclCommInitAll) comm_init_all = nullptr;
  decltype(&ncclAllReduce) all_reduce = nullptr;
  decltype(&ncclCommDestroy) comm_destroy = nullptr;
  decltype(&ncclGetErrorString) error_string = nullptr;
  decltype(&ncclGroupStart) group_start = nullptr;
  decltype(&ncclGroupEnd) group_end = nullptr;
  bool loaded() const { return handle != nullptr; }
};

template <typename F>
bool resolve(void* handle, const char* name, F& out) {
  out = reinterpret_cast<F>(dlsym(handle, name));
  return out != nullptr;
}

// The library, or one not loaded with the reason in `why`.
const NcclLibrary& nccl_library(const char** why) {
  static NcclLibrary lib;
  static const char* reason = nullptr;
  static bool tried = false;
  if (!tried) {
    tried = true;
    void* h = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!h) reason = "NCCL not found (libnccl.so.2 could not be loaded)";
    else if (!resolve(h, "ncclGetVersion", lib.get_version) || !resolve(h, "ncclCommInitAll", lib.comm_init_all) ||
             !resolve(h, "ncclAllReduce", lib.all_reduce) || !resolve(h, "ncclCommDestroy", lib.comm_destroy) ||
             !resolve(h, "ncclGetErrorString", lib.error_string) || !resolve(h, "ncclGroupStart", lib.group_start) ||
             !resolve(h, "ncclGroupEnd", lib.group_end)) {
      reason = "NCCL found but too old (a function is missing from libnccl.so.2)";
      dlclose(h);
    } else {
      lib.handle = h;
    }
  }
  *why = reason;
  return lib;
}

// One rank's buffers, stream and communicator; freed on every return path.
struct Rank {
  int device = 0;
  DeviceBuffer send, recv;
  cudaStream_t stream = nullptr;
  ncclComm_t comm = nullptr;
};

struct Ranks {
  const NcclLibrary& nccl;
  std::vector<Rank> ranks;
  ~Ranks() {
    for (auto& r : ranks) {
      cudaSetDevice(r.device);
      if (r.comm) nccl.comm_destroy(r.comm);
      if (r.stream) cudaStreamDestroy(r.stream);
      r.send.reset();
      r.recv.reset();
    }
  }
};

__global__ void fill_value_kernel(float* p, size_t count, float value) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    p[i] = value;
}

// One all-reduce on every rank, queued as one group (one thread drives all GPUs, which NCCL requires to be grouped).
bool allreduce_once(Ranks& rs, size_t count, gpuscout_allreduce_result* out) {
  ncclResult_t r = rs.nccl.group_start();
  for (auto& k : rs.ranks) {
    if (r != ncclSuccess) break;
    r = rs.nccl.all_reduce(k.send.ptr, k.recv.ptr, count, ncclFloat32, ncclSum, k.comm, k.stream);
  }
  const ncclResult_t end = rs.nccl.group_end();
  if (r == ncclSuccess) r = end;
  if (r != ncclSuccess) set_text(out->error, sizeof out->error, "ncclAllReduce: %s", rs.nccl.error_string(r));
  return r == ncclSuccess;
}

bool sync_ranks(Ranks& rs, gpuscout_allreduce_result* out) {
  for (auto& k : rs.ranks) {
    cudaSetDevice(k.device);
    const cudaError_t e = cudaStreamSynchronize(k.stream);
    if (e != cudaSuccess) {
      set_text(out->error, sizeof out->error, "GPU %d: %s", k.device, cudaGetErrorString(e));
      return false;
    }
  }
  return true;
}

// Buffers (send = rank + 1 everywhere), streams and one communicator per GPU.
int setup_ranks(Ranks& rs, int n, size_t bytes, gpuscout_allreduce_result* out) {
  rs.ranks.resize(n);
  std::vector<int> devices(n);
  std::vector<ncclComm_t> comms(n);
  for (int i = 0; i < n; ++i) {
    Rank& k = rs.ranks[i];
    k.device = devices[i] = i;
    cudaSetDevice(i);
    g_used_devices.insert(i);
    if (k.send.alloc(bytes) != cudaSuccess || k.recv.alloc(bytes) != cudaSuccess ||
        cudaStreamCreateWithFlags(&k.stream, cudaStreamNonBlocking) != cudaSuccess) {
      cudaGetLastError();
      set_text(out->error, sizeof out->error, "GPU %d: out of memory for 2 x %zu MiB", i, bytes >> 20);
      return GPUSCOUT_FAILED;
    }
    fill_value_kernel<<<1024, 256, 0, k.stream>>>(static_cast<float*>(k.send.ptr), bytes / 4,
                                                   gpuscout_plugin::allreduce_input(i));
  }
  const ncclResult_t r = rs.nccl.comm_init_all(comms.data(), n, devices.data());
  if (r != ncclSuccess) {
    set_text(out->error, sizeof out->error, "ncclCommInitAll: %s", rs.nccl.error_string(r));
    return GPUSCOUT_FAILED;
  }
  for (int i = 0; i < n; ++i) rs.ranks[i].comm = comms[i];
  return sync_ranks(rs, out) ? GPUSCOUT_OK : GPUSCOUT_FAILED;
}

// Sampled elements of every rank's result against n(n+1)/2.
bool check_allreduce(Ranks& rs, size_t count) {
  const float want = gpuscout_plugin::allreduce_expected(static_cast<int>(rs.ranks.size()));
  std::vector<float> back(256);
  for (auto& k : rs.ranks) {
    cudaSetDevice(k.device);
    for (size_t chunk = 0; chunk < 4; ++chunk) {
      const size_t first = std::min(count - std::min(count, back.size()), chunk * (count / 4));
      const size_t m = std::min(back.size(), count - first);
      if (cudaMemcpy(back.data(), static_cast<const float*>(k.recv.ptr) + first, m * 4, cudaMemcpyDeviceToHost) !=
          cudaSuccess)
        return false;
      for (size_t i = 0; i < m; ++i)
        if (back[i] != want) return false;
    }
  }
  return true;
}

// Warm-ups, then samples of `calls` back-to-back all-reduces timed on the host until every stream is done.
int time_allreduce(Ranks& rs, size_t count, const gpuscout_method* method, gpuscout_allreduce_result* out) {
  auto run = [&](int calls, double* seconds) -> int {
    if (stop_requested()) return GPUSCOUT_STOPPED;
    const auto t0 = std::chrono::steady_clock::now();
    for (int c = 0; c < calls; ++c)
      if (!allreduce_once(rs, count, out)) return GPUSCOUT_FAILED;
    if (!sync_ranks(rs, out)) return GPUSCOUT_FAILED;
    *seconds = seconds_since(t0) / calls;
    return GPUSCOUT_OK;
  };
  double call_s = 0;
  for (int w = 0; w < std::max(2, method->warmup); ++w) {
    if (int st = run(1, &call_s); st != GPUSCOUT_OK) return st;
    if (w == 0) out->first_call_s = call_s;
  }
  const int calls = gpuscout_plugin::calls_per_sample(call_s, kSampleTargetS, kMaxCallsPerSample);
  const int max_samples = std::clamp(method->max_repeats, 1, GPUSCOUT_PLUGIN_MAX_SAMPLES);
  double spent = 0;
  while (out->n_samples < max_samples && (out->n_samples < method->min_repeats || spent < method->budget_s)) {
    double s = 0;
    if (int st = run(calls, &s); st != GPUSCOUT_OK) return st;
    out->samples_s[out->n_samples++] = s;
    spent += s * calls;
  }
  return GPUSCOUT_OK;
}

int plugin_allreduce(uint64_t size_asked, const gpuscout_method* method, gpuscout_allreduce_result* out) {
  std::memset(out, 0, sizeof *out);
  const char* why = nullptr;
  const NcclLibrary& nccl = nccl_library(&why);
  if (!nccl.loaded()) {
    set_text(out->note, sizeof out->note, "%s", why);
    return out->status = GPUSCOUT_UNSUPPORTED;
  }
  nccl.get_version(&out->nccl_version);
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n < 2) {
    out->n_ranks = n;
    set_text(out->note, sizeof out->note, "all-reduce needs at least 2 GPUs, this machine shows %d", n);
    return out->status = GPUSCOUT_UNSUPPORTED;
  }
  out->n_ranks = n;
  size_t min_free = SIZE_MAX;
  for (int i = 0; i < n; ++i) {
    size_t free_bytes = 0, total = 0;
    if (cudaSetDevice(i) == cudaSuccess && cudaMemGetInfo(&free_bytes, &total) == cudaSuccess)
      min_free = std::min(min_free, free_bytes);
  }
  const size_t bytes = gpuscout_plugin::allreduce_bytes(size_asked, min_free == SIZE_MAX ? 0 : min_free);
  if (bytes != size_asked)
    set_text(out->note, sizeof out->note, "reduced %zu MiB instead of %llu MiB: memory was short", bytes >> 20,
             static_cast<unsigned long long>(size_asked >> 20));
  out->size_bytes = bytes;
  Ranks rs{nccl, {}};
  int status = setup_ranks(rs, n, bytes, out);
  if (status == GPUSCOUT_OK) status = time_allreduce(rs, bytes / 4, method, out);
  if (status == GPUSCOUT_OK) out->verified = check_allreduce(rs, bytes / 4);
  return out->status = status;
}

void plugin_shutdown() {
  if (!g_initialized) return;
  // Destroys each context this plugin used, freeing any device and pinned memory still held.
  for (int d : g_used_devices)
    if (cudaSetDevice(d) == cudaSuccess) cudaDeviceReset();
  g_used_devices.clear();
  g_initialized = false;
}

const gpuscout_cuda_plugin_v1 kPlugin = {
    GPUSCOUT_CUDA_PLUGIN_ABI, sizeof(gpuscout_cuda_plugin_v1), plugin_version, plugin_init, plugin_device_count,
    plugin_device_info,       plugin_gemm,                      plugin_copy,    plugin_shutdown};

const gpuscout_cuda_plugin_nccl_v1 kNccl = {GPUSCOUT_CUDA_NCCL_ABI, sizeof(gpuscout_cuda_plugin_nccl_v1),
                                            plugin_allreduce};

}  // namespace

EXPORT const gpuscout_cuda_plugin_nccl_v1* gpuscout_cuda_plugin_nccl(void) { return &kNccl; }
EXPORT uint32_t gpuscout_cuda_plugin_abi(void) { return GPUSCOUT_CUDA_PLUGIN_ABI; }
EXPORT const gpuscout_cuda_plugin_v1* gpuscout_cuda_plugin_get(void) { return &kPlugin; }
