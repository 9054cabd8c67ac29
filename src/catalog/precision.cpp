#include "catalog/precision.hpp"

#include <string>
#include <vector>

#include <fmt/format.h>

#include "catalog/catalog.hpp"
#include "core/csv.hpp"
#include "core/data_files.hpp"
#include "core/text.hpp"

namespace gpuscout::catalog {
namespace {

struct PrecisionRow {
  std::string vendor;
  std::string cc;  ///< NVIDIA rows
  Precision precision;
};

Support support(csv::CellReader& c, std::string_view column) {
  const std::string v = c.text(column);
  if (v.empty()) return Support::unknown;
  if (v == "yes") return Support::yes;
  if (v == "slow") return Support::slow;
  if (v == "no") return Support::no;
  c.fail(column, "is not yes, slow, no or empty");
  return Support::unknown;
}

PrecisionRow read_precision_row(csv::CellReader& c) {
  PrecisionRow r;
  r.vendor = c.one_of("vendor", {"nvidia", "amd", "intel"});
  r.precision.architecture = c.text("architecture", csv::Need::required);
  if (auto v = c.version("compute_capability", 2, 2, "8.6")) r.cc = v->str();
  if (r.vendor == "nvidia" && r.cc.empty()) c.fail("compute_capability", "is empty: NVIDIA rows are by capability");
  Precision& p = r.precision;
  p.fp32 = support(c, "fp32");
  p.tf32 = support(c, "tf32");
  p.fp16 = support(c, "fp16");
  p.bf16 = support(c, "bf16");
  p.fp8 = support(c, "fp8");
  p.fp4 = support(c, "fp4");
  c.text("source", csv::Need::required);
  c.date("date");
  return r;
}

using LoadedPrecision = core::LoadedRows<PrecisionRow>;

const LoadedPrecision& loaded_precision() {
  static const LoadedPrecision l = core::load_rows<PrecisionRow>(
      "precision.csv",
      {"vendor", "architecture", "compute_capability", "fp32", "tf32", "fp16", "bf16", "fp8", "fp4", "source", "date"},
      read_precision_row);
  return l;
}

}  // namespace

std::string_view name(Support s) {
  switch (s) {
    case Support::yes: return "yes";
    case Support::slow: return "slow";
    case Support::no: return "no";
    case Support::unknown: return "unknown";
  }
  return "unknown";
}

std::optional<Precision> precision_for(const PrecisionQuery& q) {
  const std::string vendor = text::to_lower(q.vendor);
  const std::string arch = text::to_lower(text::trim(q.architecture));
  for (const auto& r : loaded_precision().rows) {
    if (r.vendor != vendor) continue;
    // NVIDIA formats change within an architecture (sm_60 and sm_61; sm_86 and sm_89 share no row), so the
    // capability decides; the others have no capability and are known by architecture.
    const bool hit = vendor == "nvidia" ? !q.compute_capability.empty() && r.cc == q.compute_capability
                                        : !arch.empty() && text::to_lower(r.precision.architecture) == arch;
    if (!hit) continue;
    Precision p = r.precision;
    std::string sm = r.cc;
    std::erase(sm, '.');
    p.basis = vendor == "nvidia" ? fmt::format("sm_{}, {}", sm, p.architecture) : p.architecture;
    return p;
  }
  return std::nullopt;
}

std::string precision_load_error() { return loaded_precision().error; }

}  // namespace gpuscout::catalog
