#include "bench/run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>

#include <fmt/format.h>

#include "bench/cpu_facts.hpp"
#include "bench/gpu_child.hpp"
#include "bench/openblas_cores.hpp"
#include "bench/report.hpp"
#include "catalog/gpu_match.hpp"
#include "core/error.hpp"
#include "core/i18n.hpp"
#include "core/json_position.hpp"
#include "core/path.hpp"
#include "core/text.hpp"
#include "core/units.hpp"
#include "os/process.hpp"
#include "os/system.hpp"

namespace gpuscout::bench {
namespace {

bool wants(const BenchOptions& o, Dtype d) {
  if (!o.dtypes) return true;
  return std::find(o.dtypes->begin(), o.dtypes->end(), d) != o.dtypes->end();
}

}  // namespace

int parse_size(std::string_view text_in) {
  const auto t = text::trim(text_in);
  auto v = text::parse_int(t);
  if (!v) throw UsageError(trf("--size: '{}' is not a whole number (a matrix size such as 4096)", t));
  if (*v <= 0) throw UsageError(trf("--size: {} is not a valid matrix size: it must be at least 1", *v));
  if (*v > kMaxSize)
    throw UsageError(trf("--size: {} is too large: at most {} (an fp64 GEMM of that size already needs {})",
                         *v, kMaxSize, units::format_bytes(cpu_gemm_bytes(Dtype::fp64, kMaxSize))));
  return static_cast<int>(*v);
}

std::chrono::milliseconds parse_timeout(std::string_view text_in) {
  const auto t = text::trim(text_in);
  const auto v = text::parse_double(t);
  if (!v || !std::isfinite(*v))
    throw UsageError(trf("--timeout: '{}' is not a number of seconds (such as 120)", t));
  if (*v < 0.1 || *v > 86400)
    throw UsageError(trf("--timeout: {} is out of range: give between 0.1 and 86400 seconds (a day)", t));
  return std::chrono::milliseconds(static_cast<long long>(*v * 1000));
}

void apply_device(std::string_view device, BenchOptions& options) {
  const std::string d = text::to_lower(text::trim(device));
  if (d == "cpu") options.run_cpu = true, options.run_gpu = false;
  else if (d == "gpu") options.run_cpu = false, options.run_gpu = true;
  else if (d == "all") options.run_cpu = true, options.run_gpu = true;
  else throw UsageError(trf("--device: unknown device '{}' (cpu, gpu or all)", device));
}

std::vector<int> cpu_gemm_sizes(const BenchOptions& o, Dtype d) {
  if (o.size) return {*o.size};
  if (o.full) {
    if (d == Dtype::bf16) return {1024, 2048, 4096};
    return {256, 512, 1024, 2048, 4096, 5000};
  }
  // Quick: the classic 5000 once in fp32 (for the CPU-vs-GPU answer), smaller elsewhere.
  if (d == Dtype::fp32) return {512, 2048, 5000};
  return {512, 2048};
}

std::vector<uint64_t> allreduce_sizes(const BenchOptions& o) {
  if (!o.nccl) return {};
  if (o.full) return {1ull << 20, 4ull << 20, 16ull << 20, 64ull << 20, 256ull << 20};
  return {1ull << 20, 16ull << 20, 256ull << 20};
}

std::vector<int> gpu_gemm_sizes(const BenchOptions& o, Dtype d) {
  if (o.size) return {*o.size};
  std::vector<int> sizes = o.full ? std::vector<int>{2048, 4096, 8192, 16384} : std::vector<int>{8192};
  if (d == Dtype::fp32 || d == Dtype::bf16) sizes.insert(sizes.begin(), 5000);  // the classic question
  return sizes;
}

namespace {

// The first measured rate among the records, in GB/s.
std::optional<double> rate_gbs(std::initializer_list<const std::optional<TransferRecord>*> records) {
  for (const auto* t : records)
    if (*t && (*t)->status == 0 && (*t)->verified && (*t)->gbs > 0) return (*t)->gbs;
  return std::nullopt;
}

// A and B go to the GPU, C comes back: the copies a learner's own code makes around the GEMM. Tensors made on the
// CPU are pageable unless pinned on purpose, so the pageable rates come first.
void add_transfers(const BenchResult& r, Speedup& s) {
  const auto gpu = std::find_if(r.gpus.begin(), r.gpus.end(), [](const GpuResult& g) { return g.index == 0; });
  if (gpu == r.gpus.end()) return;
  const auto up = rate_gbs({&gpu->h2d_pageable, &gpu->h2d_pinned});
  const auto down = rate_gbs({&gpu->d2h_pageable, &gpu->d2h_pinned});
  if (!up || !down) return;
  const double matrix_bytes = 4.0 * s.n * static_cast<double>(s.n);
  s.transfer_ms = (2 * matrix_bytes / (*up * 1e9) + matrix_bytes / (*down * 1e9)) * 1e3;
  if (s.gpu_fp32_ms) s.gpu_fp32_with_transfers_ms = *s.gpu_fp32_ms + *s.transfer_ms;
  if (s.cpu_fp32_ms && s.gpu_fp32_with_transfers_ms)
    s.fp32_with_transfers_speedup = *s.cpu_fp32_ms / *s.gpu_fp32_with_transfers_ms;
}

// No GPU measured: what the free notebook GPU would do, from its datasheet, said to be an estimate.
void add_estimate(Speedup& s, double flops) {
  const auto t4 = catalog::match_gpu({.name = "Tesla T4"});
  if (!t4 || !t4->spec->fp32_tflops || *t4->spec->fp32_tflops <= 0) return;
  s.estimate_gpu = t4->spec->name;
  s.estimate_gpu_fp32_ms = flops / (*t4->spec->fp32_tflops * 1e12) * 1e3;
  if (s.cpu_fp32_ms) s.estimate_fp32_speedup = *s.cpu_fp32_ms / *s.estimate_gpu_fp32_ms;
}

}  // namespace

Speedup compute_speedup(const BenchResult& r) {
  Speedup s;
  const double flops = 2.0 * s.n * static_cast<double>(s.n) * s.n;
  // Prefer n = 5000 measured on both sides; else the rate at the largest size each side measured.
  // With a rerun on the CPU's best OpenBLAS kernels, the faster of the two runs at the size picked: the speed-up is
  // over what this CPU does, not over kernels an older OpenBLAS fell back to.
  auto pick_cpu = [&]() -> std::optional<std::pair<int, double>> {
    std::optional<std::pair<int, double>> best;
    if (!r.cpu) return best;
    auto better = [&](const GemmRun& g) {
      return !best || (g.n == s.n && best->first != s.n) || (g.n == best->first && g.gflops * 1e9 > best->second) ||
             (best->first != s.n && g.n > best->first);
    };
    for_each_cpu_gemm(*r.cpu, [&](const CpuGemmRecord& g, const std::string& coretype) {
      if (g.run.dtype != Dtype::fp32 || !g.run.ok || g.run.gflops <= 0 || !better(g.run)) return;
      best = {{g.run.n, g.run.gflops * 1e9}};
      s.cpu_coretype = coretype;
    });
    return best;
  };
  auto pick_gpu = [&](Dtype d) -> std::optional<std::pair<int, double>> {
    std::optional<std::pair<int, double>> best;
    for (const auto& gpu : r.gpus) {
      if (gpu.index != 0) continue;
      for (const auto& g : gpu.gemm) {
        if (g.dtype != d || !g.ok || g.tflops <= 0) continue;
        if (!best || g.n == s.n || (best->first != s.n && g.n > best->first)) best = {{g.n, g.tflops * 1e12}};
      }
    }
    return best;
  };
  const auto cpu = pick_cpu();
  const auto gpu32 = pick_gpu(Dtype::fp32);
  const auto gpu16 = pick_gpu(Dtype::bf16);
  if (cpu) s.cpu_fp32_ms = flops / cpu->second * 1e3;
  if (gpu32) s.gpu_fp32_ms = flops / gpu32->second * 1e3;
  if (gpu16) s.gpu_bf16_ms = flops / gpu16->second * 1e3;
  if (s.cpu_fp32_ms && s.gpu_fp32_ms) s.fp32_speedup = *s.cpu_fp32_ms / *s.gpu_fp32_ms;
  if (s.cpu_fp32_ms && s.gpu_bf16_ms) s.bf16_speedup = *s.cpu_fp32_ms / *s.gpu_bf16_ms;
  if (s.bf16_speedup) s.eight_hours_minutes = 8 * 60 / *s.bf16_speedup;
  else if (s.fp32_speedup) s.eight_hours_minutes = 8 * 60 / *s.fp32_speedup;
  add_transfers(r, s);
  if (!gpu32 && !gpu16) add_estimate(s, flops);
  const bool all_at_n = (!cpu || cpu->first == s.n) && (!gpu32 || gpu32->first == s.n) && (!gpu16 || gpu16->first == s.n);
  s.basis = all_at_n ? trf("measured at n={}", s.n)
                     : trf("scaled to n={} from the rates at the sizes measured (CPU n={}, GPU n={})", s.n,
                           cpu ? cpu->first : 0, gpu32 ? gpu32->first : (gpu16 ? gpu16->first : 0));
  if (!s.cpu_coretype.empty()) s.basis += "; " + trf("CPU with OpenBLAS's {} kernels", s.cpu_coretype);
  return s;
}

namespace {

// The largest GEMM must fit in memory with room to spare: a clear error beats the OOM killer.
void check_gemm_memory(const BenchOptions& o, const BlasInfo& blas, std::optional<uint64_t> available) {
  if (!available) return;
  for (Dtype d : {Dtype::fp64, Dtype::fp32, Dtype::bf16}) {
    if (!wants(o, d) || !cpu_gemm_supports(d, blas)) continue;
    for (int n : cpu_gemm_sizes(o, d)) {
      if (cpu_gemm_bytes(d, n) > *available / 2)
        throw UsageError(trf("--size {}: a {} GEMM needs {}, more than half of the {} of memory available", n,
                             dtype_name(d), units::format_bytes(cpu_gemm_bytes(d, n)),
                             units::format_bytes(*available)));
    }
  }
}

Method gemm_method(bool full) { return full ? Method{2, 5, 50, 2.0} : Method{1, 3, 20, 0.4}; }

void run_cpu_gemms(const BenchOptions& o, CpuResult& cpu, const std::function<void(std::string_view)>& progress) {
  for (Dtype d : {Dtype::fp32, Dtype::fp64, Dtype::bf16}) {
    if (!wants(o, d)) continue;
    if (!cpu_gemm_supports(d, cpu.blas)) {
      if (d == Dtype::bf16)
        cpu.notes.push_back(cpu.facts.avx512_bf16
                                ? trf("bf16 GEMM skipped on the CPU: this {} has no cblas_sbgemm (the CPU has "
                                      "AVX512-BF16)", cpu.blas.name)
                                : trf("bf16 GEMM skipped on the CPU: this {} has no cblas_sbgemm", cpu.blas.name));
      continue;
    }
    for (int n : cpu_gemm_sizes(o, d)) {
      progress(fmt::format("CPU GEMM {} n={}", dtype_name(d), n));
      CpuGemmRecord rec{run_cpu_gemm(d, n, gemm_method(o.full)), std::nullopt};
      const auto& peak = d == Dtype::fp64 ? cpu.peak_fp64 : cpu.peak_fp32;
      if (peak && peak->all_cores_gflops > 0 && d != Dtype::bf16) rec.efficiency = rec.run.gflops / peak->all_cores_gflops;
      if (!rec.run.ok)
        cpu.notes.push_back(trf("CPU GEMM {} n={} gave a WRONG result: relative error {:.2e} above {:.0e}",
                                dtype_name(d), n, rec.run.rel_error, rel_error_bound(d)));
      cpu.gemm.push_back(std::move(rec));
    }
  }
}

// The rerun's child: a fresh gpuscout whose OpenBLAS read OPENBLAS_CORETYPE as it loaded (OpenBLAS picks its kernels
// once, at load: a fork would keep the parent's). Argument "THREADS FULL N...", answer a bench document holding the
// BLAS and the fp32 GEMMs, read back by the one bench reader.
constexpr const char* kRerunCall = "openblas-rerun";

std::string rerun_child(const std::string& argument) {
  const auto words = text::split_ws(argument);
  if (words.size() < 3) throw std::runtime_error("openblas-rerun: expected THREADS FULL N...");
  const auto threads = text::parse_int(words[0]);
  if (!threads || *threads < 1 || *threads > 65536) throw std::runtime_error("openblas-rerun: bad thread count");
  BenchResult r;
  CpuResult cpu;
  cpu.threads = static_cast<int>(*threads);
  cpu.blas = blas_info();
  set_blas_threads(cpu.threads);
  for (size_t i = 2; i < words.size(); ++i) {
    const auto n = text::parse_int(words[i]);
    if (!n || *n < 1 || *n > kMaxSize) throw std::runtime_error("openblas-rerun: bad size");
    cpu.gemm.push_back({run_cpu_gemm(Dtype::fp32, static_cast<int>(*n), gemm_method(words[1] == "1")), std::nullopt});
  }
  r.cpu = std::move(cpu);
  return to_json(r).dump();
}

[[maybe_unused]] const bool rerun_registered = os::register_isolated(kRerunCall, rerun_child);

// Only gpuscout itself answers the rerun's hidden arguments; a program that links the library gets no rerun.
bool self_is_gpuscout(const std::string& self) {
  // from_path, not path::string(): on Windows a folder outside the ANSI code page would throw there.
  return !self.empty() && text::to_lower(core::from_path(core::to_path(self).stem())) == "gpuscout";
}

// The fp32 GEMMs again, in a fresh gpuscout with OPENBLAS_CORETYPE=best, bounded by the first run's time.
KernelRerun rerun_gemms(const BenchOptions& o, const CpuResult& cpu, const std::string& coretype,
                        const std::function<void(std::string_view)>& progress) {
  KernelRerun rerun;
  rerun.coretype = coretype;
  std::string sizes;
  double seconds = 0;
  for (const auto& g : cpu.gemm) {
    if (g.run.dtype != Dtype::fp32) continue;
    sizes += fmt::format(" {}", g.run.n);
    seconds += g.run.m.first_call_s;
    for (double t : g.run.m.samples_s) seconds += t;
  }
  progress(trf("CPU GEMM fp32 with OpenBLAS's {} kernels", coretype));
  // The better kernels take less time than the first run did; three times as long plus start-up means it hangs.
  const auto timeout = std::chrono::milliseconds(20000 + static_cast<long long>(3000 * seconds));
  auto child = os::spawn({core::self_executable(), os::kIsolatedChildFlag, kRerunCall,
                          fmt::format("{} {}{}", cpu.threads, o.full ? 1 : 0, sizes)},
                         timeout, {{"OPENBLAS_CORETYPE", coretype}});
  if (!child) {
    rerun.error = child.error().message;
    return rerun;
  }
  const os::ProcessResult done = child->wait();
  throw_if_stopped();
  if (done.timed_out) {
    rerun.error = trf("it did not finish in {} s", timeout.count() / 1000);
    return rerun;
  }
  if (done.exit_code != 0) {
    rerun.error = done.signal != 0 ? trf("it was ended by signal {}", done.signal)
                                   : trf("it failed (exit code {})", done.exit_code);
    return rerun;
  }
  auto doc = core::parse_json(done.out);
  auto answer = doc ? from_json(*doc) : Result<BenchResult>(fail(doc.error().message));
  if (!answer || !answer->cpu) {
    rerun.error = trf("its answer was not readable ({})", answer ? tr("no CPU section") : answer.error().message);
    return rerun;
  }
  rerun.corename = answer->cpu->blas.corename;
  for (auto& g : answer->cpu->gemm) {
    if (cpu.peak_fp32 && cpu.peak_fp32->all_cores_gflops > 0) g.efficiency = g.run.gflops / cpu.peak_fp32->all_cores_gflops;
    rerun.gemm.push_back(std::move(g));
  }
  return rerun;
}

double best_fp32_gflops(const std::vector<CpuGemmRecord>& runs) {
  double best = 0;
  for (const auto& g : runs)
    if (g.run.dtype == Dtype::fp32 && g.run.ok) best = std::max(best, g.run.gflops);
  return best;
}

// What the rerun changed, said after the kernels OpenBLAS chose.
std::string rerun_outcome(const KernelRerun& rerun, double chosen_gflops) {
  const double rerun_gflops = best_fp32_gflops(rerun.gemm);
  if (!rerun.error.empty() || rerun_gflops <= 0)
    return trf("gpuscout ran its GEMMs again with OPENBLAS_CORETYPE={} and got no figure ({})", rerun.coretype,
               rerun.error.empty() ? tr("no correct result") : rerun.error);
  if (text::to_lower(rerun.corename) != text::to_lower(rerun.coretype))
    return trf("with OPENBLAS_CORETYPE={} this OpenBLAS used its {} kernels ({:.0f} GFLOP/s)", rerun.coretype,
               rerun.corename.empty() ? "?" : rerun.corename, rerun_gflops);
  if (rerun_gflops <= chosen_gflops)
    return trf("with its {0} kernels (OPENBLAS_CORETYPE={0}) it did {1:.0f} GFLOP/s, no faster: the speed-up uses "
               "its own choice", rerun.coretype, rerun_gflops);
  return trf("with its {0} kernels (OPENBLAS_CORETYPE={0}) it did {1:.0f} GFLOP/s, {2:.1f} x as fast: the comparison "
             "with the GPU below uses that figure, what this CPU does with the kernels made for it",
             rerun.coretype, rerun_gflops, rerun_gflops / chosen_gflops);
}

// OpenBLAS picks kernels by CPU model: a release that does not know a newer CPU falls back to older ones (its
// AVX2 "Haswell" or "Zen" sets on an AVX-512 machine, even its SSE3 "Prescott" set), and its GEMM is then a fraction
// of what the CPU does, which would overstate the GPU's speed-up. A DYNAMIC_ARCH build holds the better kernels:
// the GEMMs run again with them, and the note gives both figures.
void check_blas_kernels(const BenchOptions& o, CpuResult& cpu, const CpuInfo& info,
                        const std::function<void(std::string_view)>& progress) {
  if (!cpu.peak_fp32 || cpu.blas.corename.empty()) return;
  const auto chosen = openblas_core(cpu.blas.corename);
  const auto best = best_openblas_core(info.features, info.vendor.value_or(""));
  if (!chosen || !best || chosen->isa >= cpu.peak_fp32->isa || best->isa <= chosen->isa) return;
  const double chosen_gflops = best_fp32_gflops(cpu.gemm);
  if (chosen_gflops <= 0) return;
  // The real environment, not a recorded machine's (os::getenv): it is what the OpenBLAS in this process read.
  const char* forced = std::getenv("OPENBLAS_CORETYPE");
  const bool switchable = cpu.blas.config.find("DYNAMIC_ARCH") != std::string::npos;
  // Also when OPENBLAS_CORETYPE chose the lower set here: the figure beside it is still what the CPU does.
  if (switchable && self_is_gpuscout(core::self_executable()))
    cpu.kernel_rerun = rerun_gemms(o, cpu, best->name, progress);
  const std::string chosen_isa = chosen->avx ? "AVX" : std::string(isa_name(chosen->isa));
  std::string outcome;
  if (cpu.kernel_rerun) outcome = rerun_outcome(*cpu.kernel_rerun, chosen_gflops);
  else if (switchable)
    outcome = trf("run `OPENBLAS_CORETYPE={} gpuscout bench` to use its {} kernels", best->name, isa_name(best->isa));
  else
    outcome = tr("a newer OpenBLAS, or the oneDNN/MKL inside PyTorch (`gpuscout bench --torch`), uses the wider units");
  cpu.notes.push_back(trf("{} runs its {} ({}) kernels on this {} CPU: its best fp32 GEMM ({:.0f} GFLOP/s) is {:.0f}% "
                          "of the CPU's {} peak ({:.0f} GFLOP/s); {}",
                          cpu.blas.name, chosen->name, chosen_isa, isa_name(cpu.peak_fp32->isa), chosen_gflops,
                          100 * chosen_gflops / cpu.peak_fp32->all_cores_gflops, isa_name(cpu.peak_fp32->isa),
                          cpu.peak_fp32->all_cores_gflops, outcome));
  if (forced && *forced)
    cpu.notes.push_back(trf("OPENBLAS_CORETYPE={} is set in this environment: it chose those kernels",
                            text::visible(forced)));
}

CpuResult run_cpu(const BenchOptions& o, const Inventory& inv, const std::function<void(std::string_view)>& progress) {
  CpuResult cpu;
  cpu.facts = cpu_facts(inv.cpu);
  cpu.threads = cpu.facts.physical_cores;
  cpu.blas = blas_info();
  if (!cpu.blas.available) cpu.notes.push_back(trf("CPU GEMM skipped: {}", cpu.blas.missing));
  else if (!set_blas_threads(cpu.threads))
    cpu.notes.push_back(tr("this BLAS offers no thread control: it uses its own default thread count"));
  const auto available = memory_available_bytes(inv.memory);
  check_gemm_memory(o, cpu.blas, available);
  const Method peak_method = o.full ? Method{1, 5, 20, 1.0} : Method{1, 3, 10, 0.15};
  const double peak_run_s = o.full ? 0.2 : 0.04;
  progress(tr("CPU FMA peak fp32"));
  cpu.peak_fp32 = measure_peak(cpu.facts, Precision::fp32, cpu.threads, peak_method, peak_run_s);
  progress(tr("CPU FMA peak fp64"));
  cpu.peak_fp64 = measure_peak(cpu.facts, Precision::fp64, cpu.threads, peak_method, peak_run_s);
  run_cpu_gemms(o, cpu, progress);
  check_blas_kernels(o, cpu, inv.cpu, progress);
  for (Dtype d : {Dtype::tf32, Dtype::fp16, Dtype::fp8})
    if (o.dtypes && wants(o, d)) cpu.notes.push_back(trf("{} is a GPU precision: not run on the CPU", dtype_name(d)));
  progress(tr("CPU memory bandwidth"));
  const uint64_t array_bytes = memory_array_bytes(cpu.facts.llc_bytes.value_or(32ull << 20),
                                                  o.full ? 256ull << 20 : 64ull << 20, available.value_or(0));
  cpu.memory = run_memory(array_bytes, cpu.threads, o.full ? Method{1, 10, 50, 1.0} : Method{1, 5, 20, 0.25});
  return cpu;
}

void run_gpu(const BenchOptions& o, const Inventory& inv, BenchResult& r,
             const std::function<void(std::string_view)>& progress) {
  if (o.dtypes && wants(o, Dtype::fp64)) r.notes.push_back(tr("fp64 GEMM is not benchmarked on GPUs"));
  r.gpu_status.requested = true;
  if (auto why = gpu_skip_reason(inv, std::getenv("GPUSCOUT_CUDA_PLUGIN") != nullptr)) {
    r.gpu_status.message = *why;
  } else {
    GpuPlan plan;
    plan.method = o.full ? Method{3, 10, 64, 1.5} : Method{2, 5, 50, 0.3};
    plan.plugin_install_dir = o.plugin_install_dir;
    plan.transfer_bytes = o.full ? 1024ull << 20 : 256ull << 20;
    plan.inventory_gpus = inv.gpus;
    plan.allreduce_bytes = allreduce_sizes(o);
    if (inv.nvidia.timed_out)
      plan.nvml_note = tr("NVML did not answer when gpuscout checked the driver: no clocks, power or PCIe link during the run");
    for (Dtype d : {Dtype::fp32, Dtype::tf32, Dtype::fp16, Dtype::bf16, Dtype::fp8}) {
      if (!wants(o, d)) continue;
      for (int n : gpu_gemm_sizes(o, d)) plan.gemms.emplace_back(d, n);
    }
    const auto timeout = o.gpu_timeout.value_or(default_gpu_timeout(o.full, inv));
    progress(trf("GPU benchmarks (at most {} s)", timeout.count() / 1000));
    GpuSection section = run_gpus_bounded(plan, timeout);
    r.gpu_status = std::move(section.status);
    r.gpus = std::move(section.gpus);
    r.nccl = std::move(section.nccl);
  }
  if (!r.gpu_status.available && !r.gpu_status.message.empty()) r.notes.push_back("GPU: " + r.gpu_status.message);
}

}  // namespace

std::optional<uint64_t> memory_available_bytes(const MemoryInfo& memory) {
  // A container's limit is what the OOM killer enforces, whatever the host has free.
  if (memory.available_bytes && memory.cgroup_limit_bytes)
    return std::min(*memory.available_bytes, *memory.cgroup_limit_bytes);
  return memory.available_bytes ? memory.available_bytes : memory.cgroup_limit_bytes;
}

std::optional<std::string> gpu_skip_reason(const Inventory& inv, bool plugin_given) {
  if (inv.cuda.timed_out) {
    const std::string why = inv.cuda.error ? inv.cuda.error->message : tr("no answer");
    return trf("the NVIDIA driver did not answer when gpuscout checked it ({}), so the GPU benchmarks were skipped; "
               "`gpuscout doctor` says more", why);
  }
  // Without a driver there is no point loading cuBLAS (hundreds of MB). A plugin named in GPUSCOUT_CUDA_PLUGIN
  // is tried anyway: it is how the tests (and a developer) run a plugin that brings its own answers.
  if (!plugin_given && !inv.cuda.library_found)
    return tr("no NVIDIA driver: libcuda.so.1 cannot be loaded, GPU benchmarks skipped");
  return std::nullopt;
}

std::chrono::milliseconds default_gpu_timeout(bool full, const Inventory& inv) {
  const auto listed = std::count_if(inv.gpus.begin(), inv.gpus.end(), [](const Gpu& g) { return g.vendor == "nvidia"; });
  const int nvidia = std::max(inv.cuda.device_count, static_cast<int>(listed));
  const auto per_gpu = full ? std::chrono::minutes(10) : std::chrono::minutes(3);
  return std::chrono::duration_cast<std::chrono::milliseconds>(per_gpu * std::max(1, nvidia));
}

BenchResult run_bench(const BenchOptions& o, const Inventory& inv) {
  BenchResult r;
  r.gpuscout_version = GPUSCOUT_VERSION;
  r.collected_at = os::utc_now_iso8601();
  r.mode = o.full ? "full" : "quick";
  r.device = o.run_cpu && o.run_gpu ? "all" : (o.run_cpu ? "cpu" : "gpu");
  auto progress = [&o](std::string_view line) {
    if (o.progress) o.progress(line);
  };
  if (o.run_cpu) r.cpu = run_cpu(o, inv, progress);
  if (o.run_gpu) run_gpu(o, inv, r, progress);
  // A stop during the last step shortens its measurement instead of throwing: such a run is not a result.
  throw_if_stopped();
  r.speedup = compute_speedup(r);
  return r;
}

}  // namespace gpuscout::bench
