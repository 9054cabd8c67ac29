#include "report/memory_plan.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/i18n.hpp"

#include "core/units.hpp"
#include "plan/catalogue.hpp"
#include "plan/precision_choice.hpp"

namespace gpuscout::report {
namespace {

struct Scenario {
  std::string label;
  plan::Workload workload;
};

/// The common workloads in the 16-bit format the card runs (bf16, or fp16 where it has no bf16).
std::vector<Scenario> scenarios(const plan::SixteenBit& half) {
  std::vector<Scenario> out;
  plan::Workload w;
  w.sixteen_bit = half;
  w.mode = plan::Mode::infer;
  out.push_back({trf("inference, {}", half.dtype), w});
  w.dtype = "int4";
  out.push_back({tr("inference, int4"), w});
  w.dtype.clear();
  w.mode = plan::Mode::qlora;
  w.grad_checkpointing = true;  // as PEFT's prepare_model_for_kbit_training sets it up
  out.push_back({tr("QLoRA fine-tuning (nf4 base, checkpointing)"), w});
  w.mode = plan::Mode::lora;
  out.push_back({trf("LoRA fine-tuning ({} base, checkpointing)", half.dtype), w});
  w.mode = plan::Mode::train;
  w.grad_checkpointing = false;
  out.push_back({trf("full training ({} mixed AdamW, 16 B/param)", half.dtype), w});
  return out;
}

/// 16-bit inference needs the same memory in bf16 and fp16.
uint64_t half_inference_bytes(const plan::ModelShape& shape) {
  plan::Workload w;
  w.mode = plan::Mode::infer;
  w.dtype = "bf16";
  auto e = plan::estimate(shape, w);
  return e ? e->per_gpu.total_bytes() : UINT64_MAX;
}

/// The largest catalogue language model whose 16-bit inference fits `capacity`, else the smallest one.
std::optional<std::pair<plan::ModelShape, std::string>> pick_model(uint64_t capacity) {
  auto catalogue = plan::load_catalogue();
  if (!catalogue) return std::nullopt;
  const plan::CatalogueEntry* best = nullptr;
  const plan::CatalogueEntry* smallest = nullptr;
  uint64_t best_params = 0, smallest_params = UINT64_MAX;
  for (const auto& e : *catalogue) {
    if (e.shape.arch != plan::Arch::decoder) continue;
    const uint64_t params = plan::count_params(e.shape).total;
    if (params < smallest_params) {
      smallest_params = params;
      smallest = &e;
    }
    if (params > best_params && half_inference_bytes(e.shape) <= capacity) {
      best_params = params;
      best = &e;
    }
  }
  if (best)
    return std::make_pair(best->shape, trf("{}: the largest catalogue model whose 16-bit inference fits {} of "
                                                   "GPU memory (choose another with --model or --config)",
                                                   best->name, units::format_bytes(capacity)));
  if (smallest)
    return std::make_pair(smallest->shape, trf("{}: the smallest catalogue model (none runs in 16 bits within {}; "
                                                       "choose another with --model or --config)",
                                                       smallest->name, units::format_bytes(capacity)));
  return std::nullopt;
}

}  // namespace

MemoryPlans build_memory_plans(const Inventory& inventory, const std::optional<plan::ModelShape>& model) {
  MemoryPlans out;
  const auto capacities = plan::gpu_capacities(inventory);
  if (capacities.empty()) {
    out.empty_reason = inventory.gpus.empty()
                           ? tr("No GPU on this machine: there is no GPU memory to plan. `gpuscout fit --vram 24G` or "
                             "`--gpu NAME` shows what a card you might buy or rent would hold.")
                           : tr("No GPU with a known memory size (the NVIDIA driver did not report it): `gpuscout fit "
                             "--vram 24G` plans for a size you give.");
    return out;
  }
  plan::ModelShape shape;
  if (model) {
    shape = *model;
    out.model_reason = tr("chosen with --model/--config");
  } else {
    const auto largest = std::max_element(capacities.begin(), capacities.end(), [](const auto& a, const auto& b) {
      return a.capacity_bytes < b.capacity_bytes;
    });
    auto picked = pick_model(largest->capacity_bytes);
    if (!picked) {
      out.empty_reason = tr("The model catalogue could not be read");
      return out;
    }
    shape = picked->first;
    out.model_reason = picked->second;
  }
  out.model = shape.name;
  for (const auto& gpu : capacities) {
    GpuMemoryPlan p;
    p.gpu = gpu.name;
    p.capacity_bytes = gpu.capacity_bytes;
    p.basis = gpu.basis;
    p.model = shape.name;
    const plan::SixteenBit half = plan::choose_sixteen_bit({gpu});
    for (auto s : scenarios(half)) {
      s.workload.kept_free_bytes = plan::kept_free_bytes(gpu.capacity_bytes);
      if (gpu.precision) s.workload.gpu_architecture = gpu.precision->architecture;
      auto e = plan::estimate(shape, s.workload);
      if (!e) continue;  // a combination this model cannot run (e.g. an encoder has no KV cache to quantise)
      p.rows.push_back({trf("{}, {} tokens", s.label, e->tokens), e->per_gpu});
    }
    out.gpus.push_back(std::move(p));
    plan::Workload base;
    base.sixteen_bit = half;
    if (gpu.precision) base.gpu_architecture = gpu.precision->architecture;
    out.largest.push_back(plan::max_params_table(gpu.capacity_bytes, base));
  }
  return out;
}

}  // namespace gpuscout::report
