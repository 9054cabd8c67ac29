#include "report/memory_plan.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/units.hpp"
#include "plan/catalogue.hpp"

namespace gpuscout::report {
namespace {

struct Scenario {
  std::string label;
  plan::Workload workload;
};

std::vector<Scenario> scenarios() {
  std::vector<Scenario> out;
  plan::Workload w;
  w.mode = plan::Mode::infer;
  w.dtype = "bf16";
  out.push_back({"inference, bf16", w});
  w.dtype = "int4";
  out.push_back({"inference, int4", w});
  w = plan::Workload{};
  w.mode = plan::Mode::qlora;
  out.push_back({"QLoRA fine-tuning (nf4 base)", w});
  w.mode = plan::Mode::lora;
  out.push_back({"LoRA fine-tuning (bf16 base)", w});
  w.mode = plan::Mode::train;
  out.push_back({"full training (AdamW, 16 B/param)", w});
  return out;
}

uint64_t bf16_inference_bytes(const plan::ModelShape& shape) {
  plan::Workload w;
  w.mode = plan::Mode::infer;
  w.dtype = "bf16";
  auto e = plan::estimate(shape, w);
  return e ? e->per_gpu.total_bytes() : UINT64_MAX;
}

/// The largest catalogue language model whose bf16 inference fits `capacity`, else the smallest one.
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
    if (params > best_params && bf16_inference_bytes(e.shape) <= capacity) {
      best_params = params;
      best = &e;
    }
  }
  if (best)
    return std::make_pair(best->shape, fmt::format("{}: the largest catalogue model whose bf16 inference fits {} of "
                                                   "GPU memory (choose another with --model or --config)",
                                                   best->name, units::format_bytes(capacity)));
  if (smallest)
    return std::make_pair(smallest->shape, fmt::format("{}: the smallest catalogue model (none runs in bf16 within {}; "
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
                           ? "No GPU on this machine: there is no GPU memory to plan. `gpuscout fit --vram 24G` or "
                             "`--gpu NAME` shows what a card you might buy or rent would hold."
                           : "No GPU with a known memory size (the NVIDIA driver did not report it): `gpuscout fit "
                             "--vram 24G` plans for a size you give.";
    return out;
  }
  plan::ModelShape shape;
  if (model) {
    shape = *model;
    out.model_reason = "chosen with --model/--config";
  } else {
    const auto largest = std::max_element(capacities.begin(), capacities.end(), [](const auto& a, const auto& b) {
      return a.capacity_bytes < b.capacity_bytes;
    });
    auto picked = pick_model(largest->capacity_bytes);
    if (!picked) {
      out.empty_reason = "The model catalogue could not be read";
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
    for (const auto& s : scenarios()) {
      auto e = plan::estimate(shape, s.workload);
      if (!e) continue;  // a combination this model cannot run (e.g. an encoder has no KV cache to quantise)
      p.rows.push_back({fmt::format("{}, {} tokens", s.label, e->tokens), e->per_gpu});
    }
    out.gpus.push_back(std::move(p));
    out.largest.push_back(plan::max_params_table(gpu.capacity_bytes, plan::Workload{}));
  }
  return out;
}

}  // namespace gpuscout::report
