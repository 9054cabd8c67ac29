// data/openblas_cores.csv as bench reads it: the kernel set a CPU should get, and the ISA of the one it got.
#include <gtest/gtest.h>

#include "bench/openblas_cores.hpp"

using gpuscout::bench::best_openblas_core;
using gpuscout::bench::Isa;
using gpuscout::bench::openblas_core;
using gpuscout::bench::openblas_cores_error;

TEST(OpenblasCores, TheTableLoads) { EXPECT_EQ(openblas_cores_error(), ""); }

TEST(OpenblasCores, NamesAreMatchedInAnyCase) {
  ASSERT_TRUE(openblas_core("PRESCOTT"));
  EXPECT_EQ(openblas_core("prescott")->isa, Isa::sse2);
  EXPECT_EQ(openblas_core("Haswell")->isa, Isa::avx2_fma);
  EXPECT_TRUE(openblas_core("Sandybridge")->avx);
  EXPECT_EQ(openblas_core("SkylakeX")->isa, Isa::avx512f);
  EXPECT_FALSE(openblas_core("NEOVERSEN1"));  // an Arm set: not in the x86-64 table
}

TEST(OpenblasCores, TheBestSetFollowsTheFlagsAndTheVendor) {
  const std::vector<std::string> avx2 = {"avx", "avx2", "fma", "f16c"};
  EXPECT_EQ(best_openblas_core(avx2, "GenuineIntel")->name, "Haswell");
  EXPECT_EQ(best_openblas_core(avx2, "AuthenticAMD")->name, "Zen");
  std::vector<std::string> zen4 = avx2;
  for (const char* f : {"avx512f", "avx512dq", "avx512bw", "avx512vl", "avx512_vnni", "avx512_bf16"}) zen4.push_back(f);
  EXPECT_EQ(best_openblas_core(zen4, "AuthenticAMD")->name, "Cooperlake");
  std::vector<std::string> spr = zen4;
  spr.push_back("amx_tile");
  spr.push_back("amx_bf16");
  EXPECT_EQ(best_openblas_core(spr, "GenuineIntel")->name, "SapphireRapids");
  std::vector<std::string> skx = avx2;
  for (const char* f : {"avx512f", "avx512dq", "avx512bw", "avx512vl"}) skx.push_back(f);
  EXPECT_EQ(best_openblas_core(skx, "GenuineIntel")->name, "SkylakeX");
  EXPECT_EQ(best_openblas_core({}, "GenuineIntel")->isa, Isa::sse2);  // x86-64 alone: an SSE set
}
