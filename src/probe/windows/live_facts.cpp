// The live Windows machine: each fact from the Win32 API that owns it, every buffer size checked, every failure a
// ProbeError in the facts (never an exception). No link-time dependency beyond kernel32 and advapi32: DXGI, gdi32's
// D3DKMT calls and ntdll's RtlGetVersion are resolved at run time from System32.
#include <windows.h>

#include <dxgi.h>

#include <memory>

#include <fmt/format.h>

#include "core/text.hpp"
#include "core/windows_text.hpp"
#include "probe/windows_facts.hpp"
#include "vendor/cpuid.hpp"

namespace gpuscout::probe::windows {
namespace {

void add_error(Facts& f, const char* source, std::string what, DWORD code) {
  f.errors.push_back({source, std::move(what), fmt::format("Windows error {}", code), static_cast<int>(code)});
}

/// A function of a System32 DLL, or nullptr. The DLL stays loaded for the process (these are system DLLs).
template <typename Fn>
Fn system_function(const wchar_t* dll, const char* name) {
  HMODULE module = GetModuleHandleW(dll);
  if (!module) module = LoadLibraryExW(dll, nullptr, LOAD_LIBRARY_SEARCH_SYSTEM32);
  if (!module) return nullptr;
  return reinterpret_cast<Fn>(reinterpret_cast<void (*)()>(GetProcAddress(module, name)));
}

// --- Version and registry --------------------------------------------------------------------------------------------

constexpr const wchar_t* kCurrentVersion = L"SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion";

std::optional<uint32_t> registry_dword(const wchar_t* key, const wchar_t* value) {
  DWORD data = 0, size = sizeof data;
  if (RegGetValueW(HKEY_LOCAL_MACHINE, key, value, RRF_RT_REG_DWORD, nullptr, &data, &size) != ERROR_SUCCESS)
    return std::nullopt;
  return static_cast<uint32_t>(data);
}

std::optional<std::string> registry_string(const wchar_t* key, const wchar_t* value) {
  wchar_t data[512];
  DWORD size = sizeof data;  // bytes; RegGetValueW NUL-terminates within it or fails with ERROR_MORE_DATA
  if (RegGetValueW(HKEY_LOCAL_MACHINE, key, value, RRF_RT_REG_SZ, nullptr, data, &size) != ERROR_SUCCESS)
    return std::nullopt;
  const size_t chars = size / sizeof(wchar_t);
  std::string out = core::from_utf16(std::wstring_view(data, chars > 0 ? chars - 1 : 0));
  if (out.empty()) return std::nullopt;
  return text::clean_utf8(out);
}

void read_version(Facts& f) {
  using RtlGetVersionFn = LONG(WINAPI*)(PRTL_OSVERSIONINFOW);
  auto rtl_get_version = system_function<RtlGetVersionFn>(L"ntdll.dll", "RtlGetVersion");
  RTL_OSVERSIONINFOW v{};
  v.dwOSVersionInfoSize = sizeof v;
  if (rtl_get_version && rtl_get_version(&v) == 0) f.version = {v.dwMajorVersion, v.dwMinorVersion, v.dwBuildNumber};
  else f.errors.push_back({"os", "RtlGetVersion", "not available", std::nullopt});
  Registry& r = f.registry;
  r.ubr = registry_dword(kCurrentVersion, L"UBR");
  r.display_version = registry_string(kCurrentVersion, L"DisplayVersion");
  r.release_id = registry_string(kCurrentVersion, L"ReleaseId");
  r.edition_id = registry_string(kCurrentVersion, L"EditionID");
  r.product_name = registry_string(kCurrentVersion, L"ProductName");
  // Absent means off (the default); the key itself is always there.
  r.long_paths_enabled =
      registry_dword(L"SYSTEM\\CurrentControlSet\\Control\\FileSystem", L"LongPathsEnabled").value_or(0);
  r.processor_mhz = registry_dword(L"HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0", L"~MHz");
}

// --- CPU -------------------------------------------------------------------------------------------------------------

std::string machine_name(USHORT machine) {
  switch (machine) {
    case IMAGE_FILE_MACHINE_AMD64: return "AMD64";
    case 0xAA64: return "ARM64";  // IMAGE_FILE_MACHINE_ARM64
    case IMAGE_FILE_MACHINE_I386: return "x86";
    default: return fmt::format("0x{:04X}", machine);
  }
}

/// The machine's own architecture, not the emulated one this process may run as (x64 on ARM64).
std::optional<std::string> processor_architecture() {
  using IsWow64Process2Fn = BOOL(WINAPI*)(HANDLE, USHORT*, USHORT*);
  if (auto is_wow64_process2 = system_function<IsWow64Process2Fn>(L"kernel32.dll", "IsWow64Process2")) {
    USHORT process = 0, native = 0;
    if (is_wow64_process2(GetCurrentProcess(), &process, &native)) return machine_name(native);
  }
  SYSTEM_INFO info{};
  GetNativeSystemInfo(&info);
  switch (info.wProcessorArchitecture) {
    case PROCESSOR_ARCHITECTURE_AMD64: return "AMD64";
    case 12: return "ARM64";  // PROCESSOR_ARCHITECTURE_ARM64
    case PROCESSOR_ARCHITECTURE_INTEL: return "x86";
    default: return std::nullopt;
  }
}

void read_processors(Facts& f) {
  DWORD length = 0;
  GetLogicalProcessorInformationEx(RelationAll, nullptr, &length);
  constexpr DWORD kMax = 16u << 20;
  if (GetLastError() != ERROR_INSUFFICIENT_BUFFER || length == 0 || length > kMax) {
    add_error(f, "cpu", "GetLogicalProcessorInformationEx", GetLastError());
    return;
  }
  // The records hold 8-byte masks: an 8-byte-aligned buffer.
  std::unique_ptr<uint64_t[]> buffer(new uint64_t[(length + 7) / 8]);
  if (!GetLogicalProcessorInformationEx(RelationAll, reinterpret_cast<PSYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX>(buffer.get()),
                                        &length)) {
    add_error(f, "cpu", "GetLogicalProcessorInformationEx", GetLastError());
    return;
  }
  f.processors = parse_processor_records(std::string_view(reinterpret_cast<const char*>(buffer.get()), length));
}

void read_cpuid(Facts& f) {
  const auto& native = vendor::cpuid::native();
  Cpuid& c = f.cpuid;
  c.vendor = vendor::cpuid::vendor_string(native);
  c.brand = vendor::cpuid::brand_string(native);
  c.features = vendor::cpuid::dl_features(native);
  if (!native.query) return;
  const auto l1 = native.query(1, 0);
  c.hypervisor_present = l1 && ((l1->ecx >> 31) & 1u);
  c.hypervisor_vendor = vendor::cpuid::hypervisor_signature(native);
  if (c.hypervisor_vendor == "Microsoft Hv")
    if (const auto features = native.query(0x40000003u, 0)) c.hyperv_privileges_ebx = features->ebx;
}

// --- Memory, drives, power, firmware ---------------------------------------------------------------------------------

void read_memory(Facts& f) {
  MEMORYSTATUSEX m{};
  m.dwLength = sizeof m;
  if (!GlobalMemoryStatusEx(&m)) return add_error(f, "memory", "GlobalMemoryStatusEx", GetLastError());
  f.memory = MemoryStatus{m.dwMemoryLoad,     m.ullTotalPhys,     m.ullAvailPhys,   m.ullTotalPageFile,
                          m.ullAvailPageFile, m.ullTotalVirtual, m.ullAvailVirtual};
}

void read_drive(Facts& f, const std::wstring& root) {
  Drive d;
  d.root = core::from_utf16(root);
  d.type = GetDriveTypeW(root.c_str());
  // Sizes and names only for fixed drives: a network drive can hang, an empty card reader asks for a disk.
  if (d.type == kDriveFixed) {
    wchar_t label[MAX_PATH + 1] = {0}, fs[MAX_PATH + 1] = {0};
    if (GetVolumeInformationW(root.c_str(), label, MAX_PATH + 1, nullptr, nullptr, nullptr, fs, MAX_PATH + 1)) {
      d.label = text::clean_utf8(core::from_utf16(label));
      d.file_system = text::clean_utf8(core::from_utf16(fs));
    }
    ULARGE_INTEGER avail{}, total{}, free{};
    if (GetDiskFreeSpaceExW(root.c_str(), &avail, &total, &free)) {
      d.available_bytes = avail.QuadPart;
      d.total_bytes = total.QuadPart;
      d.free_bytes = free.QuadPart;
    } else {
      add_error(f, "disks", "GetDiskFreeSpaceExW(" + d.root + ")", GetLastError());
    }
  }
  f.drives.push_back(std::move(d));
}

void read_drives(Facts& f) {
  wchar_t roots[27 * 4 + 1] = {0};  // "C:\<NUL>" for each of 26 letters, and the final NUL
  const DWORD n = GetLogicalDriveStringsW(static_cast<DWORD>(std::size(roots) - 1), roots);
  if (n == 0 || n >= std::size(roots)) return add_error(f, "disks", "GetLogicalDriveStringsW", GetLastError());
  const UINT old_mode = SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX);
  for (const wchar_t* p = roots; *p && p < roots + n; p += wcslen(p) + 1) read_drive(f, p);
  SetErrorMode(old_mode);
}

void read_power_and_firmware(Facts& f) {
  SYSTEM_POWER_STATUS power{};
  if (GetSystemPowerStatus(&power)) f.battery_flag = power.BatteryFlag;
  else add_error(f, "platform", "GetSystemPowerStatus", GetLastError());
  constexpr DWORD kRsmb = 'R' << 24 | 'S' << 16 | 'M' << 8 | 'B';
  const UINT size = GetSystemFirmwareTable(kRsmb, 0, nullptr, 0);
  if (size == 0 || size > (1u << 20)) return add_error(f, "platform", "GetSystemFirmwareTable(RSMB)", GetLastError());
  std::string raw(size, '\0');
  if (GetSystemFirmwareTable(kRsmb, 0, raw.data(), size) != size)
    return add_error(f, "platform", "GetSystemFirmwareTable(RSMB)", GetLastError());
  f.smbios = parse_raw_smbios_data(raw);
}

// --- DXGI ------------------------------------------------------------------------------------------------------------

/// Releases a COM interface at scope end.
template <typename T>
struct Com {
  T* p = nullptr;
  ~Com() {
    if (p) p->Release();
  }
};

// gdi32's D3DKMT calls, declared here as the WDK's d3dkmthk.h has them (that header is not in mingw-w64).
struct KmtOpenFromLuid {
  LUID luid;
  UINT adapter;
};
struct KmtQueryInfo {
  UINT adapter;
  UINT type;
  void* data;
  UINT size;
};
struct KmtAdapterAddress {
  UINT bus, device, function;
};
constexpr UINT kKmtQaiAdapterAddress = 6;  // KMTQAITYPE_ADAPTERADDRESS

void read_location(Facts& f, Adapter& a, LUID luid) {
  using OpenFn = LONG(APIENTRY*)(KmtOpenFromLuid*);
  using QueryFn = LONG(APIENTRY*)(const KmtQueryInfo*);
  using CloseFn = LONG(APIENTRY*)(const UINT*);
  static const auto open = system_function<OpenFn>(L"gdi32.dll", "D3DKMTOpenAdapterFromLuid");
  static const auto query = system_function<QueryFn>(L"gdi32.dll", "D3DKMTQueryAdapterInfo");
  static const auto close = system_function<CloseFn>(L"gdi32.dll", "D3DKMTCloseAdapter");
  if (!open || !query || !close) return;
  KmtOpenFromLuid o{luid, 0};
  if (const LONG status = open(&o); status != 0)
    return f.errors.push_back({"dxgi", "D3DKMTOpenAdapterFromLuid", fmt::format("NTSTATUS 0x{:08X}", ULONG(status)), std::nullopt});
  KmtAdapterAddress address{};
  const KmtQueryInfo q{o.adapter, kKmtQaiAdapterAddress, &address, sizeof address};
  if (query(&q) == 0) {
    a.pci_bus = address.bus;
    a.pci_device = address.device;
    a.pci_function = address.function;
  }
  close(&o.adapter);
}

Adapter adapter_of(Facts& f, IDXGIAdapter1* adapter, const DXGI_ADAPTER_DESC1& d) {
  Adapter a;
  a.description = text::clean_utf8(core::from_utf16(std::wstring_view(d.Description, wcsnlen(d.Description, 128))));
  a.vendor_id = d.VendorId;
  a.device_id = d.DeviceId;
  a.subsys_id = d.SubSysId;
  a.revision = d.Revision;
  a.dedicated_video_memory = d.DedicatedVideoMemory;
  a.dedicated_system_memory = d.DedicatedSystemMemory;
  a.shared_system_memory = d.SharedSystemMemory;
  a.luid_high = d.AdapterLuid.HighPart;
  a.luid_low = d.AdapterLuid.LowPart;
  a.flags = d.Flags;
  if (!(d.Flags & DXGI_ADAPTER_FLAG_SOFTWARE)) read_location(f, a, d.AdapterLuid);
  // The user-mode driver's version, the registry's DriverVersion as four 16-bit fields ("32.0.15.8157").
  LARGE_INTEGER umd{};
  if (SUCCEEDED(adapter->CheckInterfaceSupport(__uuidof(IDXGIDevice), &umd))) {
    const auto hi = static_cast<uint32_t>(umd.HighPart), lo = static_cast<uint32_t>(umd.LowPart);
    a.driver_version = fmt::format("{}.{}.{}.{}", hi >> 16, hi & 0xffff, lo >> 16, lo & 0xffff);
  }
  return a;
}

void read_adapters(Facts& f) {
  using CreateFactoryFn = HRESULT(WINAPI*)(REFIID, void**);
  auto create = system_function<CreateFactoryFn>(L"dxgi.dll", "CreateDXGIFactory1");
  if (!create) return f.errors.push_back({"dxgi", "CreateDXGIFactory1", "dxgi.dll is not available", std::nullopt});
  Com<IDXGIFactory1> factory;
  if (const HRESULT hr = create(__uuidof(IDXGIFactory1), reinterpret_cast<void**>(&factory.p)); FAILED(hr))
    return f.errors.push_back({"dxgi", "CreateDXGIFactory1", fmt::format("HRESULT 0x{:08X}", ULONG(hr)), std::nullopt});
  for (UINT i = 0; i < 64; ++i) {
    Com<IDXGIAdapter1> adapter;
    const HRESULT hr = factory.p->EnumAdapters1(i, &adapter.p);
    if (hr == DXGI_ERROR_NOT_FOUND) break;
    DXGI_ADAPTER_DESC1 desc{};
    if (FAILED(hr) || FAILED(adapter.p->GetDesc1(&desc))) {
      f.errors.push_back({"dxgi", fmt::format("EnumAdapters1({})", i), fmt::format("HRESULT 0x{:08X}", ULONG(hr)), std::nullopt});
      continue;
    }
    f.adapters.push_back(adapter_of(f, adapter.p, desc));
  }
}

}  // namespace

Facts live_facts() {
  Facts f;
  read_version(f);
  f.processor_architecture = processor_architecture();
  read_processors(f);
  read_cpuid(f);
  read_memory(f);
  read_drives(f);
  read_power_and_firmware(f);
  read_adapters(f);
  return f;
}

}  // namespace gpuscout::probe::windows
