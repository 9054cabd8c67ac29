// platforms: free tiers and paid rentals in one table, cheapest first, with limits and the steps to get a GPU.
#include "advise/advise.hpp"
#include "catalog/gpu_match.hpp"
#include "cli/commands.hpp"
#include "cli/gpu_option.hpp"
#include "cli/inventory_source.hpp"
#include "cli/output.hpp"
#include "core/error.hpp"
#include "report/platforms_render.hpp"

namespace gpuscout::cli {
namespace {

struct PlatformsOptions {
  std::string gpu, from;
  bool json = false;
  bool no_probe = false;
};

}  // namespace

void add_platforms_command(CLI::App& app, GlobalOptions& global) {
  auto* sub = app.add_subcommand("platforms", "Free and paid places to get a GPU, cheapest first, with limits and steps");
  auto o = std::make_shared<PlatformsOptions>();
  sub->add_option("--gpu", o->gpu, "Only offers of this GPU (as nvidia-smi names it, or a catalogue name: T4, A100 80GB, RTX 4090)");
  sub->add_option("--from", o->from, "Read a saved `gpuscout info --json` instead of probing this machine");
  sub->add_flag("--no-probe", o->no_probe, "Do not look at this machine");
  sub->add_flag("--json", o->json, "Print JSON");
  sub->callback([o, &global] {
    auto offers_r = advise::load_offers();
    if (!offers_r) throw UsageError(offers_r.error().message);
    auto offers = std::move(*offers_r);
    if (!o->gpu.empty()) {
      const auto* want = catalog_gpu(o->gpu).spec;
      std::erase_if(offers, [&](const advise::Offer& x) {
        const auto m = catalog::match_gpu({.name = x.gpu});
        return !m || m->spec != want;
      });
    }
    advise::sort_cheapest_first(offers);
    std::optional<Inventory> inv;
    if (!o->from.empty() || !o->no_probe) inv = obtain_inventory({o->from, /*python=*/false});
    const Inventory* here = inv ? &*inv : nullptr;
    print(o->json ? report::platforms_json(offers, here).dump(2) + "\n" : report::render_platforms_text(offers, here));
    global.exit_code = 0;
  });
}

}  // namespace gpuscout::cli
