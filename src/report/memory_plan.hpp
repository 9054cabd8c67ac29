#pragma once
/// The memory plan of the HTML report: for each GPU of a machine, what one model needs for the common
/// workloads (inference at 16 and 4 bits, QLoRA, LoRA, full training), and the largest model per precision.
/// Pure: from an Inventory and the model catalogue.
#include <optional>
#include <string>
#include <vector>

#include "inventory/inventory.hpp"
#include "plan/estimate.hpp"
#include "report/chart_data.hpp"

namespace gpuscout::report {

struct MemoryPlans {
  std::string model;                      ///< the model the bars describe
  std::string model_reason;               ///< "--model", or why this catalogue model was chosen
  std::vector<GpuMemoryPlan> gpus;        ///< one per GPU with a known memory size
  std::vector<plan::MaxParamsTable> largest;  ///< same order as gpus
  std::string empty_reason;               ///< set when gpus is empty
};

/// `model`: the user's choice; nullopt picks the largest catalogue language model whose bf16 inference fits the
/// GPU with the most memory (the smallest one when none fits), so the chart shows the edge of what the card can do.
MemoryPlans build_memory_plans(const Inventory& inventory, const std::optional<plan::ModelShape>& model);

}  // namespace gpuscout::report
