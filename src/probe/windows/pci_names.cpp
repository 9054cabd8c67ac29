// Windows has no libpci here: DXGI's adapter description is the name (probe/windows_facts), so a replayed Linux
// sysroot's PCI devices are named by their ids alone.
#include "probe/pci_names.hpp"

namespace gpuscout::probe {

struct PciNames::State {};

PciNames::PciNames() : state_(std::make_unique<State>()) {}
PciNames::~PciNames() = default;

std::pair<std::string, std::string> PciNames::lookup(uint16_t, uint16_t, std::vector<ProbeError>&) { return {}; }

}  // namespace gpuscout::probe
