#pragma once
/// `gpuscout report --html`: one self-contained page (Chart.js inlined, no network, prints well) with the verdict
/// and its fixes, the inventory, the benchmark, the memory plan and the advice. Formats only: every figure comes
/// from the commands' values passed in here. All text is escaped (report/html_escape.hpp); chart data travels as
/// a JSON data block, and a Content-Security-Policy with a per-page nonce lets only the page's own scripts run.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "advise/advise.hpp"
#include "diagnose/diagnose.hpp"
#include "inventory/inventory.hpp"
#include "report/chart_data.hpp"
#include "report/memory_plan.hpp"

namespace gpuscout::report {

struct HtmlInput {
  Inventory inventory;                  ///< already redacted unless --include-private
  std::string inventory_source;         ///< "probed on this machine", "--from machine.json"
  diagnose::Verdict verdict;
  std::optional<BenchRun> bench;        ///< the benchmark of this machine
  std::string bench_source;             ///< where it came from, or why there is none
  std::vector<BenchRun> compare;        ///< --compare runs, side by side
  MemoryPlans memory;
  std::optional<advise::Advice> advice;
  std::string advice_error;             ///< why there is no advice
  std::string generated_at;             ///< ISO 8601 UTC
  std::string nonce;                    ///< CSP nonce: random per page (letters and digits only)
};

/// Every chart of the page, in page order (tests check what the charts receive through this).
std::vector<ChartSpec> report_charts(const HtmlInput& input);
std::string render_html(const HtmlInput& input);

/// Chart.js, embedded at build time (cmake/EmbedChartJs.cmake).
std::string_view chartjs_source();
std::string_view chartjs_version();

}  // namespace gpuscout::report
