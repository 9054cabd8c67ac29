#pragma once
/// `gpuscout fleet` as text (the terminal), Markdown (to paste) and one HTML page with report's look. Formats only:
/// the table rows and the findings come from fleet::analyse. Machine names stay: in a fleet they are the point.
#include <string>

#include "fleet/fleet.hpp"

namespace gpuscout::report {

struct FleetTextOptions {
  bool color = false;  ///< ANSI colours for the severities
  size_t width = 100;  ///< wrap findings at this many columns
};

std::string render_fleet_text(const fleet::Fleet& fleet, const FleetTextOptions& options);
std::string render_fleet_markdown(const fleet::Fleet& fleet);
/// A self-contained page (no script, no network). `generated_at` is ISO 8601 UTC.
std::string render_fleet_html(const fleet::Fleet& fleet, const std::string& generated_at, const std::string& version);

}  // namespace gpuscout::report
