// libFuzzer target: any bytes as a config.json; a shape that parses must then be estimable without UB.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "plan/estimate.hpp"
#include "plan/hf_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpuscout::plan;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto read = parse_hf_config(text, "fuzz.json");
  if (!read) return 0;
  (void)count_params(read->shape);
  for (Mode mode : {Mode::infer, Mode::train, Mode::qlora}) {
    Workload w;
    w.mode = mode;
    w.context_tokens = 4096;
    w.num_gpus = 4;
    w.strategy = Strategy::tp;
    (void)estimate(read->shape, w);
  }
  return 0;
}
