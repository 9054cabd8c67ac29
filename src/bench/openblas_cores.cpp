#include "bench/openblas_cores.hpp"

#include <algorithm>

#include "core/csv.hpp"
#include "core/data_files.hpp"
#include "core/text.hpp"

namespace gpuscout::bench {
namespace {

using Loaded = core::LoadedRows<OpenblasCore>;

OpenblasCore read_core(csv::CellReader& c) {
  OpenblasCore row;
  row.name = c.text("corename", csv::Need::required);
  const std::string isa = c.one_of("isa", {"sse2", "avx", "avx2_fma", "avx512f"});
  row.isa = isa == "avx512f" ? Isa::avx512f : isa == "avx2_fma" ? Isa::avx2_fma : Isa::sse2;
  row.avx = isa == "avx";
  row.vendor = c.text("vendor", csv::Need::required);
  const std::string flags = c.text("requires");  // kept: split() returns views into it
  for (auto flag : text::split(flags, ' '))
    if (!flag.empty()) row.requires_flags.emplace_back(flag);
  c.text("source", csv::Need::required);
  c.date("date");
  return row;
}

const Loaded& loaded() {
  static const Loaded l =
      core::load_rows<OpenblasCore>("openblas_cores.csv", {"corename", "isa", "vendor", "requires", "source", "date"},
                                    read_core);
  return l;
}

int width(const OpenblasCore& c) { return c.isa == Isa::avx512f ? 3 : c.isa == Isa::avx2_fma ? 2 : c.avx ? 1 : 0; }

}  // namespace

std::optional<OpenblasCore> openblas_core(std::string_view corename) {
  const std::string wanted = text::to_lower(text::trim(corename));
  for (const auto& row : loaded().rows)
    if (text::to_lower(row.name) == wanted) return row;
  return std::nullopt;
}

std::optional<OpenblasCore> best_openblas_core(const std::vector<std::string>& flags, std::string_view cpu_vendor) {
  const std::string vendor = cpu_vendor == "GenuineIntel" ? "intel" : cpu_vendor == "AuthenticAMD" ? "amd" : "";
  const OpenblasCore* best = nullptr;
  const auto rank = [&](const OpenblasCore& c) {
    return std::tuple(width(c), c.requires_flags.size(), c.vendor == vendor ? 2 : c.vendor == "any" ? 1 : 0);
  };
  for (const auto& row : loaded().rows) {
    const bool fits = std::ranges::all_of(row.requires_flags, [&](const std::string& f) {
      return std::ranges::find(flags, f) != flags.end();
    });
    if (fits && (!best || rank(row) >= rank(*best))) best = &row;  // among equals the later row: a newer set
  }
  return best ? std::optional(*best) : std::nullopt;
}

std::string openblas_cores_error() { return loaded().error; }

}  // namespace gpuscout::bench
