// libFuzzer target: any bytes as a CPU list (/sys cpulist files, Cpus_allowed_list, a --from file's allowed_cpus and
// numa_nodes[].cpus), then its kernel form: what parses is sorted, distinct and bounded, and reads back the same.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpuscout;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto cpus = text::parse_cpu_list(input);
  if (!cpus) return 0;
  if (static_cast<long long>(cpus->size()) > text::kMaxCpus) std::abort();
  if (!std::is_sorted(cpus->begin(), cpus->end()) || std::adjacent_find(cpus->begin(), cpus->end()) != cpus->end())
    std::abort();
  if (!cpus->empty() && (cpus->front() < 0 || cpus->back() >= text::kMaxCpus)) std::abort();
  const auto again = text::parse_cpu_list(text::format_cpu_list(*cpus));
  if (!again || *again != *cpus) std::abort();
  return 0;
}
