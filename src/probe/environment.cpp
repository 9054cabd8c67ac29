// The environment variables that change which GPUs a program sees and how it runs them, and where a job scheduler
// placed it (Inventory::environment).
#include <algorithm>

#include "core/text.hpp"
#include "probe/sources.hpp"

namespace gpuscout::probe {
namespace {

// The one list of recorded names, each with what it changes and where that is defined.
constexpr std::string_view kRecordedNames[] = {
    "CUDA_VISIBLE_DEVICES",     // which GPUs CUDA numbers, in what order (CUDA C++ Programming Guide, "CUDA
                                // Environment Variables")
    "CUDA_DEVICE_ORDER",        // FASTEST_FIRST (the default) or PCI_BUS_ID, nvidia-smi's order (same)
    "CUDA_LAUNCH_BLOCKING",     // 1: every kernel launch waits for the kernel (same)
    "CUDA_MODULE_LOADING",      // LAZY (the default since CUDA 12.2) or EAGER kernel loading (same)
    "PYTORCH_CUDA_ALLOC_CONF",  // PyTorch's caching allocator (pytorch.org/docs/stable/notes/cuda.html)
    "HIP_VISIBLE_DEVICES",      // which AMD GPUs HIP numbers (ROCm docs, "GPU isolation techniques")
    "ROCR_VISIBLE_DEVICES",     // which AMD GPUs the ROCm runtime exposes at all (same)
    "OMP_NUM_THREADS",          // OpenMP's thread count: PyTorch's CPU threads start from it (OpenMP 5.2, 21.1.2)
    "MKL_NUM_THREADS",          // Intel MKL's thread count (oneMKL developer guide)
    "LD_LIBRARY_PATH",          // searched before the system: a libcuda.so.1 or cuDNN there wins (ld.so(8))
    // Slurm's placement of the job (sbatch(1)/srun(1), "OUTPUT ENVIRONMENT VARIABLES"): `fleet --slurm` names each
    // answer by its node and finds the nodes that did not answer from the job's node list.
    "SLURMD_NODENAME",          // the node this task runs on
    "SLURM_JOB_ID",             // the job
    "SLURM_JOB_NODELIST",       // every node of the job, in Slurm's compressed form ("gpu[01-04]")
    "SLURM_JOB_PARTITION",      // the partition the job runs in
    "SLURM_JOB_GPUS",           // the GPUs Slurm gave the job on this node (what CUDA_VISIBLE_DEVICES follows)
};
// Every variable with one of these prefixes: NCCL's settings (NCCL docs, "Environment Variables").
constexpr std::string_view kRecordedPrefixes[] = {"NCCL_"};

bool has_recorded_prefix(std::string_view name) {
  return std::any_of(std::begin(kRecordedPrefixes), std::end(kRecordedPrefixes),
                     [&](std::string_view prefix) { return name.size() > prefix.size() && name.starts_with(prefix); });
}

}  // namespace

Environment recorded_environment(const std::vector<std::string>& names, const EnvironmentLookup& lookup) {
  std::vector<std::string> wanted(std::begin(kRecordedNames), std::end(kRecordedNames));
  std::vector<std::string> prefixed;
  for (const auto& name : names)
    if (name.size() <= kMaxEnvironmentNameBytes && has_recorded_prefix(name)) prefixed.push_back(name);
  std::sort(prefixed.begin(), prefixed.end());
  wanted.insert(wanted.end(), prefixed.begin(), prefixed.end());
  Environment out;
  for (const auto& name : wanted) {
    if (out.size() == kMaxEnvironmentVariables) break;
    const auto value = lookup(name);
    if (!value) continue;  // unset stays absent: "" is a value (CUDA_VISIBLE_DEVICES="" hides every GPU)
    // Cut before cleaning could split a character; clean first, then cut at a character boundary.
    const std::string clean = text::clean_utf8(*value);
    out.emplace(text::clean_utf8(name), std::string(text::cut_utf8(clean, kMaxEnvironmentValueBytes)));
  }
  return out;
}

Environment probe_environment() {
  return recorded_environment(os::environment_names(), [](const std::string& name) { return os::getenv(name); });
}

}  // namespace gpuscout::probe
