// The GPU measurements: load the plugin, then per CUDA device the GEMMs and the copies while NVML samples it.
// run_gpus() runs inside the bench child process (gpu_child.cpp), so nothing here needs a deadline of its own.

#include <algorithm>

#include <fmt/format.h>

#include "bench/gpu_bench.hpp"
#include "bench/gpu_plugin.hpp"
#include "../../plugins/cuda/plugin_rules.h"
#include "bench/nvml_sampler.hpp"
#include "core/i18n.hpp"
#include "core/text.hpp"
#include "vendor/strings.hpp"

namespace gpuscout::bench {
namespace {

int should_stop_callback() { return stop_requested() ? 1 : 0; }

Measurement from_samples(double first_call_s, int n_samples, const double* samples, int warmups) {
  Measurement m;
  m.first_call_s = first_call_s;
  m.warmups = warmups;
  const int n = std::clamp(n_samples, 0, GPUSCOUT_PLUGIN_MAX_SAMPLES);
  m.samples_s.assign(samples, samples + n);
  m.stats = summarize(m.samples_s);
  return m;
}

// The plugin's texts carry the driver's (a GPU name is firmware's text): bounded and cleaned to UTF-8.
std::string text_of(const char* buffer, size_t size) { return vendor::text_from(buffer, size); }

// The plugin's note about a call, with its error text after it when the call failed.
template <size_t N, size_t M>
std::string note_of(const char (&note)[N], const char (&error)[M], bool failed) {
  std::string out = text_of(note, N);
  const std::string why = failed ? text_of(error, M) : "";
  if (!why.empty()) out = out.empty() ? why : out + "; " + why;
  return out;
}

std::string cuda_version(int v) { return v > 0 ? fmt::format("{}.{}", v / 1000, (v % 1000) / 10) : ""; }

// The plugin from $GPUSCOUT_CUDA_PLUGIN or the first install location that has one; else the reason in `status`.
std::optional<CudaPlugin> load_plugin(const GpuPlan& plan, GpuStatus& status) {
  const char* env = std::getenv("GPUSCOUT_CUDA_PLUGIN");
  const std::optional<std::string> env_path = env && *env ? std::optional<std::string>(env) : std::nullopt;
  std::vector<std::string> tried;
  for (const auto& path : plugin_candidates(env_path, executable_dir(), plan.plugin_install_dir)) {
    tried.push_back(path);
    if (!env_path && access(path.c_str(), F_OK) != 0) continue;
    auto loaded = CudaPlugin::load(path);
    if (!loaded) {
      status.plugin_path = path;
      status.message = loaded.error().message;
      return std::nullopt;
    }
    return std::move(*loaded);
  }
  status.message = trf("the CUDA benchmark plugin is not installed ({} not found in: {}); build gpuscout with the "
                       "CUDA toolkit to get it", kCudaPluginFile, text::join(tried, ", "));
  return std::nullopt;
}

void take_device_info(GpuResult& gpu, const gpuscout_device_info& info) {
  gpu.name = text_of(info.name, sizeof info.name);
  gpu.pci_bus_id = text::to_lower(text_of(info.pci_bus_id, sizeof info.pci_bus_id));
  gpu.compute_capability = fmt::format("{}.{}", info.cc_major, info.cc_minor);
  gpu.sm_count = info.sm_count;
  gpu.clock_sm_mhz_max = info.clock_sm_mhz_max;
  gpu.memory_total_bytes = info.memory_total_bytes;
  gpu.memory_free_bytes = info.memory_free_bytes;
  gpu.l2_bytes = info.l2_bytes;
  gpu.driver_cuda_version = cuda_version(info.driver_version);
  gpu.runtime_version = cuda_version(info.runtime_version);
  gpu.cublas_version = info.cublas_version > 0 ? fmt::format("{}.{}.{}", info.cublas_version / 10000,
                                                             (info.cublas_version / 100) % 100,
                                                             info.cublas_version % 100)
                                               : "";
}

// Names the steps of one device's run, so the NVML samples taken during each can be told apart.
struct Phases {
  NvmlSampler* sampler = nullptr;
  std::vector<std::string> names{"idle"};
  int mark(std::string name) {
    names.push_back(std::move(name));
    const int index = static_cast<int>(names.size() - 1);
    if (sampler) sampler->set_phase(index);
    return index;
  }
};

int plugin_dtype(Dtype d) {
  switch (d) {
    case Dtype::fp32: return GPUSCOUT_DTYPE_FP32;
    case Dtype::tf32: return GPUSCOUT_DTYPE_TF32;
    case Dtype::fp16: return GPUSCOUT_DTYPE_FP16;
    case Dtype::bf16: return GPUSCOUT_DTYPE_BF16;
    case Dtype::fp8: return GPUSCOUT_DTYPE_FP8;
    case Dtype::fp64: break;
  }
  return -1;  // no GPU GEMM in this precision (fp64): run_bench notes it
}

GpuGemmRecord run_gemm(const gpuscout_cuda_plugin_v1& api, int dev, Dtype dtype, int n, const gpuscout_method& method,
                       GpuResult& gpu) {
  GpuGemmRecord rec;
  rec.dtype = dtype;
  gpuscout_gemm_result out{};
  rec.status = api.gemm(dev, plugin_dtype(dtype), n, &method, &out);
  if (rec.status == GPUSCOUT_STOPPED) throw Interrupted{};
  rec.n = out.n > 0 ? out.n : n;
  rec.note = note_of(out.note, out.error, rec.status != GPUSCOUT_OK);
  if (rec.status != GPUSCOUT_OK) return rec;
  rec.m = from_samples(out.first_call_s, out.n_samples, out.samples_s, method.warmup);
  const double flops = 2.0 * rec.n * static_cast<double>(rec.n) * rec.n;
  rec.tflops = rec.m.stats.median_s > 0 ? flops / rec.m.stats.median_s / 1e12 : 0;
  rec.rel_error = out.rel_error;
  rec.checked = out.checked;
  rec.ok = out.checked > 0 && out.rel_error <= rel_error_bound(dtype);
  if (!rec.ok)
    gpu.notes.push_back(trf("GEMM {} n={} gave a WRONG result: relative error {:.2e} above {:.0e}",
                            dtype_name(dtype), rec.n, out.rel_error, rel_error_bound(dtype)));
  return rec;
}

std::vector<int> run_gemms(const gpuscout_cuda_plugin_v1& api, int dev, const GpuPlan& plan,
                           const gpuscout_method& method, GpuResult& gpu, Phases& phases) {
  std::vector<int> gemm_phase;
  for (const auto& [dtype, n] : plan.gemms) {
    throw_if_stopped();
    if (plugin_dtype(dtype) < 0) continue;
    if (plan.progress) plan.progress(fmt::format("GPU {} GEMM {} n={}", dev, dtype_name(dtype), n));
    gemm_phase.push_back(phases.mark(fmt::format("gemm {} {}", dtype_name(dtype), n)));
    gpu.gemm.push_back(run_gemm(api, dev, dtype, n, method, gpu));
  }
  return gemm_phase;
}

TransferRecord run_copy(const gpuscout_cuda_plugin_v1& api, int dev, int kind, const char* name, uint64_t bytes,
                        const gpuscout_method& method, GpuResult& gpu) {
  gpuscout_copy_result out{};
  TransferRecord rec;
  rec.kind = name;
  rec.status = api.copy(dev, kind, bytes, &method, &out);
  if (rec.status == GPUSCOUT_STOPPED) throw Interrupted{};
  rec.size_bytes = out.size_bytes;
  rec.note = note_of(out.note, out.error, rec.status != GPUSCOUT_OK);
  if (rec.status != GPUSCOUT_OK) return rec;
  rec.m = from_samples(out.first_call_s, out.n_samples, out.samples_s, method.warmup);
  const double moved = static_cast<double>(out.size_bytes) * (kind == GPUSCOUT_COPY_D2D ? 2.0 : 1.0);
  rec.gbs = rec.m.stats.median_s > 0 ? moved / rec.m.stats.median_s / 1e9 : 0;
  rec.verified = out.verified != 0;
  if (!rec.verified) gpu.notes.push_back(trf("copy {}: destination did not match the source", name));
  return rec;
}

std::vector<int> run_copies(const gpuscout_cuda_plugin_v1& api, int dev, const GpuPlan& plan,
                            const gpuscout_method& method, GpuResult& gpu, Phases& phases) {
  struct Copy {
    int kind;
    const char* name;
    std::optional<TransferRecord> GpuResult::*field;
  };
  const Copy copies[] = {{GPUSCOUT_COPY_D2D, "d2d", &GpuResult::copy},
                         {GPUSCOUT_COPY_H2D_PINNED, "h2d_pinned", &GpuResult::h2d_pinned},
                         {GPUSCOUT_COPY_H2D_PAGEABLE, "h2d_pageable", &GpuResult::h2d_pageable},
                         {GPUSCOUT_COPY_D2H_PINNED, "d2h_pinned", &GpuResult::d2h_pinned},
                         {GPUSCOUT_COPY_D2H_PAGEABLE, "d2h_pageable", &GpuResult::d2h_pageable}};
  std::vector<int> transfer_phase;
  for (const auto& c : copies) {
    throw_if_stopped();
    if (plan.progress) plan.progress(fmt::format("GPU {} copy {}", dev, c.name));
    const int ph = phases.mark(c.name);
    if (c.kind != GPUSCOUT_COPY_D2D) transfer_phase.push_back(ph);
    // Device copies: several times L2 so the cache cannot serve them.
    const uint64_t bytes =
        c.kind == GPUSCOUT_COPY_D2D ? std::max<uint64_t>(plan.transfer_bytes, 8 * gpu.l2_bytes) : plan.transfer_bytes;
    gpu.*(c.field) = run_copy(api, dev, c.kind, c.name, bytes, method, gpu);
  }
  return transfer_phase;
}

void take_telemetry(GpuResult& gpu, const NvmlSampler& sampler, const std::vector<int>& gemm_phase,
                    const std::vector<int>& transfer_phase) {
  const auto samples = sampler.samples();
  auto& t = gpu.telemetry;
  t.samples = static_cast<int>(samples.size());
  const auto& lm = sampler.link_max();
  t.pcie_gen_max = lm.gen_max;
  t.pcie_gpu_gen_max = lm.gpu_gen_max;
  t.pcie_width_max = lm.width_max;
  if (lm.power_limit_mw) t.power_limit_w = *lm.power_limit_mw / 1000.0;
  auto in = [](const std::vector<int>& v, int p) { return std::find(v.begin(), v.end(), p) != v.end(); };
  for (const auto& s : samples) {
    const bool gemm = in(gemm_phase, s.phase), transfer = in(transfer_phase, s.phase);
    if (s.power_mw) {
      t.power_w_max = std::max(t.power_w_max.value_or(0), *s.power_mw / 1000.0);
      if (t.power_method.empty() || !s.power_instant) t.power_method = s.power_instant ? "instant" : "one-second average";
    }
    if (s.temperature_c) t.temperature_c_max = std::max(t.temperature_c_max.value_or(-300), *s.temperature_c);
    if (gemm && s.sm_clock_mhz) {
      t.sm_clock_mhz_min = std::min(t.sm_clock_mhz_min.value_or(1 << 30), *s.sm_clock_mhz);
      t.sm_clock_mhz_max = std::max(t.sm_clock_mhz_max.value_or(0), *s.sm_clock_mhz);
    }
    if (gemm && s.throttle_reasons) t.throttle_reasons |= *s.throttle_reasons;
    if (transfer && s.pcie_gen) t.pcie_gen_under_load = std::max(t.pcie_gen_under_load.value_or(0), *s.pcie_gen);
    if (transfer && s.pcie_width) t.pcie_width_under_load = std::max(t.pcie_width_under_load.value_or(0), *s.pcie_width);
  }
  for (size_t i = 0; i < gpu.gemm.size() && i < gemm_phase.size(); ++i) {
    std::vector<double> clocks;
    for (const auto& s : samples)
      if (s.phase == gemm_phase[i] && s.sm_clock_mhz) clocks.push_back(*s.sm_clock_mhz);
    if (!clocks.empty()) gpu.gemm[i].sm_clock_mhz_median = static_cast<int>(summarize(clocks).median_s);
  }
}

}  // namespace

const Gpu* inventory_gpu(const std::vector<Gpu>& gpus, std::string_view pci_bus_id) {
  for (const auto& g : gpus)
    if (g.pci_bus_id && text::to_lower(*g.pci_bus_id) == text::to_lower(pci_bus_id)) return &g;
  return nullptr;
}

void take_identity(GpuResult& gpu, const Gpu& known) {
  // A MIG slice shares its card's PCI bus id: the Inventory's entry is then the whole card, whose name, SMs and
  // memory are not the slice's.
  if (catalog::names_mig_slice(gpu.name) && !catalog::names_mig_slice(known.name)) return;
  if (!known.name.empty()) gpu.name = known.name;
  if (known.compute_capability) gpu.compute_capability = *known.compute_capability;
  if (known.sm_count && *known.sm_count > 0) gpu.sm_count = *known.sm_count;
  if (known.max_clock_sm_mhz && *known.max_clock_sm_mhz > 0) gpu.clock_sm_mhz_max = *known.max_clock_sm_mhz;
  if (known.memory_total_bytes && *known.memory_total_bytes > 0) gpu.memory_total_bytes = *known.memory_total_bytes;
  if (known.l2_bytes && *known.l2_bytes > 0) gpu.l2_bytes = *known.l2_bytes;
}

namespace {

GpuResult bench_device(const gpuscout_cuda_plugin_v1& api, int dev, const GpuPlan& plan,
                       const gpuscout_method& method) {
  GpuResult gpu;
  gpu.index = dev;
  gpuscout_device_info info{};
  char err[GPUSCOUT_PLUGIN_TEXT] = {};
  if (api.device_info(dev, &info, err, sizeof err) != GPUSCOUT_OK) {
    gpu.notes.push_back(trf("device information failed: {}", text_of(err, sizeof err)));
    return gpu;
  }
  take_device_info(gpu, info);
  // Who the device is comes from the Inventory (the probes' join of PCI, NVML and CUDA), by PCI bus id.
  const Gpu* known = inventory_gpu(plan.inventory_gpus, gpu.pci_bus_id);
  if (known) take_identity(gpu, *known);
  std::unique_ptr<NvmlSampler> sampler;
  if (plan.nvml_note.empty()) {
    std::string nvml_error;
    sampler = NvmlSampler::open(gpu.pci_bus_id, nvml_error);
    if (!sampler) gpu.notes.push_back(nvml_error);
  } else {
    gpu.notes.push_back(plan.nvml_note);
  }
  Phases phases{sampler.get()};
  if (sampler) sampler->start();
  const auto gemm_phase = run_gemms(api, dev, plan, method, gpu, phases);
  // Host buffers allocated and copied from the CPUs near this GPU (its NUMA node), as nvbandwidth does.
  gpu.host_cpus_bound = sampler && sampler->bind_calling_thread();
  const auto transfer_phase = run_copies(api, dev, plan, method, gpu, phases);
  if (gpu.host_cpus_bound) sampler->unbind_calling_thread();
  phases.mark("done");
  if (sampler) {
    sampler->stop();
    take_telemetry(gpu, *sampler, gemm_phase, transfer_phase);
  }
  const std::optional<uint64_t> memory = gpu.memory_total_bytes ? std::optional(gpu.memory_total_bytes) : std::nullopt;
  interpret_gpu(gpu, catalog::match_gpu({.name = gpu.name,
                                         .pci_vendor_id = known ? known->pci_vendor_id : std::nullopt,
                                         .pci_device_id = known ? known->pci_device_id : std::nullopt,
                                         .memory_bytes = memory}));
  return gpu;
}

std::string nccl_version_text(int v) {
  // NCCL_VERSION(X, Y, Z): X*1000 + Y*100 + Z before 2.9, X*10000 + Y*100 + Z since.
  if (v <= 0) return {};
  return v >= 10000 ? fmt::format("{}.{}.{}", v / 10000, (v / 100) % 100, v % 100)
                    : fmt::format("{}.{}.{}", v / 1000, (v / 100) % 10, v % 100);
}

// bench --nccl: each size once over every GPU; stops at the first size that did not run (the others would not either).
NcclResult run_allreduce(const CudaPlugin& plugin, const GpuPlan& plan, const gpuscout_method& method) {
  NcclResult nccl;
  if (!plugin.nccl()) {
    nccl.status = tr("this CUDA plugin has no NCCL step: install the plugin built with this gpuscout");
    return nccl;
  }
  for (const uint64_t bytes : plan.allreduce_bytes) {
    throw_if_stopped();
    if (plan.progress) plan.progress(fmt::format("NCCL all-reduce {} MiB", bytes >> 20));
    gpuscout_allreduce_result out{};
    AllReduceRecord rec;
    rec.status = plugin.nccl()->allreduce(bytes, &method, &out);
    if (rec.status == GPUSCOUT_STOPPED) throw Interrupted{};
    nccl.ranks = out.n_ranks;
    nccl.nccl_version = nccl_version_text(out.nccl_version);
    rec.note = note_of(out.note, out.error, rec.status != GPUSCOUT_OK);
    if (rec.status == GPUSCOUT_UNSUPPORTED) {
      nccl.status = rec.note;
      return nccl;
    }
    rec.size_bytes = out.size_bytes;
    if (rec.status == GPUSCOUT_OK) {
      rec.m = from_samples(out.first_call_s, out.n_samples, out.samples_s, method.warmup);
      const double s = rec.m.stats.median_s;
      rec.algbw_gbs = s > 0 ? static_cast<double>(rec.size_bytes) / s / 1e9 : 0;
      rec.busbw_gbs = gpuscout_plugin::allreduce_bus_gbs(static_cast<double>(rec.size_bytes), s, out.n_ranks);
      rec.verified = out.verified != 0;
      if (!rec.verified)
        nccl.notes.push_back(trf("all-reduce {} MiB gave a WRONG sum on at least one GPU", rec.size_bytes >> 20));
    }
    nccl.sizes.push_back(std::move(rec));
    if (nccl.sizes.back().status != GPUSCOUT_OK) break;
  }
  return nccl;
}

}  // namespace

GpuSection run_gpus(const GpuPlan& plan) {
  GpuSection section;
  section.status.requested = true;
  auto plugin = load_plugin(plan, section.status);
  if (!plugin) return section;
  section.status.plugin_path = plugin->path();
  section.status.plugin_version = plugin->version();
  if (auto ok = plugin->init(should_stop_callback); !ok) {
    section.status.message = trf("CUDA is not usable: {}", ok.error().message);
    return section;
  }
  const auto& api = plugin->api();
  const int count = api.device_count();
  if (count <= 0) {
    section.status.message = tr("CUDA reports no device");
    return section;
  }
  section.status.available = true;
  const gpuscout_method method{plan.method.warmup, plan.method.min_repeats,
                               std::min(plan.method.max_repeats, GPUSCOUT_PLUGIN_MAX_SAMPLES), plan.method.budget_s};
  for (int dev = 0; dev < count; ++dev) {
    throw_if_stopped();
    section.gpus.push_back(bench_device(api, dev, plan, method));
  }
  if (!plan.allreduce_bytes.empty()) section.nccl = run_allreduce(*plugin, plan, method);
  return section;
}

}  // namespace gpuscout::bench
