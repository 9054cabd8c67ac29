// libFuzzer target: any bytes as the text of torch.__config__.show() (the Python probe's output, from the user's
// PyTorch); what comes out is a short name or nothing.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "probe/sources.hpp"

namespace {

void check_name(const std::optional<std::string>& name) {
  if (!name) return;
  if (name->empty() || name->size() > 32) std::abort();
  for (const char ch : *name)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_' && ch != '.' && ch != '+' && ch != '-') std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view show(reinterpret_cast<const char*>(data), size);
  const auto config = gpuscout::probe::parse_torch_config(show);
  check_name(config.cpu_capability);
  check_name(config.blas);
  check_name(config.lapack);
  return 0;
}
