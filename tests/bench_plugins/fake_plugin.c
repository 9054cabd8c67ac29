/* A fake libgpuscout-cuda.so for tests: one made-up GPU that answers instantly with plausible figures.
 * Built five ways: ok, wrong_version (interface version 999), init_fails (init returns an error),
 * not_a_plugin (exports nothing of the interface), no_nccl_table (a plugin from before the NCCL step).
 * A driver that hangs or crashes, for bench's deadline and signal tests: GPUSCOUT_FAKE_PLUGIN_SLEEP_S=N makes
 * every GEMM take N more seconds; GPUSCOUT_FAKE_PLUGIN_CRASH=1 makes the first GEMM die of SIGSEGV.
 * NCCL: GPUSCOUT_FAKE_PLUGIN_GPUS=N shows N GPUs (default 1: all-reduce then says it needs 2),
 * GPUSCOUT_FAKE_PLUGIN_BUSBW_GBS=X makes the all-reduce run at X GB/s bus bandwidth (default 150),
 * GPUSCOUT_FAKE_PLUGIN_NO_NCCL=1 answers as a plugin on a machine without libnccl.so.2,
 * GPUSCOUT_FAKE_PLUGIN_WRONG_SUM=1 reports a result that failed the check. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpuscout_cuda_plugin.h"

#define EXPORT __attribute__((visibility("default")))

#ifndef FAKE_KIND_not_a_plugin
static const char* fake_version(void) { return "fake plugin"; }

static int fake_init(int (*should_stop)(void), char* err, size_t err_len) {
  (void)should_stop;
#ifdef FAKE_KIND_init_fails
  snprintf(err, err_len, "cudaGetDeviceCount: CUDA driver version is insufficient for CUDA runtime version");
  return GPUSCOUT_FAILED;
#else
  (void)err;
  (void)err_len;
  return GPUSCOUT_OK;
#endif
}

static int fake_count(void) {
  const char* gpus = getenv("GPUSCOUT_FAKE_PLUGIN_GPUS");
  const int n = gpus && *gpus ? atoi(gpus) : 1;
  return n < 1 ? 1 : (n > 16 ? 16 : n);
}

static int fake_info(int device, gpuscout_device_info* out, char* err, size_t err_len) {
  (void)err;
  (void)err_len;
  memset(out, 0, sizeof *out);
  snprintf(out->name, sizeof out->name, "NVIDIA GeForce RTX 4090");
  snprintf(out->pci_bus_id, sizeof out->pci_bus_id, "0000:%02x:00.0", device + 1);
  out->cc_major = 8;
  out->cc_minor = 9;
  out->sm_count = 128;
  out->clock_sm_mhz_max = 2520;
  out->memory_total_bytes = 25769803776ull;
  out->memory_free_bytes = 24000000000ull;
  out->l2_bytes = 75497472ull;
  out->driver_version = 13000;
  out->runtime_version = 13000;
  out->cublas_version = 130100;
  return GPUSCOUT_OK;
}

static void fill(const gpuscout_method* m, double seconds, double* first, int* n_samples, double* samples) {
  int count = m->min_repeats < 1 ? 1 : m->min_repeats;
  if (count > GPUSCOUT_PLUGIN_MAX_SAMPLES) count = GPUSCOUT_PLUGIN_MAX_SAMPLES;
  *first = seconds * 50;
  *n_samples = count;
  for (int i = 0; i < count; ++i) samples[i] = seconds * (1.0 + 0.01 * i);
}

static void misbehave(void) {
  const char* sleep_s = getenv("GPUSCOUT_FAKE_PLUGIN_SLEEP_S");
  if (sleep_s && *sleep_s) sleep((unsigned)atoi(sleep_s));
  const char* crash = getenv("GPUSCOUT_FAKE_PLUGIN_CRASH");
  if (crash && *crash == '1') {
    /* Die of the signal itself, as a crash inside a real driver does, even where a sanitizer's handler is installed. */
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
  }
}

