#pragma once
/// PCI bus ids in the two forms people meet: ours ("0000:01:00.0", sysfs and lspci: lower-case hex, 4-digit domain)
/// and nvidia-smi's ("00000000:01:00.0", NVML and `nvidia-smi --query-gpu=pci.bus_id`: upper-case hex, 8-digit
/// domain). Scripts that parse nvidia-smi compare the second form, so the inventory carries both.
#include <optional>
#include <string>
#include <string_view>

namespace gpuscout {

/// "0000:01:00.0" -> "00000000:01:00.0"; any domain width and case in, nullopt when the text is no bus id
/// (DOMAIN:BUS:DEVICE.FUNCTION in hex, domain up to 8 digits, bus and device up to 2, function 1).
std::optional<std::string> nvidia_smi_bus_id(std::string_view bus_id);

}  // namespace gpuscout
