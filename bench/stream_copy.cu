// A STREAM-style device copy (b[i] = a[i], 16-byte loads and stores, grid-stride), the peer scripts/gpu-check
// compares gpuscout's device copy (cudaMemcpyAsync device to device) with. Counted as gpuscout counts it: read +
// write. Timed as the plugin times: 10 back-to-back copies per event pair, median of 20 samples after 3 warm-ups.
// Usage: stream_copy [MiB]   (default 1024); prints "stream_copy_gbs N".
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void copy_kernel(const int4* __restrict__ a, int4* __restrict__ b, size_t n) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    b[i] = a[i];
}

int main(int argc, char** argv) {
  const size_t mib = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1024;
  const size_t bytes = mib << 20, n = bytes / sizeof(int4);
  int4 *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess) {
    std::fprintf(stderr, "stream_copy: cudaMalloc of %zu MiB failed\n", mib);
    return 1;
  }
  cudaMemset(a, 0x5a, bytes);
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  const int blocks = sms * 8, threads = 256, calls = 10;
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  for (int w = 0; w < 3; ++w) copy_kernel<<<blocks, threads>>>(a, b, n);
  std::vector<double> per_call;
  for (int s = 0; s < 20; ++s) {
    cudaEventRecord(start);
    for (int c = 0; c < calls; ++c) copy_kernel<<<blocks, threads>>>(a, b, n);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    per_call.push_back(ms / 1e3 / calls);
  }
  if (cudaGetLastError() != cudaSuccess) {
    std::fprintf(stderr, "stream_copy: kernel failed\n");
    return 1;
  }
  std::sort(per_call.begin(), per_call.end());
  std::printf("stream_copy_gbs %.1f\n", 2.0 * static_cast<double>(bytes) / per_call[per_call.size() / 2] / 1e9);
  return 0;
}
