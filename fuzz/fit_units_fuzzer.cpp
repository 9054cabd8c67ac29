// libFuzzer target: the unit and word parsers `fit` feeds from the command line.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/units.hpp"
#include "plan/workload.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpuscout;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto b = units::parse_bytes(text)) (void)units::format_bytes(*b);
  if (auto c = units::parse_count(text)) (void)units::format_count(*c);
  (void)plan::weight_format(text);
  (void)plan::parse_mode(text);
  (void)plan::parse_strategy(text);
  (void)plan::parse_optimizer(text);
  (void)plan::parse_convention(text);
  return 0;
}
