/* The C interface between gpuscout and its CUDA benchmark plugin (libgpuscout-cuda.so).
 *
 * gpuscout never links CUDA: `bench` dlopens the plugin, calls gpuscout_cuda_plugin_abi() and refuses a
 * plugin whose interface version differs from GPUSCOUT_CUDA_PLUGIN_ABI, then takes the function table from
 * gpuscout_cuda_plugin_get(). Plain C types only, so the two sides may be built by different compilers.
 * Any change to a struct or a function below bumps GPUSCOUT_CUDA_PLUGIN_ABI.
 *
 * Timing method: `warmup` runs (at least 2) are excluded (the first one's time is returned apart as
 * first_call_s), then samples are taken until there are min_repeats of them and budget_s of measured time, or
 * max_repeats. Each sample is several back-to-back calls (about 10 ms' worth, 1 to 128) between one pair of CUDA
 * events, queued behind a latch kernel the host releases once the sample is queued (so launch cost stays out),
 * after an L2 flush; samples_s holds the mean seconds per call of each sample (docs/bench.md, "GPU timing").
 * The host computes median and spread from the samples. Units are in the names.
 *
 * NCCL all-reduce is a second, optional table (gpuscout_cuda_plugin_nccl()): a plugin built before it simply lacks
 * the symbol, so adding it did not bump GPUSCOUT_CUDA_PLUGIN_ABI; the table carries its own GPUSCOUT_CUDA_NCCL_ABI,
 * bumped on any change to it. The plugin dlopens libnccl.so.2 on the first call, so it loads where NCCL is absent. */
#ifndef GPUSCOUT_CUDA_PLUGIN_H
#define GPUSCOUT_CUDA_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GPUSCOUT_CUDA_PLUGIN_ABI 1u
#define GPUSCOUT_PLUGIN_MAX_SAMPLES 64
#define GPUSCOUT_PLUGIN_TEXT 256

/* GEMM precisions. Inputs are random uniform [-1, 1) (rounded to the input type), accumulation in fp32. */
enum gpuscout_dtype {
  GPUSCOUT_DTYPE_FP32 = 0, /* fp32 in, fp32 out, TF32 tensor cores off (CUBLAS_COMPUTE_32F) */
  GPUSCOUT_DTYPE_TF32 = 1, /* fp32 in and out, TF32 tensor cores allowed (CUBLAS_COMPUTE_32F_FAST_TF32) */
  GPUSCOUT_DTYPE_FP16 = 2, /* fp16 in and out, fp32 accumulate */
  GPUSCOUT_DTYPE_BF16 = 3, /* bf16 in and out, fp32 accumulate */
  GPUSCOUT_DTYPE_FP8 = 4   /* fp8 e4m3 in, bf16 out, fp32 accumulate (cuBLASLt, compute capability 8.9+) */
};

enum gpuscout_copy_kind {
  GPUSCOUT_COPY_D2D = 0,          /* device to device; bytes moved = 2 x size (read + write) */
  GPUSCOUT_COPY_H2D_PINNED = 1,   /* bytes moved = size */
  GPUSCOUT_COPY_H2D_PAGEABLE = 2,
  GPUSCOUT_COPY_D2H_PINNED = 3,
  GPUSCOUT_COPY_D2H_PAGEABLE = 4
};

enum gpuscout_status {
  GPUSCOUT_OK = 0,
  GPUSCOUT_UNSUPPORTED = 1, /* this device cannot run it (fp8 below 8.9): not an error */
  GPUSCOUT_FAILED = 2,      /* error[] says which call failed and why */
  GPUSCOUT_STOPPED = 3      /* should_stop() answered non-zero */
};

typedef struct gpuscout_method {
  int warmup;
  int min_repeats;
  int max_repeats; /* at most GPUSCOUT_PLUGIN_MAX_SAMPLES */
  double budget_s;
} gpuscout_method;

typedef struct gpuscout_device_info {
  char name[GPUSCOUT_PLUGIN_TEXT];
  char pci_bus_id[32]; /* "0000:01:00.0" */
  int cc_major;
  int cc_minor;
  int sm_count;
  int clock_sm_mhz_max;
  int clock_memory_mhz_max;
  int memory_bus_width_bits;
  uint64_t memory_total_bytes;
  uint64_t memory_free_bytes;
  uint64_t l2_bytes;
  int driver_version;  /* cudaDriverGetVersion: 13000 = 13.0 */
  int runtime_version; /* cudaRuntimeGetVersion */
  int cublas_version;  /* cublasGetVersion: 130000 style */
} gpuscout_device_info;

