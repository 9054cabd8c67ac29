#include "vendor/cpuid.hpp"

#include <cstring>
#include <memory>

#include "core/text.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace gpuscout::vendor::cpuid {
namespace {

#if defined(__x86_64__) || defined(__i386__)
std::optional<Registers> native_query(uint32_t leaf, uint32_t subleaf) {
  // __get_cpuid_max checks the basic (0x0) or extended (0x80000000) range; hypervisor leaves (0x4000xxxx) are
  // answered by the hypervisor whenever the hypervisor bit is set, which callers check first.
  const uint32_t range = leaf & 0xF0000000u;
  if (range != 0x40000000u && __get_cpuid_max(range, nullptr) < leaf) return std::nullopt;
  Registers r;
  __cpuid_count(leaf, subleaf, r.eax, r.ebx, r.ecx, r.edx);
  return r;
}
uint64_t native_xgetbv(uint32_t xcr) {
  uint32_t lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(xcr));
  return (static_cast<uint64_t>(hi) << 32) | lo;
}
#else
std::optional<Registers> native_query(uint32_t, uint32_t) { return std::nullopt; }
uint64_t native_xgetbv(uint32_t) { return 0; }
#endif

bool bit(uint32_t reg, unsigned n) { return (reg >> n) & 1u; }

struct Leaves {
  Registers l1, l7, l7_1;
  uint64_t xcr0 = 0;
};

std::optional<Leaves> read_leaves(const Functions& fn) {
  if (!fn.query) return std::nullopt;
  const auto l0 = fn.query(0, 0);
  if (!l0) return std::nullopt;
  Leaves out;
  if (auto l1 = fn.query(1, 0)) out.l1 = *l1;
  if (l0->eax >= 7) {
    if (auto l7 = fn.query(7, 0)) out.l7 = *l7;
    if (out.l7.eax >= 1)
      if (auto l71 = fn.query(7, 1)) out.l7_1 = *l71;
  }
  if (bit(out.l1.ecx, 27) && fn.xgetbv) out.xcr0 = fn.xgetbv(0);  // OSXSAVE: XGETBV is allowed
  return out;
}

}  // namespace

const Functions& native() {
  static const Functions table{&native_query, &native_xgetbv};
  return table;
}

RecordedLeaves parse_dump(std::string_view dump) {
  RecordedLeaves out;
  for (auto raw : text::split(dump, '\n')) {
    const auto line = text::trim(raw);
    if (line.empty() || line.front() == '#' || out.size() >= 4096) continue;
    const auto f = text::split_ws(line);
    if (f.size() != 7 || f[2] != "=>") continue;
    std::optional<uint64_t> v[6];
    const size_t at[6] = {0, 1, 3, 4, 5, 6};
    bool ok = true;
    for (size_t i = 0; i < 6; ++i) {
      auto word = f[at[i]];
      if (word.starts_with("0x") || word.starts_with("0X")) word.remove_prefix(2);
      v[i] = text::parse_uint(word, 16);
      ok = ok && v[i] && *v[i] <= 0xFFFFFFFFu;
    }
    if (!ok) continue;
    const auto u32 = [](std::optional<uint64_t> x) { return static_cast<uint32_t>(*x); };
    out[{u32(v[0]), u32(v[1])}] = Registers{u32(v[2]), u32(v[3]), u32(v[4]), u32(v[5])};
  }
  return out;
}

Functions replay(RecordedLeaves leaves) {
  auto shared = std::make_shared<const RecordedLeaves>(std::move(leaves));
  Functions table;
  table.query = [shared](uint32_t leaf, uint32_t subleaf) -> std::optional<Registers> {
    const auto it = shared->find({leaf, subleaf});
    if (it == shared->end()) return std::nullopt;
    return it->second;
  };
  table.xgetbv = [](uint32_t) -> uint64_t { return 0; };
  return table;
}

