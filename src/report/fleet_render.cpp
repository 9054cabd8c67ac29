#include "report/fleet_render.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/i18n.hpp"
#include "core/text.hpp"
#include "report/doctor_text.hpp"
#include "report/html_escape.hpp"
#include "report/html_page.hpp"
#include "report/markdown.hpp"

namespace gpuscout::report {
namespace {

std::vector<std::string> table_head() {
  return {tr("machine"), tr("GPUs"), tr("driver"), tr("CUDA"), tr("PyTorch"), tr("verdict")};
}

std::string dash(const std::string& s) { return s.empty() ? std::string("–") : s; }

std::vector<std::vector<std::string>> table_rows(const fleet::Fleet& fleet) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& m : fleet.machines) {
    const auto r = fleet::row_of(m);
    rows.push_back({r.name, m.inventory ? r.gpus : std::string(tr("(no answer)")), dash(r.driver), dash(r.cuda),
                    m.inventory ? dash(r.torch) : dash(""), r.verdict});
  }
  return rows;
}

/// "3 machines: 3 answered, 2 ready"
std::string summary(const fleet::Fleet& fleet) {
  const auto answered = std::ranges::count_if(fleet.machines, [](const auto& m) { return m.inventory.has_value(); });
  const auto ready = std::ranges::count_if(fleet.machines, [](const auto& m) { return m.verdict && m.verdict->status == "ready"; });
  return trf("{} machines: {} answered, {} ready for PyTorch on the GPU", fleet.machines.size(), answered, ready);
}

/// A finding as doctor shows one; a machine's own problem names the machines that have it.
Finding as_finding(const fleet::FleetFinding& f) {
  const bool names_machines = f.code.starts_with("fleet-");
  return {f.code, f.severity, names_machines ? f.message : fmt::format("{}: {}", text::join(f.machines, ", "), f.message),
          f.fix};
}

/// Columns padded to the widest cell (by display width: Chinese characters take two columns).
std::string aligned(const std::vector<std::string>& head, const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width(head.size(), 0);
  const auto measure = [&](const std::vector<std::string>& r) {
    for (size_t i = 0; i < r.size() && i < width.size(); ++i) width[i] = std::max(width[i], text::display_width(r[i]));
  };
  measure(head);
  for (const auto& r : rows) measure(r);
  const auto line = [&](const std::vector<std::string>& r) {
    std::string out;
    for (size_t i = 0; i < r.size(); ++i) {
      out += r[i];
      if (i + 1 < r.size()) out += std::string(width[i] - text::display_width(r[i]) + 2, ' ');
    }
    return out + "\n";
  };
  std::string out = line(head);
  for (const auto& r : rows) out += line(r);
  return out;
}

}  // namespace

std::string render_fleet_text(const fleet::Fleet& fleet, const FleetTextOptions& options) {
  std::string out = summary(fleet) + "\n\n" + aligned(table_head(), table_rows(fleet));
  const TextStyle style{.color = options.color, .detail = false, .width = options.width};
  if (fleet.findings.empty()) return out + "\n" + tr("No difference that matters, and no machine with a problem.") + "\n";
  out += "\n" + std::string(tr("Findings (most urgent first):")) + "\n";
  for (const auto& f : fleet.findings) out += render_finding_text(as_finding(f), style);
  if (const auto* first = fleet::fix_first(fleet))
    out += "\n" + trf("Fix first: {}", text::join(first->machines, ", ")) + "\n  " +
           text::wrap(first->fix, std::max<size_t>(options.width, 40), "  ", 2);
  return out;
}

std::string render_fleet_markdown(const fleet::Fleet& fleet) {
  std::string out = "### " + std::string(tr("gpuscout fleet")) + "\n\n" + escape_markdown(summary(fleet)) + "\n\n";
  const auto head = table_head();
  std::vector<std::string> cells;
  for (const auto& c : head) cells.push_back(escape_markdown(c));
  out += "| " + text::join(cells, " | ") + " |\n|";
  for (size_t i = 0; i < head.size(); ++i) out += " --- |";
  out += "\n";
  for (const auto& r : table_rows(fleet)) {
    cells.clear();
    for (const auto& c : r) cells.push_back(escape_markdown(c));
    out += "| " + text::join(cells, " | ") + " |\n";
  }
  if (const auto* first = fleet::fix_first(fleet))
    out += "\n**" + escape_markdown(tr("Fix first:")) + "** " + escape_markdown(text::join(first->machines, ", ")) +
           ": " + escape_markdown(first->fix) + "\n";
  if (!fleet.findings.empty()) out += "\n" + escape_markdown(tr("Findings (most urgent first):")) + "\n\n";
  for (const auto& f : fleet.findings) {
    const Finding shown = as_finding(f);
    out += fmt::format("- **{}** `{}`: {}\n  - {} {}\n", escape_markdown(shown.severity), shown.code,
                       escape_markdown(shown.message), escape_markdown(tr("fix:")), escape_markdown(shown.fix));
  }
  return out;
}

std::string render_fleet_html(const fleet::Fleet& fleet, const std::string& generated_at, const std::string& version) {
  const auto h = [](std::string_view s) { return escape_html(s); };
  std::string page = html_page_start(trf("gpuscout fleet: {} machines", fleet.machines.size()), version, "");
  page += "<header>\n<h1>" + h(tr("gpuscout fleet")) + "</h1>\n";
  page += "<p class=\"meta\">" + h(trf("Generated {} by gpuscout {}.", generated_at, version)) + " " + h(summary(fleet)) +
          "</p>\n</header>\n";
  if (const auto* first = fleet::fix_first(fleet)) {
    page += "<section id=\"fix-first\">\n<h2>" + h(tr("Fix first")) + "</h2>\n";
    page += fmt::format("<p class=\"status {}\">{}</p>\n", first->severity == "error" ? "bad" : "warn",
                        h(text::join(first->machines, ", ")));
    page += "<p>" + code_spans(h(first->fix)) + "</p>\n</section>\n";
  }
  page += "<section id=\"machines\">\n<h2>" + h(tr("Machines")) + "</h2>\n" +
          html_table(table_head(), table_rows(fleet)) + "</section>\n";
  page += "<section id=\"findings\">\n<h2>" + h(tr("Findings")) + "</h2>\n";
  if (fleet.findings.empty()) {
    page += "<p>" + h(tr("No difference that matters, and no machine with a problem.")) + "</p>\n";
  } else {
    page += "<table class=\"findings\"><thead><tr><th>" + h(tr("severity")) + "</th><th>" + h(tr("code")) +
            "</th><th>" + h(tr("what is wrong")) + "</th><th>" + h(tr("fix")) + "</th></tr></thead><tbody>\n";
    for (const auto& f : fleet.findings) {
      const Finding shown = as_finding(f);
      page += fmt::format("<tr class=\"{0}\"><td>{0}</td><td><code>{1}</code></td><td>{2}</td><td>{3}</td></tr>\n",
                          h(shown.severity), h(shown.code), code_spans(h(shown.message)), code_spans(h(shown.fix)));
    }
    page += "</tbody></table>\n";
  }
  page += "</section>\n<footer>" +
          h(tr("Each machine's verdict is what `gpuscout doctor` says on it; run it there for the details.")) +
          "</footer>\n</body>\n</html>\n";
  return page;
}

}  // namespace gpuscout::report