typedef struct gpuscout_gemm_result {
  int status;          /* enum gpuscout_status */
  int n;               /* the size run (smaller than asked after an out-of-memory, see note) */
  double first_call_s; /* the first warm-up call, handle and kernel selection included */
  int n_samples;
  double samples_s[GPUSCOUT_PLUGIN_MAX_SAMPLES];
  double rel_error;    /* max |C - ref| / sum_k |A_ik B_kj| over sampled entries, ref in fp64 */
  int checked;         /* entries compared with the fp64 reference */
  char note[GPUSCOUT_PLUGIN_TEXT];
  char error[GPUSCOUT_PLUGIN_TEXT];
} gpuscout_gemm_result;

typedef struct gpuscout_copy_result {
  int status;
  uint64_t size_bytes; /* buffer size copied per call (smaller than asked after an out-of-memory) */
  double first_call_s;
  int n_samples;
  double samples_s[GPUSCOUT_PLUGIN_MAX_SAMPLES];
  int verified;        /* 1 when the destination was read back and matched the source */
  char note[GPUSCOUT_PLUGIN_TEXT];
  char error[GPUSCOUT_PLUGIN_TEXT];
} gpuscout_copy_result;

typedef struct gpuscout_cuda_plugin_v1 {
  uint32_t abi_version; /* GPUSCOUT_CUDA_PLUGIN_ABI */
  uint32_t struct_size; /* sizeof(gpuscout_cuda_plugin_v1) */
  const char* (*plugin_version)(void);
  /* Initialises the CUDA runtime. should_stop is polled between repeats (Ctrl-C); may be NULL.
   * Returns GPUSCOUT_OK or GPUSCOUT_FAILED with a readable reason in err. */
  int (*init)(int (*should_stop)(void), char* err, size_t err_len);
  int (*device_count)(void);
  int (*device_info)(int device, gpuscout_device_info* out, char* err, size_t err_len);
  /* C = A x B, all n x n, on `device`. Frees everything it allocated before returning. */
  int (*gemm)(int device, int dtype, int n, const gpuscout_method* method, gpuscout_gemm_result* out);
  int (*copy)(int device, int kind, uint64_t size_bytes, const gpuscout_method* method, gpuscout_copy_result* out);
  /* Frees every device and pinned allocation still held; safe to call twice. */
  void (*shutdown)(void);
} gpuscout_cuda_plugin_v1;

#define GPUSCOUT_CUDA_NCCL_ABI 1u

/* One ncclAllReduce (sum, float32, in place of nothing: separate send and receive buffers) over every visible GPU,
 * one rank per GPU, all ranks launched from one thread inside ncclGroupStart/End. Timing as above, without the latch:
 * each sample is back-to-back all-reduces (about 10 ms worth) timed on the host clock until every rank's stream has
 * finished, as nccl-tests times them. */
typedef struct gpuscout_allreduce_result {
  int status;            /* GPUSCOUT_UNSUPPORTED: NCCL not found, or fewer than 2 GPUs (note says which) */
  int n_ranks;           /* GPUs taking part */
  int nccl_version;      /* ncclGetVersion: 22703 = 2.27.3; 0 when NCCL was not loaded */
  uint64_t size_bytes;   /* bytes per rank reduced per call (smaller than asked when memory was short) */
  double first_call_s;   /* the first warm-up call, communicator set-up excluded */
  int n_samples;
  double samples_s[GPUSCOUT_PLUGIN_MAX_SAMPLES];
  int verified;          /* 1 when sampled elements of every rank's result equal the sum of the ranks' inputs */
  char note[GPUSCOUT_PLUGIN_TEXT];
  char error[GPUSCOUT_PLUGIN_TEXT];
} gpuscout_allreduce_result;

typedef struct gpuscout_cuda_plugin_nccl_v1 {
  uint32_t abi_version; /* GPUSCOUT_CUDA_NCCL_ABI */
  uint32_t struct_size; /* sizeof(gpuscout_cuda_plugin_nccl_v1) */
  /* Call after init(). Frees its buffers and communicators before returning. */
  int (*allreduce)(uint64_t size_bytes, const gpuscout_method* method, gpuscout_allreduce_result* out);
} gpuscout_cuda_plugin_nccl_v1;

/* The exported symbols: the first two always, the third where the plugin has the NCCL step. */
uint32_t gpuscout_cuda_plugin_abi(void);
const gpuscout_cuda_plugin_v1* gpuscout_cuda_plugin_get(void);
const gpuscout_cuda_plugin_nccl_v1* gpuscout_cuda_plugin_nccl(void);

typedef uint32_t (*gpuscout_cuda_plugin_abi_fn)(void);
typedef const gpuscout_cuda_plugin_v1* (*gpuscout_cuda_plugin_get_fn)(void);
typedef const gpuscout_cuda_plugin_nccl_v1* (*gpuscout_cuda_plugin_nccl_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* GPUSCOUT_CUDA_PLUGIN_H */
