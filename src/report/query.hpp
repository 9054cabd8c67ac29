#pragma once
/// `gpuscout query`: chosen facts as CSV lines, in nvidia-smi's conventions so that scripts written for
/// `nvidia-smi --query-gpu=name,memory.total --format=csv,noheader,nounits` read gpuscout's answer unchanged
/// (docs/query.md). Pure: an Inventory (or its JSON document) in, text out.
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "inventory/inventory.hpp"
#include "inventory/json.hpp"

namespace gpuscout::report {

/// --format=csv[,noheader][,nounits]: a header line first unless `noheader`; units after the values ("8192 MiB",
/// "35.00 W", "3 %") unless `nounits`.
struct QueryFormat {
  bool header = true;
  bool units = true;
};
Result<QueryFormat> parse_query_format(std::string_view text);

/// The names of a comma-separated list, spaces around each trimmed; an empty name is an error.
Result<std::vector<std::string>> parse_field_list(std::string_view text);

/// --query-gpu: one line per GPU that nvidia-smi lists (NVIDIA, seen by NVML), in PCI order, the values joined by
/// ", " and an unknown value written "[N/A]". A field is one of nvidia-smi's names (or its aliases, printed under
/// the main name) or a key of the inventory's gpus[] objects. The error names an unknown field as nvidia-smi does.
Result<std::string> render_gpu_query(const Inventory& inv, const std::vector<std::string>& fields, QueryFormat format);

/// --query: one line of values picked from the inventory document by dotted paths ("cpu.model",
/// "memory.total_bytes", "disks.0.free_bytes", "torch.version"); a path must end at a single value.
Result<std::string> render_inventory_query(const Json& doc, const std::vector<std::string>& paths, QueryFormat format);

}  // namespace gpuscout::report
