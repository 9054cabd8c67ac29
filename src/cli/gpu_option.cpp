#include "cli/gpu_option.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/i18n.hpp"

namespace gpuscout::cli {

catalog::GpuMatch catalog_gpu(std::string_view name, std::string_view otherwise) {
  if (auto m = catalog::match_gpu({.name = name})) return *m;
  throw UsageError(trf("--gpu '{}' is not in the GPU catalogue{}{}", name, catalog::did_you_mean(name),
                               otherwise));
}

}  // namespace gpuscout::cli
