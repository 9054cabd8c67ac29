#include "diagnose/driver_route.hpp"

#include "core/i18n.hpp"

namespace gpuscout::diagnose {

const catalog::DriverRoute* distro_driver_route(const Inventory& inv) {
  if (inv.os.family != "linux" || inv.os.wsl || inv.os.container || inv.platform.notebook || !inv.os.id) return nullptr;
  return catalog::find_driver_route(*inv.os.id, inv.os.version_id.value_or(""));
}

bool own_machine(const Inventory& inv) {
  if (inv.platform.notebook || inv.os.container) return false;
  if (inv.os.family == "windows" || inv.os.wsl) return true;
  return inv.platform.kind == "desktop" || inv.platform.kind == "laptop" || inv.platform.kind == "wsl";
}

Step driver_step(const Inventory& inv, const std::string& driver, bool update) {
  Step s;
  s.kind = "driver";
  s.root = true;
  if (inv.os.family == "windows") {
    s.action = trf("Install {} from https://www.nvidia.com/Download/index.aspx (or through the NVIDIA App): the Game "
                   "Ready driver, or the Studio driver if you also use the PC for creative work (it is updated less "
                   "often, for stability); both run CUDA. Then restart Windows.",
                   driver);
    s.changes = tr("replaces the NVIDIA driver of Windows");
    s.reboot = true;
    return s;
  }
  if (inv.os.wsl) {
    // WSL's GPU is the Windows driver's: a Linux NVIDIA driver installed inside WSL replaces the libraries Windows
    // provides and breaks CUDA there.
    s.action = trf("In Windows (not inside WSL), install {} from https://www.nvidia.com/Download/index.aspx or the "
                   "NVIDIA App, then run `wsl --shutdown` in PowerShell and open WSL again. Never install a Linux "
                   "NVIDIA driver inside WSL: WSL gets its GPU from the Windows driver.",
                   driver);
    s.changes = tr("replaces the NVIDIA driver of Windows; WSL uses it after its restart");
    s.reboot = true;
    return s;
  }
  if (inv.os.container) {
    s.action = trf("The driver belongs to the host this container runs on: ask whoever runs it to install {}.", driver);
    s.changes = tr("the host's NVIDIA driver");
    s.root = false;
    return s;
  }
  s.reboot = true;
  s.changes = update ? tr("replaces the NVIDIA driver (and its kernel module)") : tr("installs the NVIDIA driver and its kernel module");
  if (const auto* route = distro_driver_route(inv)) {
    s.command = route->command;
    s.action = route->prerequisite.empty()
                   ? trf("Install {} with your distribution's package, then reboot.", driver)
                   : trf("{} Then install {} with your distribution's package, and reboot.", tr(route->prerequisite), driver);
    return s;
  }
  s.action = trf("Install {} with your distribution's packages (or NVIDIA's installer from "
                 "https://www.nvidia.com/Download/index.aspx), then reboot.",
                 driver);
  return s;
}

}  // namespace gpuscout::diagnose
