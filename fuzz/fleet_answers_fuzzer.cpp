// libFuzzer target: any bytes as what srun or pdsh brought back from the nodes (labelled standard output, then standard
// error after the first NUL byte), then everything `fleet` does with it: the answers as machines, the nodes' error
// lines, the comparison, and the table as text, JSON, Markdown and HTML. A node's answer is another machine's output:
// a clear problem or a correct row, never an exception or a sanitizer report.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fleet/fleet.hpp"
#include "fleet/gather.hpp"
#include "inventory/json.hpp"
#include "report/fleet_render.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpuscout;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t nul = input.find('\0');
  const std::string_view out = input.substr(0, nul);
  const std::string_view err = nul == std::string_view::npos ? std::string_view() : input.substr(nul + 1);
  for (const char* launcher : {"srun", "pdsh"}) {
    auto machines = fleet::machines_from_answers(out, launcher);
    for (const auto& [node, message] : fleet::srun_node_errors(err))
      machines.push_back({node, launcher, std::nullopt, message, std::nullopt});
    for (const auto& [host, message] : fleet::pdsh_host_errors(err))
      machines.push_back({host, launcher, std::nullopt, message, std::nullopt});
    const fleet::Fleet result = fleet::analyse(std::move(machines));
    (void)json_text(fleet::to_json(result));
    (void)report::render_fleet_text(result, {});
    (void)report::render_fleet_markdown(result);
    (void)report::render_fleet_html(result, "2026-12-02T00:00:00Z", "0");
  }
  return 0;
}
