// libFuzzer target: a safetensors file prefix (8-byte length + JSON header) and an index file.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "plan/safetensors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpuscout::plan;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)parse_safetensors_prefix(text, "fuzz.safetensors");
  (void)parse_safetensors_index(text, "fuzz.index.json");
  return 0;
}
