#include "cli/inventory_source.hpp"

#include "core/error.hpp"
#include "core/i18n.hpp"
#include "inventory/json.hpp"
#include "probe/probe.hpp"

namespace gpuscout::cli {

Inventory obtain_inventory(const InventorySource& source) {
  if (!source.from.empty()) {
    auto inv = load_inventory_file(source.from);
    if (!inv) throw UsageError(inv.error().message);
    return std::move(*inv);
  }
  probe::Options options;
  options.python = source.python;
  options.driver_timeout = std::chrono::milliseconds(static_cast<long long>(source.timeout_s * 1000));
  if (source.timeout_given) options.python_timeout = options.driver_timeout;
  options.python_executable = source.python_executable;
  return probe::collect(options);
}

}  // namespace gpuscout::cli
