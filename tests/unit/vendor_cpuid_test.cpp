// The SIMD feature logic over replayed cpuid registers: what the CPU has and what the OS saves the state of.
#include <algorithm>
#include <map>
#include <utility>

#include <gtest/gtest.h>

#include "vendor/cpuid.hpp"

namespace {

using gpuscout::vendor::cpuid::Functions;
using gpuscout::vendor::cpuid::Registers;

// One replayed CPU at a time (the table holds plain function pointers, as the real one does).
std::map<std::pair<uint32_t, uint32_t>, Registers> g_leaves;
uint64_t g_xcr0 = 0;
int g_xgetbv_calls = 0;

std::optional<Registers> replay(uint32_t leaf, uint32_t subleaf) {
  auto it = g_leaves.find({leaf, subleaf});
  if (it == g_leaves.end()) return std::nullopt;
  return it->second;
}
uint64_t replay_xgetbv(uint32_t) {
  ++g_xgetbv_calls;
  return g_xcr0;
}
const Functions kReplay{&replay, &replay_xgetbv};

bool has(const std::vector<std::string>& v, const char* name) { return std::find(v.begin(), v.end(), name) != v.end(); }

// A Sapphire Rapids-like CPU: AVX2, FMA, AVX-512 with BF16/FP16, AMX; leaf 1 ECX has OSXSAVE (bit 27).
void sapphire_rapids(uint64_t xcr0) {
  g_leaves = {
      {{0, 0}, {0x20, 0, 0, 0}},
      {{1, 0}, {0, 0, (1u << 27) | (1u << 28) | (1u << 12) | (1u << 29), 0}},
      {{7, 0}, {1, (1u << 5) | (1u << 16) | (1u << 17) | (1u << 30) | (1u << 31), 1u << 11, (1u << 22) | (1u << 23) | (1u << 24) | (1u << 25)}},
      {{7, 1}, {(1u << 4) | (1u << 5), 0, 0, 0}},
  };
  g_xcr0 = xcr0;
}

TEST(VendorCpuid, EveryFeatureWhenTheOsSavesEveryState) {
  sapphire_rapids(0x600E7);
  const auto f = gpuscout::vendor::cpuid::dl_features(kReplay);
  for (const char* name : {"avx", "avx2", "fma", "f16c", "avx512f", "avx512dq", "avx512bw", "avx512vl", "avx512_vnni",
                           "avx512_bf16", "avx512_fp16", "avx_vnni", "amx_tile", "amx_bf16", "amx_int8"})
    EXPECT_TRUE(has(f, name)) << name;
  EXPECT_FALSE(has(f, "amx_fp16"));
}

TEST(VendorCpuid, AvxStateOnlyHidesAvx512AndAmx) {
  // A kernel booted with AVX-512 state off (or a VM that masks it) saves only x87/SSE/AVX.
  sapphire_rapids(0x7);
  const auto f = gpuscout::vendor::cpuid::dl_features(kReplay);
  EXPECT_TRUE(has(f, "avx2"));
  EXPECT_TRUE(has(f, "fma"));
  EXPECT_FALSE(has(f, "avx512f"));
  EXPECT_FALSE(has(f, "amx_tile"));
}

TEST(VendorCpuid, NoOsxsaveMeansNoXgetbvAndNoAvx) {
  sapphire_rapids(0x600E7);
  g_leaves[{1, 0}].ecx &= ~(1u << 27);
  g_xgetbv_calls = 0;
  const auto f = gpuscout::vendor::cpuid::dl_features(kReplay);
  EXPECT_EQ(g_xgetbv_calls, 0);  // XGETBV faults when OSXSAVE is off
  EXPECT_TRUE(f.empty());
}

TEST(VendorCpuid, OldCpuWithoutLeaf7) {
  sapphire_rapids(0x7);
  g_leaves[{0, 0}].eax = 6;
  const auto f = gpuscout::vendor::cpuid::dl_features(kReplay);
  EXPECT_TRUE(has(f, "avx"));
  EXPECT_FALSE(has(f, "avx2"));  // leaf 7 is past the maximum: not read even though the replay has it
}

TEST(VendorCpuid, NoCpuidAtAll) {
  g_leaves.clear();
  EXPECT_TRUE(gpuscout::vendor::cpuid::dl_features(kReplay).empty());
  EXPECT_TRUE(gpuscout::vendor::cpuid::dl_features(Functions{}).empty());
  EXPECT_FALSE(gpuscout::vendor::cpuid::hypervisor_signature(kReplay));
}

TEST(VendorCpuid, HypervisorSignature) {
  sapphire_rapids(0x7);
  EXPECT_FALSE(gpuscout::vendor::cpuid::hypervisor_signature(kReplay));  // bare metal: bit 31 clear
  g_leaves[{1, 0}].ecx |= 1u << 31;
  // "KVMKVMKVM\0\0\0" in EBX, ECX, EDX.
  g_leaves[{0x40000000u, 0}] = {0x40000001u, 0x4b4d564bu, 0x564b4d56u, 0x0000004du};
  EXPECT_EQ(gpuscout::vendor::cpuid::hypervisor_signature(kReplay), "KVMKVMKVM");
}

// Four ASCII bytes as the little-endian register cpuid returns them in.
uint32_t reg(const char* four) {
  return uint32_t(uint8_t(four[0])) | uint32_t(uint8_t(four[1])) << 8 | uint32_t(uint8_t(four[2])) << 16 |
         uint32_t(uint8_t(four[3])) << 24;
}

TEST(VendorCpuid, VendorAndBrandStrings) {
  g_leaves = {{{0, 0}, {0x20, reg("Genu"), reg("ntel"), reg("ineI")}}};  // EBX, EDX, ECX order
  EXPECT_EQ(gpuscout::vendor::cpuid::vendor_string(kReplay), "GenuineIntel");
  EXPECT_FALSE(gpuscout::vendor::cpuid::brand_string(kReplay));  // no extended leaves
  // Intel pads the brand string at the end, older CPUs at the front; both trimmed.
  const char brand[49] = "   13th Gen Intel(R) Core(TM) i7-13700H         ";
  g_leaves[{0x80000000u, 0}] = {0x80000008u, 0, 0, 0};
  for (uint32_t i = 0; i < 3; ++i)
    g_leaves[{0x80000002u + i, 0}] = {reg(brand + 16 * i), reg(brand + 16 * i + 4), reg(brand + 16 * i + 8),
                                     reg(brand + 16 * i + 12)};
  EXPECT_EQ(gpuscout::vendor::cpuid::brand_string(kReplay), "13th Gen Intel(R) Core(TM) i7-13700H");
  g_leaves[{0x80000000u, 0}] = {0x80000001u, 0, 0, 0};  // the leaves past the maximum are not read
  EXPECT_FALSE(gpuscout::vendor::cpuid::brand_string(kReplay));
}

TEST(VendorCpuid, NativeAgreesWithItself) {
  // The real instructions: whatever this CPU is, two reads agree (and on non-x86 both are empty).
  const auto& native = gpuscout::vendor::cpuid::native();
  EXPECT_EQ(gpuscout::vendor::cpuid::dl_features(native), gpuscout::vendor::cpuid::dl_features(native));
}

}  // namespace
