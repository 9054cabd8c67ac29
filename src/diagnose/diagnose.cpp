#include "diagnose/diagnose.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "diagnose/context.hpp"
#include "diagnose/plan.hpp"
#include "diagnose/rules.hpp"

namespace gpuscout::diagnose {
namespace {

int severity_rank(const std::string& s) { return s == "error" ? 0 : s == "warning" ? 1 : 2; }

/// What blocks GPU training first, then what needs a step, then advice.
int effect_rank(const std::string& code) {
  for (const Rule& r : rules())
    if (r.code == code) return r.effect == Effect::blocks ? 0 : r.effect == Effect::needs_action ? 1 : 2;
  return 2;
}

}  // namespace

std::optional<std::string> torch_backend_device(const Inventory& inv) {
  if (!inv.torch) return std::nullopt;
  const auto& t = *inv.torch;
  // ROCm builds answer through torch.cuda and the "cuda" device type (HIP is exposed as CUDA).
  if (t.hip && t.cuda_available && t.device_count > 0) return "cuda:0";
  if (t.xpu_available.value_or(false)) return "xpu:0";
  return std::nullopt;
}

std::string best_device(const Inventory& inv) {
  // The CUDA ordinal is what torch uses; among GPUs CUDA can run, the one with most free memory.
  const Gpu* best = nullptr;
  auto free_bytes = [](const Gpu& g) { return g.memory_free_bytes.value_or(g.memory_total_bytes.value_or(0)); };
  for (const auto& g : inv.gpus) {
    if (g.vendor != "nvidia" || !g.cuda_index) continue;
    if (g.compute_capability && installed_torch_lacks_code(inv, *g.compute_capability)) continue;
    if (!best || free_bytes(g) > free_bytes(*best)) best = &g;
  }
  if (!best || !inv.cuda.available) return "cpu";
  if (inv.torch && (!inv.torch->cuda || !inv.torch->cuda_available)) return "cpu";
  return fmt::format("cuda:{}", *best->cuda_index);
}

Verdict diagnose(const Inventory& inv) {
  const Context context = make_context(inv);
  Evaluation result = evaluate(context);
  Verdict v;
  const bool nvidia_usable = !context.nvidia.empty() && !result.blocked &&
                             (inv.cuda.available || (inv.nvidia.driver_version && !inv.cuda.error));
  const bool gpu_usable = nvidia_usable || context.torch_backend_device.has_value();
  if (gpu_usable && !result.needs_action) v.status = "ready";
  else if (result.needs_action) v.status = "needs-action";
  else v.status = "cpu-only";
  if (nvidia_usable) v.device = best_device(inv);
  else v.device = context.torch_backend_device.value_or("cpu");
  v.torch_fits = context.torch_choice.installed_fits;
  v.plan = make_plan(context, result, gpu_usable);
  v.findings = std::move(result.findings);
  for (const auto& g : inv.gpus)
    // The catalogue's name where the probe matched one: Windows names a card without its driver "Microsoft Basic
    // Display Adapter".
    if (!g.integrated || inv.gpus.size() == 1) v.gpu_names.push_back(g.catalog_name.value_or(g.name));
  // What blocks the GPU first, then what needs a step, then advice; by severity within each, then table order.
  std::stable_sort(v.findings.begin(), v.findings.end(), [](const Finding& a, const Finding& b) {
    return std::pair(effect_rank(a.code), severity_rank(a.severity)) < std::pair(effect_rank(b.code), severity_rank(b.severity));
  });
  return v;
}

std::optional<std::string> torch_command(const Plan& plan) {
  for (const auto& s : plan.steps)
    if (s.kind == "torch" && !s.command.empty()) return s.command;
  return std::nullopt;
}

int strict_exit_code(const Verdict& v) {
  if (v.status == "ready") return 0;
  if (v.status == "cpu-only") return 3;
  return 4;
}

nlohmann::ordered_json to_json(const Verdict& v) {
  nlohmann::ordered_json j;
  j["status"] = v.status;
  j["device"] = v.device;
  j["torch_fits"] = v.torch_fits;
  nlohmann::ordered_json steps = nlohmann::ordered_json::array();
  for (const auto& s : v.plan.steps)
    steps.push_back({{"kind", s.kind},
                     {"action", s.action},
                     {"command", s.command.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s.command)},
                     {"why", s.why},
                     {"changes", s.changes},
                     {"root", s.root},
                     {"reboot", s.reboot},
                     {"finding", s.finding.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s.finding)}});
  j["plan"] = {{"outcome", v.plan.outcome}, {"steps", std::move(steps)}};
  j["findings"] = nlohmann::ordered_json::array();
  for (const auto& f : v.findings)
    j["findings"].push_back({{"code", f.code}, {"severity", f.severity}, {"message", f.message}, {"fix", f.fix}});
  return j;
}

}  // namespace gpuscout::diagnose
