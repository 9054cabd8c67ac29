#include "plan/cuda_context.hpp"

#include <algorithm>
#include <vector>

#include "core/csv.hpp"
#include "core/data_files.hpp"
#include "core/text.hpp"
#include "core/units.hpp"

namespace gpuscout::plan {
namespace {

struct Row {
  std::string architecture;  ///< "*" for every other one
  uint64_t infer_mib = 0, train_mib = 0;
};

using Loaded = core::LoadedRows<Row>;

Row read_row(csv::CellReader& c) {
  Row row;
  row.architecture = c.text("architecture", csv::Need::required);
  row.infer_mib = c.whole("infer_mib", 1, 1 << 20, csv::Need::required).value_or(0);
  row.train_mib = c.whole("train_mib", 1, 1 << 20, csv::Need::required).value_or(0);
  c.text("source", csv::Need::required);
  c.date("date");
  return row;
}

const Loaded& loaded() {
  static const Loaded l = [] {
    auto out = core::load_rows<Row>("cuda_context.csv", {"architecture", "infer_mib", "train_mib", "source", "date"},
                                    read_row);
    if (out.error.empty() &&
        std::none_of(out.rows.begin(), out.rows.end(), [](const Row& r) { return r.architecture == "*"; }))
      return Loaded{{}, "cuda_context.csv: no \"*\" row for the architectures nobody measured"};
    return out;
  }();
  return l;
}

}  // namespace

uint64_t cuda_context_bytes(std::string_view architecture, bool training) {
  const Row* any = nullptr;
  for (const auto& r : loaded().rows) {
    if (r.architecture == "*") any = &r;
    else if (!architecture.empty() && text::to_lower(r.architecture) == text::to_lower(architecture))
      return (training ? r.train_mib : r.infer_mib) * units::MiB;
  }
  if (any) return (training ? any->train_mib : any->infer_mib) * units::MiB;
  return 512 * units::MiB;  // the table did not load: check_data_override and the tests say why
}

std::string cuda_context_error() { return loaded().error; }

}  // namespace gpuscout::plan
