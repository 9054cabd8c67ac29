// `bench --torch` against gpuscout's own runs of the same machine: the ratios, and what they mean for the user.
#include <algorithm>

#include <fmt/format.h>

#include "bench/result.hpp"
#include "bench/torch_bench.hpp"
#include "core/i18n.hpp"

namespace gpuscout::bench {
namespace {

// Below half of what the same hardware gives gpuscout's own BLAS or cuBLAS, the difference is in PyTorch's build
// or settings, not in noise: repeated runs of one GEMM differ by a few percent, and different BLAS libraries that
// are both tuned for a CPU stay within about 20% of each other.
constexpr double kSlowShare = 0.5;
// Above this share of gpuscout's own CPU GEMM, PyTorch's CPU BLAS is more than noise and tuning apart: its figure is
// the one the CPU-vs-GPU comparison should use, and that is said.
constexpr double kCpuFaster = 1.2;
// TF32 is worth naming when it gives at least this much over full fp32 (on Ampere and newer it gives 2x to 8x).
constexpr double kTf32Gain = 1.5;

struct Native {
  std::optional<double> gflops;  ///< the same precision and size
  std::optional<double> peak;    ///< the precision's peak
};

// gpuscout's best at that size: OpenBLAS's own kernels, or the rerun on the CPU's best ones (bench/run.cpp).
Native cpu_native(const CpuResult& cpu, const TorchCase& c) {
  Native out;
  for_each_cpu_gemm(cpu, [&](const CpuGemmRecord& g, const std::string&) {
    if (g.run.dtype == c.dtype && g.run.n == c.n && g.run.ok && g.run.gflops > out.gflops.value_or(0))
      out.gflops = g.run.gflops;
  });
  const auto& peak = c.dtype == Dtype::fp64 ? cpu.peak_fp64 : cpu.peak_fp32;
  if (peak && peak->all_cores_gflops > 0 && (c.dtype == Dtype::fp32 || c.dtype == Dtype::fp64))
    out.peak = peak->all_cores_gflops;
  return out;
}

Native gpu_native(const GpuResult& gpu, const TorchCase& c) {
  Native out;
  for (const auto& g : gpu.gemm) {
    if (g.dtype != c.dtype) continue;
    if (g.n == c.n && g.ok && g.status == 0) out.gflops = g.tflops * 1000;
    if (const auto peak = g.peak_datasheet_tflops ? g.peak_datasheet_tflops : g.peak_computed_tflops) out.peak = *peak * 1000;
  }
  return out;
}

std::optional<int> cuda_index(const std::string& device) {
  if (!device.starts_with("cuda:")) return std::nullopt;
  return std::stoi(device.substr(5));  // checked when read: "cuda:" and 1 to 4 digits
}

const TorchCase* find_case(const TorchBench& t, const std::string& device, Dtype d, int n) {
  for (const auto& c : t.cases)
    if (c.device == device && c.dtype == d && c.n == n && c.ok) return &c;
  return nullptr;
}

Finding cpu_slow(const TorchBench& t, const TorchCase& c, const std::string& blas_name) {
  std::vector<std::string> causes;
  if (t.num_threads && t.usable_cpus && *t.num_threads < *t.usable_cpus)
    causes.push_back(trf("It uses {} thread(s) of the {} this process may use: call torch.set_num_threads({}) at the "
                         "start of your script (or set OMP_NUM_THREADS={}).",
                         *t.num_threads, *t.usable_cpus, *t.usable_cpus, *t.usable_cpus));
  if (t.debug.value_or(false))
    causes.push_back(tr("It is a debug build (torch.version.debug): install a release build (`gpuscout doctor` gives "
                        "the command)."));
  if (t.blas && *t.blas == "generic")
    causes.push_back(tr("It was built against the system's generic BLAS (libblas.so.3), which may be the slow "
                        "reference one: the pytorch.org wheel brings a tuned BLAS (`gpuscout doctor` gives the command "
                        "for this machine)."));
  if (causes.empty())
    causes.push_back(tr("Check that nothing else keeps the CPU busy (`top`), then run `gpuscout bench --torch` again."));
  std::string fix;
  for (const auto& cause : causes) fix += (fix.empty() ? "" : " ") + cause;
  return {"torch-matmul-cpu-slow", "warning",
          trf("PyTorch's fp32 matrix product (n={}) on the CPU reaches {:.0f} GFLOP/s, {:.0f}% of the {:.0f} GFLOP/s "
              "gpuscout gets from {} on this machine.",
              c.n, c.gflops, 100 * *c.of_native, *c.native_gflops, blas_name),
          fix};
}

// PyTorch's CPU BLAS (MKL or oneDNN on x86 wheels) well ahead of gpuscout's OpenBLAS: gpuscout's CPU figures and the
// GPU's speed-up over them are then not what this CPU does for the user's own code, and that is said, with the
// speed-up against PyTorch's figure where the GPU was measured at the same size.
Finding cpu_faster(const TorchCase& c, const BenchResult& result) {
  std::string speedup;
  for (const auto& gpu : result.gpus) {
    if (gpu.index != 0) continue;
    for (const auto& g : gpu.gemm)
      if (g.dtype == Dtype::fp32 && g.n == c.n && g.ok && g.status == 0 && g.tflops > 0)
        speedup = " " + trf("Against PyTorch's CPU figure the GPU's fp32 speed-up at n={} is {:.0f} x, not {:.0f} x.",
                            c.n, g.tflops * 1000 / c.gflops, g.tflops * 1000 / *c.native_gflops);
  }
  return {"torch-matmul-cpu-faster", "info",
          trf("PyTorch's fp32 matrix product (n={}) on the CPU reaches {:.0f} GFLOP/s, {:.1f} x the {:.0f} GFLOP/s "
              "gpuscout gets from {}: gpuscout's CPU figures understate what this CPU does for PyTorch code.",
              c.n, c.gflops, *c.of_native, *c.native_gflops, result.cpu->blas.name) + speedup,
          tr("Nothing to change for your own PyTorch code: it already uses the faster library. When you compare "
             "the CPU with the GPU, use PyTorch's CPU figure.")};
}

Finding gpu_slow(const TorchBench& t, const TorchCase& c) {
  return {"torch-matmul-gpu-slow", "warning",
          trf("PyTorch's {} matrix product (n={}) on {} reaches {:.1f} TFLOP/s, {:.0f}% of the {:.1f} TFLOP/s gpuscout "
              "gets from cuBLAS on the same GPU.",
              dtype_name(c.dtype), c.n, c.device, c.gflops / 1000, 100 * *c.of_native, *c.native_gflops / 1000),
          t.debug.value_or(false)
              ? tr("This PyTorch is a debug build (torch.version.debug): install a release build (`gpuscout doctor` "
                   "gives the command).")
              : tr("Check that no other program uses the GPU (`nvidia-smi` lists them) and run `gpuscout bench "
                   "--torch` again; if it stays slow, a newer PyTorch (its CUDA libraries) may help: `gpuscout "
                   "doctor` gives the command for this machine.")};
}

Finding wrong_result(const TorchCase& c) {
  return {"torch-matmul-wrong", "error",
          trf("PyTorch's {} matrix product on {} gave a wrong result: relative error {:.1e}, above the {:.0e} this "
              "precision allows.",
              dtype_name(c.dtype), c.device, *c.rel_error, rel_error_bound(c.dtype)),
          c.device == "cpu"
              ? tr("Run `gpuscout bench --torch` again; if it repeats, reinstall PyTorch in a fresh venv (`gpuscout "
                   "doctor` gives the command).")
              : tr("Run `gpuscout bench --torch` again; if it repeats, update the driver and PyTorch, and if it still "
                   "repeats the GPU may be faulty (compare `gpuscout bench`).")};
}

// PyTorch computes fp32 matmuls in full fp32 unless told otherwise (since 1.12): on tensor-core GPUs TF32 is several
// times faster and accurate enough for most training.
std::optional<Finding> tf32_off(const TorchBench& t, const std::string& device) {
  if (t.allow_tf32_default.value_or(true)) return std::nullopt;
  for (const auto& tf : t.cases) {
    if (tf.device != device || tf.dtype != Dtype::tf32 || !tf.ok) continue;
    const TorchCase* fp = find_case(t, device, Dtype::fp32, tf.n);
    if (!fp || tf.gflops < kTf32Gain * fp->gflops) continue;
    return Finding{"torch-tf32-off", "info",
                   trf("On {}, PyTorch computes fp32 matrix products in full fp32 by default: {:.1f} TFLOP/s, against "
                       "{:.1f} with TF32 ({:.1f}x).",
                       device, fp->gflops / 1000, tf.gflops / 1000, tf.gflops / fp->gflops),
                   tr("Where TF32's precision is enough (most training is), put torch.set_float32_matmul_precision("
                      "\"high\") at the start of your script, or train in bf16 with torch.autocast.")};
  }
  return std::nullopt;
}

}  // namespace

void compare_with_native(TorchBench& torch, const BenchResult& result) {
  torch.findings.clear();
  std::vector<std::string> gpu_devices;
  for (auto& c : torch.cases) {
    Native native;
    if (c.device == "cpu" && result.cpu) {
      native = cpu_native(*result.cpu, c);
    } else if (const auto index = cuda_index(c.device)) {
      const auto gpu = std::find_if(result.gpus.begin(), result.gpus.end(), [&](const GpuResult& g) { return g.index == *index; });
      if (gpu != result.gpus.end()) native = gpu_native(*gpu, c);
      if (std::find(gpu_devices.begin(), gpu_devices.end(), c.device) == gpu_devices.end()) gpu_devices.push_back(c.device);
    }
    c.native_gflops = native.gflops;
    c.peak_gflops = native.peak;
    c.of_native = c.ok && native.gflops ? std::optional(c.gflops / *native.gflops) : std::nullopt;
    c.of_peak = c.ok && native.peak ? std::optional(c.gflops / *native.peak) : std::nullopt;
    if (c.error.empty() && c.skipped.empty() && c.rel_error && !c.ok) torch.findings.push_back(wrong_result(c));
    if (c.device == "cpu" && c.dtype == Dtype::fp32 && c.of_native && *c.of_native > kCpuFaster)
      torch.findings.push_back(cpu_faster(c, result));
    if (!c.of_native || *c.of_native >= kSlowShare) continue;
    torch.findings.push_back(c.device == "cpu" ? cpu_slow(torch, c, result.cpu->blas.name) : gpu_slow(torch, c));
  }
  for (const auto& device : gpu_devices)
    if (auto f = tf32_off(torch, device)) torch.findings.push_back(std::move(*f));
}

}  // namespace gpuscout::bench
