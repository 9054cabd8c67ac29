#pragma once
/// x86 cpuid and XGETBV as a table of functions: the one place gpuscout executes them. The feature logic is a
/// pure function of the table, so tests replay the registers of real CPUs in process; on other architectures the
/// native table answers nothing.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuscout::vendor::cpuid {

struct Registers {
  uint32_t eax = 0, ebx = 0, ecx = 0, edx = 0;
};

struct Functions {
  /// One leaf/subleaf; nullopt where the leaf is past the CPU's maximum or there is no cpuid at all.
  /// A std::function so a recorded machine's registers (a sysroot's cpuid.txt) can answer too.
  std::function<std::optional<Registers>(uint32_t leaf, uint32_t subleaf)> query;
  /// XCR0 and friends; only called when cpuid says OSXSAVE is on.
  std::function<uint64_t(uint32_t xcr)> xgetbv;
};

/// Registers per (leaf, subleaf), as a recorded machine keeps them.
using RecordedLeaves = std::map<std::pair<uint32_t, uint32_t>, Registers>;
/// A recorded cpuid dump, one leaf a line: "LEAF SUBLEAF => EAX EBX ECX EDX" in hex ("0x40000000 0x0 => 0x40000001
/// 0x4b4d564b 0x564b4d56 0x4d"); blank lines and '#' comments are skipped, malformed lines are dropped (outside
/// text: at most 4096 leaves kept).
RecordedLeaves parse_dump(std::string_view text);
/// A table answering from recorded leaves; XGETBV answers 0 (a recording keeps no OS-saved state).
Functions replay(RecordedLeaves leaves);

/// The running CPU's instructions (x86), or a table whose query always answers nullopt (elsewhere).
const Functions& native();

/// Deep-learning-relevant SIMD features the CPU has *and* the OS saves the state of (OSXSAVE + XCR0): "avx",
/// "avx2", "fma", "f16c", "avx512f", "avx512_bf16", "amx_tile", ... Names as /proc/cpuinfo spells its flags.
std::vector<std::string> dl_features(const Functions& functions);

/// The vendor string of leaf 0 ("GenuineIntel", "AuthenticAMD"); nullopt without cpuid.
std::optional<std::string> vendor_string(const Functions& functions);
/// The processor brand string of leaves 0x80000002-0x80000004 ("13th Gen Intel(R) Core(TM) i7-13700H"), the
/// padding spaces trimmed; nullopt where the CPU has none.
std::optional<std::string> brand_string(const Functions& functions);

/// The hypervisor's vendor signature from leaf 0x40000000 ("KVMKVMKVM\0\0\0", "Microsoft Hv", "VMwareVMware")
/// when cpuid's hypervisor bit is set; nullopt on bare metal.
std::optional<std::string> hypervisor_signature(const Functions& functions);

}  // namespace gpuscout::vendor::cpuid
