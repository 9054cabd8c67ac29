// libgpuscout-cuda.so: GEMM through cuBLAS/cuBLASLt per precision, device and host copies, timed with CUDA
// events, on random data, checked against an fp64 reference of sampled entries. See gpuscout_cuda_plugin.h.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <set>
#include <vector>

#include "gpuscout_cuda_plugin.h"

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

// Runs `call` per the method: warm-ups (the first timed on the host clock, set-up included), then samples
// timed with events until min_repeats and budget_s, or max_repeats. Returns a status.
template <typename Call>
int time_calls(const gpuscout_method* method, cudaStream_t stream, Call call, double* first_call_s, int* n_samples,
               double* samples, char* error, size_t error_len) {
  Events ev;
  *n_samples = 0;
  for (int w = 0; w < std::max(1, method->warmup); ++w) {
    if (stop_requested()) return GPUSCOUT_STOPPED;
    const auto t0 = std::chrono::steady_clock::now();
    if (!call(w)) return GPUSCOUT_FAILED;
    cudaError_t e = cudaStreamSynchronize(stream);
    if (e != cudaSuccess) {
      set_text(error, error_len, "warm-up: %s", cudaGetErrorString(e));
      return GPUSCOUT_FAILED;
    }
    if (w == 0) *first_call_s = seconds_since(t0);
  }
  const int max_repeats = std::clamp(method->max_repeats, 1, GPUSCOUT_PLUGIN_MAX_SAMPLES);
  double total = 0;
  int iteration = 0;
  while (*n_samples < max_repeats) {
    if (*n_samples >= method->min_repeats && total >= method->budget_s) break;
    if (stop_requested()) return GPUSCOUT_STOPPED;
    cudaEventRecord(ev.start, stream);
    if (!call(++iteration)) return GPUSCOUT_FAILED;
    cudaEventRecord(ev.stop, stream);
    cudaError_t e = cudaEventSynchronize(ev.stop);
    if (e != cudaSuccess) {
      set_text(error, error_len, "timed run: %s", cudaGetErrorString(e));
      return GPUSCOUT_FAILED;
    }
    float ms = 0;
    cudaEventElapsedTime(&ms, ev.start, ev.stop);
    samples[(*n_samples)++] = ms / 1e3;
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

size_t round_down(size_t v, size_t m) { return std::max(m, v / m * m); }

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
  if (driver < CUDART_VERSION) {
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
  const int cc = p.major * 10 + p.minor;
  if (dtype == GPUSCOUT_DTYPE_FP8 && cc < 89) {
    set_text(out->note, sizeof out->note, "fp8 needs compute capability 8.9 or newer (this GPU is %d.%d)", p.major, p.minor);
    return out->status = GPUSCOUT_UNSUPPORTED;
  }
  if ((dtype == GPUSCOUT_DTYPE_BF16 || dtype == GPUSCOUT_DTYPE_TF32) && cc < 80) {
    set_text(out->note, sizeof out->note, "%s needs compute capability 8.0 or newer (this GPU is %d.%d)",
             dtype == GPUSCOUT_DTYPE_BF16 ? "bf16" : "tf32", p.major, p.minor);
    return out->status = GPUSCOUT_UNSUPPORTED;
  }
  const GemmTypes t = gemm_types(dtype);
  // Rotating input sets so that small problems are not served from L2: inputs of all sets >= 3 x L2.
  auto plan_bytes = [&](int n, int sets) {
    const size_t nn = static_cast<size_t>(n) * n;
    return static_cast<size_t>(sets) * 2 * nn * t.in_size + nn * t.out_size + (64u << 20);
  };
  int n = n_asked;
  const bool fp8 = dtype == GPUSCOUT_DTYPE_FP8;
  if (fp8) n = static_cast<int>(round_down(static_cast<size_t>(n), 16));  // fp8 needs multiples of 16
  size_t free_bytes = 0, total_bytes = 0;
  cudaMemGetInfo(&free_bytes, &total_bytes);
  while (n > 256 && plan_bytes(n, 1) > free_bytes * 9 / 10) n = static_cast<int>(round_down(static_cast<size_t>(n) * 3 / 4, 256));
  const size_t nn = static_cast<size_t>(n) * n;
  const size_t l2 = static_cast<size_t>(p.l2CacheSize);
  int sets = static_cast<int>(std::clamp<size_t>((3 * l2) / std::max<size_t>(1, 2 * nn * t.in_size) + 1, 1, 8));
  while (sets > 1 && plan_bytes(n, sets) > free_bytes * 9 / 10) --sets;

  std::vector<DeviceBuffer> as(sets), bs(sets);
  DeviceBuffer c;
  for (;;) {
    bool ok = c.alloc(nn * t.out_size) == cudaSuccess;
    for (int s = 0; ok && s < sets; ++s)
      ok = as[s].alloc(nn * t.in_size) == cudaSuccess && bs[s].alloc(nn * t.in_size) == cudaSuccess;
    if (ok) break;
    cudaGetLastError();  // clear the out-of-memory error
    for (auto& b : as) b.reset();
    for (auto& b : bs) b.reset();
    c.reset();
    if (sets > 1) {
      sets = 1;
      continue;
    }
    if (n <= 256) {
      set_text(out->error, sizeof out->error, "out of GPU memory even at n=%d", n);
      return out->status = GPUSCOUT_FAILED;
    }
    n = static_cast<int>(round_down(static_cast<size_t>(n) / 2, fp8 ? 16 : 256));
  }
  if (n != n_asked)
    set_text(out->note, sizeof out->note, "ran n=%d instead of %d: not enough free GPU memory", n, n_asked);
  out->n = n;
  as.resize(sets);
  bs.resize(sets);
  Stream stream;
  for (int s = 0; s < sets; ++s) {
    fill_typed(dtype, true, as[s].ptr, nn, 1000 + 2 * s, stream.s);
    fill_typed(dtype, true, bs[s].ptr, nn, 1001 + 2 * s, stream.s);
  }
  fill_typed(dtype, false, c.ptr, nn, 999, stream.s);
  cudaError_t e = cudaStreamSynchronize(stream.s);
  if (e != cudaSuccess) {
    set_text(out->error, sizeof out->error, "filling inputs: %s", cudaGetErrorString(e));
    return out->status = GPUSCOUT_FAILED;
  }

  cublasHandle_t handle = nullptr;
  LtGemm lt;
  const float alpha = 1.0f, beta = 0.0f;
  bool setup_done = false;
  cublasStatus_t last = CUBLAS_STATUS_SUCCESS;
  auto call = [&](int iteration) -> bool {
    if (!setup_done) {  // inside the first warm-up: what a naive first call pays
      setup_done = true;
      if (fp8) {
        last = lt.setup(n);
        if (last != CUBLAS_STATUS_SUCCESS) {
          set_text(out->error, sizeof out->error, "cuBLASLt fp8 set-up: %s", cublas_text(last));
          return false;
        }
      } else {
        last = cublasCreate(&handle);
        if (last != CUBLAS_STATUS_SUCCESS) {
          set_text(out->error, sizeof out->error, "cublasCreate: %s", cublas_text(last));
          return false;
        }
        cublasSetStream(handle, stream.s);
        cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH);  // TF32 only when the compute type asks for it
      }
    }
    const int s = iteration % sets;
    if (fp8) {
      last = cublasLtMatmul(lt.lt, lt.desc, &alpha, as[s].ptr, lt.a, bs[s].ptr, lt.b, &beta, c.ptr, lt.c, c.ptr, lt.c,
                            &lt.heuristic.algo, lt.workspace.ptr, lt.workspace_bytes, stream.s);
    } else {
      last = cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, as[s].ptr, t.in, n, bs[s].ptr, t.in, n,
                          &beta, c.ptr, t.out, n, t.compute, CUBLAS_GEMM_DEFAULT);
    }
    if (last != CUBLAS_STATUS_SUCCESS) {
      set_text(out->error, sizeof out->error, "%s: %s", fp8 ? "cublasLtMatmul" : "cublasGemmEx", cublas_text(last));
      return false;
    }
    return true;
  };
  int status = time_calls(method, stream.s, call, &out->first_call_s, &out->n_samples, out->samples_s, out->error,
                          sizeof out->error);
  // The last call used set (iteration % sets); check C against that set.
  const int last_set = out->n_samples % sets;
  if (status == GPUSCOUT_OK) {
    const int samples = 64;
    std::vector<int> is(samples), js(samples);
    uint64_t state = 0x5eed;
    for (int k = 0; k < samples; ++k) {
      is[k] = static_cast<int>(splitmix64(state++) % static_cast<uint64_t>(n));
      js[k] = static_cast<int>(splitmix64(state++) % static_cast<uint64_t>(n));
    }
    DeviceBuffer d_is, d_js, d_ref, d_mag, d_got;
    if (d_is.alloc(samples * sizeof(int)) == cudaSuccess && d_js.alloc(samples * sizeof(int)) == cudaSuccess &&
        d_ref.alloc(samples * sizeof(double)) == cudaSuccess && d_mag.alloc(samples * sizeof(double)) == cudaSuccess &&
        d_got.alloc(samples * sizeof(double)) == cudaSuccess) {
      cudaMemcpy(d_is.ptr, is.data(), samples * sizeof(int), cudaMemcpyHostToDevice);
      cudaMemcpy(d_js.ptr, js.data(), samples * sizeof(int), cudaMemcpyHostToDevice);
      launch_reference(dtype, as[last_set].ptr, bs[last_set].ptr, c.ptr, n, fp8 ? 1 : 0, static_cast<int*>(d_is.ptr),
                       static_cast<int*>(d_js.ptr), samples, static_cast<double*>(d_ref.ptr),
                       static_cast<double*>(d_mag.ptr), static_cast<double*>(d_got.ptr), stream.s);
      std::vector<double> ref(samples), mag(samples), got(samples);
      cudaStreamSynchronize(stream.s);
      cudaMemcpy(ref.data(), d_ref.ptr, samples * sizeof(double), cudaMemcpyDeviceToHost);
      cudaMemcpy(mag.data(), d_mag.ptr, samples * sizeof(double), cudaMemcpyDeviceToHost);
      e = cudaMemcpy(got.data(), d_got.ptr, samples * sizeof(double), cudaMemcpyDeviceToHost);
      if (e == cudaSuccess) {
        double worst = 0;
        for (int k = 0; k < samples; ++k) {
          const double err = std::fabs(got[k] - ref[k]) / std::max(mag[k], 1e-300);
          worst = std::max(worst, std::isfinite(err) ? err : INFINITY);
        }
        out->rel_error = worst;
        out->checked = samples;
      }
    }
  }
  if (handle) cublasDestroy(handle);
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
  int status = time_calls(method, stream.s, call, &out->first_call_s, &out->n_samples, out->samples_s, out->error,
                          sizeof out->error);
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

}  // namespace

EXPORT uint32_t gpuscout_cuda_plugin_abi(void) { return GPUSCOUT_CUDA_PLUGIN_ABI; }
EXPORT const gpuscout_cuda_plugin_v1* gpuscout_cuda_plugin_get(void) { return &kPlugin; }
