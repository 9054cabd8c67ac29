// libFuzzer target: any bytes as a sysroot's cpuid.txt, then everything the probes read from the replayed table:
// the SIMD features, the vendor and brand strings, the hypervisor signature and the name gpuscout gives it.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "probe/sources.hpp"
#include "vendor/cpuid.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace cpuid = gpuscout::vendor::cpuid;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto leaves = cpuid::parse_dump(text);
  if (leaves.size() > 4096) std::abort();  // the documented bound on outside text
  const auto table = cpuid::replay(std::move(leaves));
  (void)cpuid::dl_features(table);
  (void)cpuid::vendor_string(table);
  if (const auto brand = cpuid::brand_string(table); brand && brand->size() > 3 * 48) std::abort();  // 3 leaves x 16 bytes, each maybe U+FFFD
  if (const auto signature = cpuid::hypervisor_signature(table)) (void)gpuscout::probe::hypervisor_name(*signature);
  return 0;
}
