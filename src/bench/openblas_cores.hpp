#pragma once
/// OpenBLAS's x86-64 kernel sets ("cores": the names openblas_get_corename() returns and OPENBLAS_CORETYPE takes),
/// from data/openblas_cores.csv: the instruction set each one uses, and which one fits a CPU. OpenBLAS picks by CPU
/// model; a release that does not know a newer model falls back to older kernels (Prescott: SSE3 on an AVX-512 Xeon),
/// and a DYNAMIC_ARCH build can be told the right set with OPENBLAS_CORETYPE.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/cpu_facts.hpp"

namespace gpuscout::bench {

struct OpenblasCore {
  std::string name;    ///< "SkylakeX", as OpenBLAS spells it
  Isa isa = Isa::sse2;  ///< the widest kernels it uses (the AVX-without-FMA sets count as sse2 here: below AVX2+FMA)
  bool avx = false;     ///< the AVX-without-FMA sets (Sandybridge, Bulldozer family)
  std::string vendor;   ///< "intel", "amd" or "any": whose CPUs OpenBLAS gives it to
  std::vector<std::string> requires_flags;  ///< CPU flags it needs beyond x86-64 (as the inventory keeps them)
};

/// The kernel set named `corename` (any case); nullopt for a name the table does not know (another architecture's).
std::optional<OpenblasCore> openblas_core(std::string_view corename);

/// The kernel set this OpenBLAS should use on a CPU with `flags` from `cpu_vendor` ("GenuineIntel",
/// "AuthenticAMD", ...): the widest whose flags the CPU has, then the one needing most of them, preferring the CPU's
/// vendor; nullopt when none fits.
std::optional<OpenblasCore> best_openblas_core(const std::vector<std::string>& flags, std::string_view cpu_vendor);

/// The table's load error, "" when it loaded (for --data checks).
std::string openblas_cores_error();

}  // namespace gpuscout::bench
