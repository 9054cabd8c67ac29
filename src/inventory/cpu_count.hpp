#pragma once
/// How many CPUs this process can keep busy: what a thread count (torch's, BLAS's) is compared with.
#include <optional>

#include "inventory/inventory.hpp"

namespace gpuscout {

/// The CPUs this process may run on (its affinity, `logical_cpus`), capped by a cgroup CPU quota rounded up
/// (a container given 2.5 CPUs can keep 3 threads busy part of the time). None when the affinity is unknown.
std::optional<int> usable_cpu_count(const CpuInfo& cpu);

/// The physical cores this process may run on (hyper-threads counted once), capped the same way: what PyTorch's
/// default thread count is (one per core). None when the core count is unknown.
std::optional<int> usable_core_count(const CpuInfo& cpu);

}  // namespace gpuscout
