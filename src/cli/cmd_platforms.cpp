// platforms: free tiers and paid rentals in one table, cheapest first, with limits and the steps to get a GPU.
#include "advise/advise.hpp"
#include "catalog/gpu_match.hpp"
#include "cli/commands.hpp"
#include "cli/gpu_option.hpp"
#include "cli/inventory_source.hpp"
#include "cli/output.hpp"
#include "cli/usage.hpp"
#include "core/error.hpp"
#include "core/i18n.hpp"
#include "report/platforms_render.hpp"

namespace gpuscout::cli {
namespace {

struct PlatformsOptions {
  std::string gpu, from, region;
  bool json = false;
  bool no_probe = false;
};

}  // namespace

void add_platforms_command(CLI::App& app, GlobalOptions& global) {
  auto* sub = app.add_subcommand("platforms", tr("Free and paid places to get a GPU, cheapest first, with limits and steps"));
  auto o = std::make_shared<PlatformsOptions>();
  sub->add_option("--gpu", o->gpu, tr("Only offers of this GPU (as nvidia-smi names it, or a catalogue name: T4, A100 80GB, RTX 4090)"));
  sub->add_option("--region", o->region, tr("cn | global: this region's offers first (default: cn in Chinese, else global)"));
  sub->add_option("--from", o->from, tr("Read a saved `gpuscout info --json` instead of probing this machine"))->type_name("FILE");
  sub->add_flag("--no-probe", o->no_probe, tr("Do not look at this machine"));
  sub->add_flag("--json", o->json, tr("Print JSON"));
  sub->callback([o, &global] {
    const std::string region = o->region.empty() ? advise::default_region() : usage(advise::parse_region(o->region));
    const auto rates = usage(advise::load_rates());
    auto offers = usage(advise::load_offers(rates));
    if (!o->gpu.empty()) {
      const auto* want = catalog_gpu(o->gpu).spec;
      std::erase_if(offers, [&](const advise::Offer& x) {
        const auto m = catalog::match_gpu({.name = x.gpu});
        return !m || m->spec != want;
      });
    }
    advise::order_for_region(offers, region);
    std::optional<Inventory> inv;
    if (!o->from.empty() || !o->no_probe) inv = obtain_inventory({o->from, /*python=*/false});
    const Inventory* here = inv ? &*inv : nullptr;
    print(o->json ? report::platforms_json(offers, here).dump(2) + "\n" : report::render_platforms_text(offers, here, advise::display_for("USD", rates), region));
    global.exit_code = 0;
  });
}

}  // namespace gpuscout::cli
