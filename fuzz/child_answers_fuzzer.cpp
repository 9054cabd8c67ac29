// libFuzzer target: any bytes as what a child gpuscout started wrote back: the Python probe's output (the user's
// Python, their torch), the PyTorch benchmark's lines, the GPU benchmark plugin's answer, and a CUDA toolkit's
// version.json. Each is another program's output: a clear error or a value, never an exception or a sanitizer report.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "bench/gpu_wire.hpp"
#include "bench/torch_bench.hpp"
#include "probe/sources.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpuscout;
  const std::string_view input(reinterpret_cast<const char*>(data), size);

  PythonInfo python;
  std::optional<TorchInfo> torch;
  probe::parse_python_probe_output(std::string("GPUSCOUT_PROBE ").append(input), python, torch);
  probe::parse_python_probe_output(input, python, torch);

  bench::TorchBench torch_bench;
  (void)bench::parse_torch_output(std::string("GPUSCOUT_TORCH_CASE ").append(input), torch_bench);
  (void)bench::parse_torch_output(input, torch_bench);

  (void)bench::gpu_section_from_wire(std::string(input));
  (void)probe::parse_toolkit_version_json(input);
  return 0;
}
