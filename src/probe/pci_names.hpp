#pragma once
/// Vendor and device names from pci.ids. On Linux libpci reads the file (under the sysroot when one is set); the
/// Windows build has no libpci and names nothing here: DXGI gives each adapter its driver's name there.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "inventory/inventory.hpp"

namespace gpuscout::probe {

class PciNames {
 public:
  PciNames();
  ~PciNames();
  PciNames(const PciNames&) = delete;
  PciNames& operator=(const PciNames&) = delete;

  /// The vendor and device names (empty when pci.ids lacks them); after a libpci error, records it once and
  /// answers nothing more.
  std::pair<std::string, std::string> lookup(uint16_t vendor, uint16_t device, std::vector<ProbeError>& errors);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace gpuscout::probe