std::vector<std::string> dl_features(const Functions& fn) {
  std::vector<std::string> out;
  const auto leaves = read_leaves(fn);
  if (!leaves) return out;
  const auto& [l1, l7, l7_1, xcr0] = *leaves;
  const bool os_avx = (xcr0 & 0x6) == 0x6;                // SSE and AVX state saved by the OS
  const bool os_avx512 = os_avx && (xcr0 & 0xE0) == 0xE0;  // opmask, ZMM_Hi256, Hi16_ZMM
  const bool os_amx = (xcr0 & 0x60000) == 0x60000;         // XTILECFG, XTILEDATA
  struct Feature {
    bool os_state;
    uint32_t reg;
    unsigned bit_index;
    const char* name;
  };
  const Feature table[] = {
      {os_avx, l1.ecx, 28, "avx"},           {os_avx, l7.ebx, 5, "avx2"},
      {os_avx, l1.ecx, 12, "fma"},           {os_avx, l1.ecx, 29, "f16c"},
      {os_avx512, l7.ebx, 16, "avx512f"},    {os_avx512, l7.ebx, 17, "avx512dq"},
      {os_avx512, l7.ebx, 30, "avx512bw"},   {os_avx512, l7.ebx, 31, "avx512vl"},
      {os_avx512, l7.ecx, 11, "avx512_vnni"}, {os_avx512, l7_1.eax, 5, "avx512_bf16"},
      {os_avx512, l7.edx, 23, "avx512_fp16"}, {os_avx, l7_1.eax, 4, "avx_vnni"},
      {os_amx, l7.edx, 24, "amx_tile"},      {os_amx, l7.edx, 22, "amx_bf16"},
      {os_amx, l7.edx, 25, "amx_int8"},      {os_amx, l7_1.eax, 21, "amx_fp16"},
  };
  for (const auto& f : table)
    if (f.os_state && bit(f.reg, f.bit_index)) out.emplace_back(f.name);
  return out;
}

std::optional<std::string> vendor_string(const Functions& fn) {
  if (!fn.query) return std::nullopt;
  const auto l0 = fn.query(0, 0);
  if (!l0) return std::nullopt;
  char v[13] = {0};
  std::memcpy(v, &l0->ebx, 4);
  std::memcpy(v + 4, &l0->edx, 4);
  std::memcpy(v + 8, &l0->ecx, 4);
  return text::clean_utf8(std::string_view(v, strnlen(v, 12)));
}

std::optional<std::string> brand_string(const Functions& fn) {
  if (!fn.query) return std::nullopt;
  const auto ext = fn.query(0x80000000u, 0);
  if (!ext || ext->eax < 0x80000004u) return std::nullopt;
  char brand[49] = {0};
  for (uint32_t i = 0; i < 3; ++i) {
    const auto r = fn.query(0x80000002u + i, 0);
    if (!r) return std::nullopt;
    std::memcpy(brand + 16 * i, &r->eax, 4);
    std::memcpy(brand + 16 * i + 4, &r->ebx, 4);
    std::memcpy(brand + 16 * i + 8, &r->ecx, 4);
    std::memcpy(brand + 16 * i + 12, &r->edx, 4);
  }
  const std::string out(text::trim(text::clean_utf8(std::string_view(brand, strnlen(brand, 48)))));
  if (out.empty()) return std::nullopt;
  return out;
}

std::optional<std::string> hypervisor_signature(const Functions& fn) {
  if (!fn.query) return std::nullopt;
  const auto l1 = fn.query(1, 0);
  if (!l1 || !bit(l1->ecx, 31)) return std::nullopt;
  const auto h = fn.query(0x40000000u, 0);
  if (!h) return std::nullopt;
  char sig[13] = {0};
  std::memcpy(sig, &h->ebx, 4);
  std::memcpy(sig + 4, &h->ecx, 4);
  std::memcpy(sig + 8, &h->edx, 4);
  return text::clean_utf8(std::string_view(sig, strnlen(sig, 12)));
}

}  // namespace gpuscout::vendor::cpuid
