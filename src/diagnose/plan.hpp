#pragma once
/// The plan to a working GPU: the verdict's findings turned into ordered steps, each with its one command, why,
/// whether it needs root or a restart and what it changes. The steps show the commands the findings show (the
/// Context computes each once: the wheel in torch_choice, the driver in driver_route), so the summary, the
/// findings, the report and --json agree.
#include "diagnose/context.hpp"
#include "diagnose/diagnose.hpp"
#include "diagnose/rules.hpp"

namespace gpuscout::diagnose {

/// `gpu_usable`: a GPU PyTorch can use as the machine is (the verdict's own reading).
Plan make_plan(const Context& context, const Evaluation& evaluation, bool gpu_usable);

}  // namespace gpuscout::diagnose
