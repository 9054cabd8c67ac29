#pragma once
/// How this machine gets an NVIDIA driver: a distribution's package (data/driver_routes.csv), NVIDIA's installer on
/// Windows, the Windows driver for WSL (never a Linux driver inside WSL), the host's driver for a container. One
/// place decides it; the rules' fixes and the plan's driver step both show what it returns.
#include <string>

#include "catalog/catalog.hpp"
#include "diagnose/diagnose.hpp"
#include "inventory/inventory.hpp"

namespace gpuscout::diagnose {

/// The distribution's driver package for this machine: nullptr on Windows, under WSL, in a container, on a hosted
/// notebook, or on a distribution the table does not know.
const catalog::DriverRoute* distro_driver_route(const Inventory& inventory);

/// The user's own machine, where they can change the driver themselves: a desktop, a laptop, Windows or WSL (not a
/// container, a cloud VM, a cluster node or a hosted notebook).
bool own_machine(const Inventory& inventory);

/// The step that gets `driver` ("a driver of at least 580.65.06 (for CUDA 13.0 PyTorch wheels)") onto this
/// machine, kind "driver". `update`: a driver is there and needs replacing, rather than none installed.
Step driver_step(const Inventory& inventory, const std::string& driver, bool update);

}  // namespace gpuscout::diagnose