static int fake_gemm(int device, int dtype, int n, const gpuscout_method* m, gpuscout_gemm_result* out) {
  (void)device;
  misbehave();
  memset(out, 0, sizeof *out);
  out->n = n;
  static const double tflops[] = {80, 160, 160, 160, 320};
  if (dtype < 0 || dtype > 4) return out->status = GPUSCOUT_FAILED;
  fill(m, 2.0 * n * (double)n * n / (tflops[dtype] * 1e12), &out->first_call_s, &out->n_samples, out->samples_s);
  out->rel_error = dtype == GPUSCOUT_DTYPE_FP32 ? 1e-7 : 1e-3;
  out->checked = 64;
  return out->status = GPUSCOUT_OK;
}

static int fake_copy(int device, int kind, uint64_t size, const gpuscout_method* m, gpuscout_copy_result* out) {
  (void)device;
  memset(out, 0, sizeof *out);
  out->size_bytes = size;
  const double gbs = kind == GPUSCOUT_COPY_D2D ? 900.0 : (kind % 2 ? 25.0 : 12.0);
  fill(m, (double)size * (kind == GPUSCOUT_COPY_D2D ? 2.0 : 1.0) / (gbs * 1e9), &out->first_call_s, &out->n_samples,
       out->samples_s);
  out->verified = 1;
  return out->status = GPUSCOUT_OK;
}

static void fake_shutdown(void) {}

#ifndef FAKE_KIND_no_nccl_table
static int fake_allreduce(uint64_t size, const gpuscout_method* m, gpuscout_allreduce_result* out) {
  memset(out, 0, sizeof *out);
  const char* no_nccl = getenv("GPUSCOUT_FAKE_PLUGIN_NO_NCCL");
  if (no_nccl && *no_nccl == '1') {
    snprintf(out->note, sizeof out->note, "NCCL not found (libnccl.so.2 could not be loaded)");
    return out->status = GPUSCOUT_UNSUPPORTED;
  }
  out->nccl_version = 22703;
  out->n_ranks = fake_count();
  if (out->n_ranks < 2) {
    snprintf(out->note, sizeof out->note, "all-reduce needs at least 2 GPUs, this machine shows %d", out->n_ranks);
    return out->status = GPUSCOUT_UNSUPPORTED;
  }
  const char* busbw = getenv("GPUSCOUT_FAKE_PLUGIN_BUSBW_GBS");
  const double bus = busbw && *busbw ? atof(busbw) : 150.0;
  const double n = out->n_ranks;
  out->size_bytes = size;
  fill(m, (double)size * 2.0 * (n - 1) / n / (bus * 1e9), &out->first_call_s, &out->n_samples, out->samples_s);
  const char* wrong = getenv("GPUSCOUT_FAKE_PLUGIN_WRONG_SUM");
  out->verified = !(wrong && *wrong == '1');
  return out->status = GPUSCOUT_OK;
}

static const gpuscout_cuda_plugin_nccl_v1 nccl_table = {GPUSCOUT_CUDA_NCCL_ABI, sizeof(gpuscout_cuda_plugin_nccl_v1),
                                                        fake_allreduce};
#endif

static const gpuscout_cuda_plugin_v1 table = {GPUSCOUT_CUDA_PLUGIN_ABI, sizeof(gpuscout_cuda_plugin_v1), fake_version,
                                              fake_init, fake_count, fake_info, fake_gemm, fake_copy, fake_shutdown};

EXPORT uint32_t gpuscout_cuda_plugin_abi(void) {
#ifdef FAKE_KIND_wrong_version
  return 999u;
#else
  return GPUSCOUT_CUDA_PLUGIN_ABI;
#endif
}
EXPORT const gpuscout_cuda_plugin_v1* gpuscout_cuda_plugin_get(void) { return &table; }
#ifndef FAKE_KIND_no_nccl_table
EXPORT const gpuscout_cuda_plugin_nccl_v1* gpuscout_cuda_plugin_nccl(void) { return &nccl_table; }
#endif
#else
EXPORT int not_a_plugin_symbol(void) { return 0; }
#endif
