// libFuzzer target: any bytes as a version string (drivers, nvcc, PyTorch, the data tables' cells), then every
// operation on what parses: printing, CUDA's major.minor, and comparison with itself and with a fixed version.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/version.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using gpuscout::Version;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto v = Version::parse(text);
  if (!v) return 0;
  (void)v->str();
  (void)v->major_minor();
  (void)v->major();
  (void)v->minor();
  // A version equals itself, and reading back its printed form gives the same version.
  if (compare(*v, *v) != 0) std::abort();
  const auto again = Version::parse(v->str());
  if (!again || compare(*again, *v) != 0) std::abort();
  static const Version driver = *Version::parse("580.95.05");
  (void)(*v < driver);
  (void)(*v >= driver);
  (void)Version::from_cuda_int(v->major());
  return 0;
}
