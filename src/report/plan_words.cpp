#include "report/plan_words.hpp"

#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "core/i18n.hpp"

namespace gpuscout::report {

std::string status_word(const std::string& status) {
  // TRANSLATORS: a verdict: a GPU is ready for PyTorch.
  if (status == "ready") return tr("ready");
  // TRANSLATORS: a verdict: PyTorch can only run on the CPU here.
  if (status == "cpu-only") return tr("cpu-only");
  // TRANSLATORS: a verdict: something to fix or install first.
  if (status == "needs-action") return tr("needs-action");
  return status;
}

std::string severity_word(const std::string& severity) {
  // TRANSLATORS: the tag of a finding that blocks or breaks something.
  if (severity == "error") return tr("error");
  // TRANSLATORS: the tag of a finding worth fixing.
  if (severity == "warning") return tr("warning");
  // TRANSLATORS: the tag of a finding that is a suggestion (建议), not a problem.
  if (severity == "info") return tr("info");
  return severity;
}

std::string platform_word(const std::string& kind) {
  static constexpr std::pair<std::string_view, const char*> kWords[] = {
      {"desktop", N_("desktop")},   {"laptop", N_("laptop")},         {"server", N_("server")},
      {"cloud-vm", N_("cloud VM")}, {"vm", N_("virtual machine")},    {"container", N_("container")},
      {"wsl", N_("WSL")},           {"unknown", N_("unknown")},       {"colab", N_("Google Colab")},
      {"kaggle", N_("Kaggle")},     {"aistudio", N_("Baidu AI Studio")},
  };
  for (const auto& [key, word] : kWords)
    if (key == kind) return tr(word);
  return kind;
}

std::string step_needs(const diagnose::Step& s) {
  if (s.root && s.reboot) return tr("(needs administrator rights; restart afterwards)");
  if (s.root) return tr("(needs administrator rights)");
  if (s.reboot) return tr("(restart afterwards)");
  return {};
}

size_t steps_to_take(const diagnose::Plan& plan) {
  size_t n = 0;
  for (const auto& s : plan.steps)
    if (s.kind != "check") ++n;
  return n;
}

FirstScreen first_screen(const diagnose::Verdict& v) {
  FirstScreen out;
  const std::string gpus = fmt::format("{}", fmt::join(v.gpu_names, ", "));
  const size_t n = steps_to_take(v.plan);
  const diagnose::Step* first = v.plan.steps.empty() ? nullptr : &v.plan.steps.front();
  if (v.status == "ready" && n == 0) {
    out.headline = gpus.empty() ? trf("Ready: PyTorch can train on the GPU (device {}).", v.device)
                                : trf("Ready: PyTorch can train on your GPU, {} (device {}).", gpus, v.device);
    return out;
  }
  if (!first) {
    out.headline = tr("PyTorch runs on the CPU here: this machine has no GPU it can use.");
    return out;
  }
  if (first->kind == "cloud-gpu") {
    out.headline = tr("No: this machine has no GPU PyTorch can use; it runs on the CPU. Free or rented GPUs:");
    out.command = "gpuscout platforms";
    return out;
  }
  const bool by_hand = first->command.empty();
  if (v.plan.outcome == "gpu")
    out.headline = gpus.empty() ? (by_hand ? tr("Not yet: PyTorch can use a GPU here after this step:")
                                           : tr("Not yet: PyTorch can use a GPU here after you run this command:"))
                   : by_hand    ? trf("Not yet: PyTorch can use your GPU, {}, after this step:", gpus)
                                : trf("Not yet: PyTorch can use your GPU, {}, after you run this command:", gpus);
  else
    out.headline = by_hand ? tr("PyTorch cannot run yet. Next step:") : tr("PyTorch cannot run yet. Run this command:");
  if (by_hand) out.todo = first->action;
  else out.command = first->command;
  out.then = n > 1 ? tr("Then take the next steps below, and run gpuscout again to check.")
                   : tr("Then run gpuscout again to check.");
  return out;
}

}  // namespace gpuscout::report
