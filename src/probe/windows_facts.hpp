#pragma once
/// The facts the Windows probes read, kept raw: numbers and strings as the Win32 APIs give them
/// (RtlGetVersion, the registry, GetLogicalProcessorInformationEx, cpuid, GlobalMemoryStatusEx, the logical
/// drives, GetSystemPowerStatus, SMBIOS, DXGI). Live on Windows `live_facts()` fills them; a recorded Windows
/// machine is the same struct as JSON (`windows.json` in a sysroot), read on every OS. `fill_inventory` turns
/// them into the Inventory, so the Linux build replays recorded Windows machines exactly as the .exe sees them.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/error.hpp"
#include "inventory/inventory.hpp"

namespace gpuscout::probe::windows {

/// RtlGetVersion's RTL_OSVERSIONINFOW (GetVersionEx lies to programs without a manifest; this does not).
struct OsVersion {
  uint32_t major = 0, minor = 0, build = 0;
};

/// HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion and HKLM\SYSTEM\CurrentControlSet\Control\FileSystem.
struct Registry {
  std::optional<uint32_t> ubr;                    ///< UBR: the update build revision (4061 of 26100.4061)
  std::optional<std::string> display_version;     ///< DisplayVersion "24H2" (20H2 and later)
  std::optional<std::string> release_id;          ///< ReleaseId "2009" (older builds; frozen since 20H2)
  std::optional<std::string> edition_id;          ///< EditionID "Professional", "Core"
  std::optional<std::string> product_name;        ///< ProductName: still "Windows 10 Pro" on Windows 11
  std::optional<uint32_t> long_paths_enabled;     ///< LongPathsEnabled (absent = off)
  std::optional<uint32_t> processor_mhz;          ///< HARDWARE\DESCRIPTION\System\CentralProcessor\0 "~MHz"
};

/// A GROUP_AFFINITY: which logical processors of one processor group.
struct GroupMask {
  uint16_t group = 0;
  uint64_t mask = 0;
};

/// RelationProcessorCore: one physical core.
struct CoreRecord {
  uint8_t flags = 0;             ///< LTP_PC_SMT (1): the core runs more than one logical processor
  uint8_t efficiency_class = 0;  ///< higher = faster (P-cores 1, E-cores 0 on Intel hybrid)
  std::vector<GroupMask> masks;
};

/// RelationCache: CACHE_RELATIONSHIP.
struct CacheRecord {
  uint8_t level = 0;
  uint8_t associativity = 0;
  uint16_t line_size = 0;
  uint32_t size = 0;   ///< bytes
  uint32_t type = 0;   ///< PROCESSOR_CACHE_TYPE: 0 Unified, 1 Instruction, 2 Data, 3 Trace
  std::vector<GroupMask> masks;
};

/// RelationGroup: one PROCESSOR_GROUP_INFO.
struct GroupRecord {
  uint8_t maximum_processors = 0, active_processors = 0;
  uint64_t active_mask = 0;
};

struct Processors {
  std::vector<CoreRecord> cores;
  std::vector<std::vector<GroupMask>> packages;  ///< RelationProcessorPackage: each socket's masks
  std::vector<CacheRecord> caches;
  std::vector<GroupRecord> groups;
};

/// What cpuid says (vendor/cpuid), as gpuscout derives it.
struct Cpuid {
  std::optional<std::string> vendor;   ///< leaf 0: "GenuineIntel"
  std::optional<std::string> brand;    ///< leaves 0x80000002-4, leading spaces trimmed
  std::vector<std::string> features;   ///< cpuid::dl_features: what the CPU has and the OS saves
  bool hypervisor_present = false;     ///< leaf 1 ECX bit 31
  std::optional<std::string> hypervisor_vendor;  ///< leaf 0x40000000 ("Microsoft Hv")
  /// Leaf 0x40000003 EBX (Hyper-V's partition privileges). Bit 0, CreatePartitions, is set only in the root
  /// partition: a Windows host with VBS, WSL2 or Hyper-V runs above Hyper-V and still owns the hardware.
  std::optional<uint32_t> hyperv_privileges_ebx;
};

/// MEMORYSTATUSEX.
struct MemoryStatus {
  uint32_t memory_load = 0;
  uint64_t total_phys = 0, avail_phys = 0;
  uint64_t total_page_file = 0, avail_page_file = 0;  ///< the commit limit: RAM plus the page files
  uint64_t total_virtual = 0, avail_virtual = 0;
};

/// One logical drive of GetLogicalDriveStringsW.
struct Drive {
  std::string root;                       ///< "C:\"
  uint32_t type = 0;                      ///< GetDriveTypeW: 2 removable, 3 fixed, 4 remote, 5 CD-ROM, 6 RAM disk
  std::optional<std::string> file_system; ///< GetVolumeInformationW: "NTFS"
  std::optional<std::string> label;       ///< the volume label
  std::optional<uint64_t> total_bytes, free_bytes, available_bytes;  ///< GetDiskFreeSpaceExW
};

/// System information decoded from the SMBIOS table (types 1 and 3; serials and UUIDs never kept).
struct Smbios {
  std::optional<std::string> manufacturer;  ///< type 1 Manufacturer
  std::optional<std::string> product;       ///< type 1 Product Name
  std::optional<int> chassis_type;          ///< type 3 Type, lock bit masked
};

/// DXGI_ADAPTER_DESC1 plus where the adapter sits and its display driver's version.
struct Adapter {
  std::string description;
  uint32_t vendor_id = 0, device_id = 0, subsys_id = 0, revision = 0;
  uint64_t dedicated_video_memory = 0, dedicated_system_memory = 0, shared_system_memory = 0;
  int32_t luid_high = 0;
  uint32_t luid_low = 0;
  uint32_t flags = 0;  ///< DXGI_ADAPTER_FLAG_SOFTWARE = 2
  std::optional<uint32_t> pci_bus, pci_device, pci_function;
  std::optional<std::string> driver_version;  ///< the display driver key's DriverVersion "32.0.15.8157"
};

struct Facts {
  OsVersion version;
  Registry registry;
  std::optional<std::string> processor_architecture;  ///< PROCESSOR_ARCHITECTURE: AMD64, ARM64, x86
  Processors processors;
  Cpuid cpuid;
  std::optional<MemoryStatus> memory;
  std::vector<Drive> drives;
  std::optional<uint8_t> battery_flag;  ///< GetSystemPowerStatus: 128 no system battery, 255 unknown
  Smbios smbios;
  std::vector<Adapter> adapters;
  std::vector<ProbeError> errors;  ///< APIs that failed; `source` names the Inventory section (cpu, os, ...)
};

inline constexpr uint32_t kAdapterFlagSoftware = 2;
inline constexpr uint32_t kDriveFixed = 3;

/// A recorded machine's facts (windows.json). Untrusted: every field is checked, and a wrong type, a number out of
/// range or text that is not UTF-8 is an error naming the field ("adapters[1].vendor_id: ...").
Result<Facts> read_recorded_facts(std::string_view json_text);
/// The JSON form read_recorded_facts reads back (for recording a machine).
nlohmann::json to_json(const Facts& facts);

/// SMBIOS structures (the table GetSystemFirmwareTable('RSMB') returns after its 8-byte RawSMBIOSData header, or
/// /sys/firmware/dmi/tables/DMI): system manufacturer and product (type 1) and chassis type (type 3). Bounded:
/// a truncated or malformed table yields what was read before the damage.
Smbios parse_smbios(std::string_view table);
/// The same from RawSMBIOSData as GetSystemFirmwareTable returns it (the header's length checked).
Smbios parse_raw_smbios_data(std::string_view raw);

/// The buffer GetLogicalProcessorInformationEx(RelationAll) fills: SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX records
/// read at the SDK's offsets (EfficiencyClass and the caches' GroupCount are newer than some headers). Bounded: a
/// record that overruns the buffer ends the list.
Processors parse_processor_records(std::string_view buffer);

/// NVIDIA's form of a Windows display driver version: "32.0.15.8157" -> "581.57" (the last five digits of the last
/// two fields). nullopt when the text is not four numeric fields or the last is out of range.
std::optional<std::string> nvidia_driver_version(std::string_view windows_version);

/// "Windows 11 Pro 24H2": ProductName corrected for Windows 11 (build 22000 and later keep "Windows 10" there),
/// with the display version.
std::string pretty_name(const Facts& facts);

/// CPU, memory, disks, OS, platform and GPUs of the Inventory from the facts (and fill_nvidia). Pure.
void fill_inventory(const Facts& facts, Inventory& inventory);
/// The NVIDIA adapter's display driver version: `windows_driver_version` always, `driver_version` (NVIDIA's form)
/// where NVML has not given one. Called again after NVML's answer replaced the section.
void fill_nvidia(const Facts& facts, NvidiaInfo& nvidia);

/// The facts to use in this run: a recorded machine's (`windows.json` under GPUSCOUT_SYSROOT, read through the
/// sysroot seam) on any OS; the live machine's on Windows; nullopt otherwise (the Linux probes run). A recording that
/// cannot be read still yields (empty) facts, with the reason in `errors`: it is a Windows machine all the same.
std::optional<Facts> facts_for_this_run(std::vector<ProbeError>& errors);

/// The live machine through the Win32 APIs (src/probe/windows/live_facts.cpp; Windows builds only).
Facts live_facts();

}  // namespace gpuscout::probe::windows
