// The Windows probes' pure parts: the recorded facts' checked JSON, SMBIOS, the driver version's two forms, the
// Windows name, and fill_inventory field by field.
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <unistd.h>

#include <gtest/gtest.h>

#include "core/json.hpp"
#include "os/system.hpp"
#include "probe/windows_facts.hpp"

namespace {

using namespace gpuscout;
using namespace gpuscout::probe::windows;
using nlohmann::json;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A small hybrid laptop: 2 P-cores with SMT (CPUs 0-3) and 2 E-cores (4, 5), as GetLogicalProcessorInformationEx
// lists them; an NVIDIA card, Intel graphics and the software adapter.
Facts laptop() {
  Facts f;
  f.version = {10, 0, 26100};
  f.registry.ubr = 4061;
  f.registry.display_version = "24H2";
  f.registry.edition_id = "Core";
  f.registry.product_name = "Windows 10 Home";
  f.registry.long_paths_enabled = 0;
  f.processor_architecture = "AMD64";
  f.processors.cores = {{1, 1, {{0, 0x3}}}, {1, 1, {{0, 0xc}}}, {0, 0, {{0, 0x10}}}, {0, 0, {{0, 0x20}}}};
  f.processors.packages = {{{0, 0x3f}}};
  f.processors.caches = {{1, 12, 64, 48 << 10, 2, {{0, 0x3}}},  {1, 8, 64, 32 << 10, 1, {{0, 0x3}}},
                         {2, 10, 64, 1280 << 10, 0, {{0, 0x3}}}, {1, 8, 64, 32 << 10, 2, {{0, 0xc}}},
                         {2, 16, 64, 2 << 20, 0, {{0, 0x30}}},  {3, 12, 64, 24 << 20, 0, {{0, 0x3f}}}};
  f.processors.groups = {{6, 6, 0x3f}};
  f.cpuid = {"GenuineIntel", "13th Gen Intel(R) Core(TM) i7-13700H", {"avx", "avx2"}, true, "Microsoft Hv", 0x3b8031};
  f.memory = MemoryStatus{50, 16ull << 30, 8ull << 30, 18ull << 30, 9ull << 30, 1ull << 47, 1ull << 46};
  f.drives = {{"C:\\", 3, "NTFS", "Windows", 1000, 600, 500},
              {"D:\\", 5, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt},
              {"E:\\", 2, "exFAT", "USB", 64, 32, 32},
              {"Z:\\", 4, "NTFS", "nas", 9000, 10, 10},
              {"F:\\", 3, "NTFS", "", 2000, 100, 90}};
  f.battery_flag = 1;
  f.smbios = {"LENOVO", "82YA", 10};
  Adapter nv{"NVIDIA GeForce RTX 4060 Laptop GPU", 0x10de, 0x28e0, 0x3cb317aa, 0xa1, 8ull << 30, 0, 8ull << 30,
             0, 0x1a2b3, 0, 1u, 0u, 0u, "32.0.15.8157"};
  Adapter intel{"Intel(R) Iris(R) Xe Graphics", 0x8086, 0xa7a0, 0x3cb317aa, 4, 128ull << 20, 0, 8ull << 30,
                0, 0xd2a4, 0, 0u, 2u, 0u, "32.0.101.6078"};
  Adapter warp{"Microsoft Basic Render Driver", 0x1414, 0x8c, 0, 0, 0, 0, 8ull << 30, 0, 0xf1e2, kAdapterFlagSoftware,
               std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  f.adapters = {nv, intel, warp};
  return f;
}

Inventory filled(const Facts& f) {
  Inventory inv;
  fill_inventory(f, inv);
  return inv;
}

// --- The recorded form ------------------------------------------------------------------------------------------

TEST(WindowsFactsJson, RoundTripsEveryField) {
  const Facts f = laptop();
  const json once = to_json(f);
  const auto back = read_recorded_facts(once.dump());
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(to_json(*back), once);
  EXPECT_EQ(back->adapters.at(0).pci_bus, 1u);
  EXPECT_EQ(back->processors.caches.at(5).size, 24u << 20);
  EXPECT_EQ(back->registry.ubr, 4061u);
}

std::string error_of(const json& doc) {
  const auto r = read_recorded_facts(doc.dump(1));
  return r ? std::string("(accepted)") : r.error().message;
}

TEST(WindowsFactsJson, WrongTypesNameTheField) {
  json doc = to_json(laptop());
  doc["adapters"][1]["vendor_id"] = "0x8086";
  const std::string e = error_of(doc);
  EXPECT_NE(e.find("adapters[1].vendor_id"), std::string::npos) << e;
  EXPECT_NE(e.find("whole number"), std::string::npos) << e;
  EXPECT_NE(e.find("line "), std::string::npos) << e;  // where to look in the file

  doc = to_json(laptop());
  doc["cpuid"]["hypervisor_present"] = 1;
  EXPECT_NE(error_of(doc).find("cpuid.hypervisor_present: expected true or false"), std::string::npos) << error_of(doc);
  doc = to_json(laptop());
  doc["drives"] = json::object();
  EXPECT_NE(error_of(doc).find("drives: expected an array"), std::string::npos) << error_of(doc);
  doc = to_json(laptop());
  doc.erase("version");
  EXPECT_NE(error_of(doc).find("version: missing"), std::string::npos) << error_of(doc);
}

TEST(WindowsFactsJson, NumbersOutOfRangeAreErrors) {
  json doc = to_json(laptop());
  doc["processors"]["cores"][0]["efficiency_class"] = 256;  // a BYTE
  EXPECT_NE(error_of(doc).find("processors.cores[0].efficiency_class: expected a whole number from 0 to 255"),
            std::string::npos)
      << error_of(doc);
  doc = to_json(laptop());
  doc["adapters"][0]["luid_high"] = 4294967296LL;
  EXPECT_NE(error_of(doc).find("adapters[0].luid_high"), std::string::npos) << error_of(doc);
  doc = to_json(laptop());
  doc["memory"]["total_phys"] = -1;
  EXPECT_NE(error_of(doc).find("memory.total_phys"), std::string::npos) << error_of(doc);
  // Past 2^64 the parser has only a double; past a double's range, no number at all.
  std::string text = to_json(laptop()).dump();
  const std::string plain = text;
  text.replace(text.find("\"total_phys\":") + 13, 0, "99999999999999999999999");
  const auto r = read_recorded_facts(text);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("memory.total_phys"), std::string::npos) << r.error().message;
  std::string inf = plain;
  inf.replace(inf.find("\"total_phys\":") + 13, 0, "1e999");
  EXPECT_FALSE(read_recorded_facts(inf));
}

TEST(WindowsFactsJson, TextThatIsNotJsonOrNotUtf8) {
  EXPECT_FALSE(read_recorded_facts(""));
  EXPECT_FALSE(read_recorded_facts("[1, 2]"));
  std::string text = to_json(laptop()).dump();
  text.replace(text.find("82YA"), 4, "Caf\xE9");  // Latin-1, not UTF-8
  const auto r = read_recorded_facts(text);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("line 1"), std::string::npos) << r.error().message;
}

TEST(WindowsFactsJson, HugeCollectionsAndStringsAreRefused) {
  json doc = to_json(laptop());
  doc["adapters"] = json::array();
  for (int i = 0; i < 65; ++i) doc["adapters"].push_back(to_json(laptop())["adapters"][0]);
  EXPECT_NE(error_of(doc).find("adapters: more than 64 entries"), std::string::npos) << error_of(doc);
  doc = to_json(laptop());
  doc["smbios"]["product"] = std::string(5000, 'x');
  EXPECT_NE(error_of(doc).find("smbios.product: longer than"), std::string::npos) << error_of(doc);
}

TEST(WindowsFactsJson, TheRecordedMachinesRead) {
  for (const char* name : {"win-laptop-4060", "win-desktop-amd", "win-no-nvidia-driver", "win-driver-mismatch"}) {
    const auto r = read_recorded_facts(read_text(std::string(GPUSCOUT_SYSROOTS_DIR) + "/" + name + "/windows.json"));
    ASSERT_TRUE(r) << name << ": " << r.error().message;
    EXPECT_FALSE(r->adapters.empty()) << name;
  }
}

// --- SMBIOS ---------------------------------------------------------------------------------------------------------

// Structures as DSP0134 lays them out: type 0 (BIOS, 0x18 bytes), type 1 (System, 0x1B bytes in 2.4+: manufacturer,
// product, version, serial string numbers at 4-7, the UUID at 8), type 3 (Chassis, 0x16 bytes: manufacturer string 4,
// type byte 5 with the lock in bit 7), type 127 (end); each followed by its strings and a double NUL.
template <size_t N>
std::string_view bytes(const char (&s)[N]) {
  return {s, N - 1};  // the literal's own terminating NUL left out
}

std::string smbios_table(uint8_t chassis_byte) {
  std::string t;
  auto add = [&](std::initializer_list<uint8_t> formatted, std::string_view strings) {
    for (uint8_t b : formatted) t.push_back(static_cast<char>(b));
    if (strings.empty()) t.append(std::string(2, '\0'));
    else t.append(strings).append(std::string(1, '\0'));
  };
  add({0, 0x18, 0x00, 0x00, 1, 2, 0x00, 0xF0, 3, 0xFF, 0x80, 0x98, 0x8B, 0x3F, 0x01, 0x00, 0x00, 0x00, 0x03, 0x0F,
       1, 32, 0xFF, 0xFF},
      bytes("LENOVO\0LPCN49WW\0" "08/23/2024\0"));
  add({1, 0x1B, 0x01, 0x00, 1, 2, 3, 4, 0x5a, 0x1b, 0x33, 0x9c, 0x11, 0x20, 0x4e, 0xd6, 0x81, 0x25, 0x9f, 0x03, 0x47,
       0x76, 0x21, 0x00, 0x06, 5, 6},
      bytes("LENOVO\0" "82YA\0Legion Pro 5 16IRX8\0PF4XXXXX\0LENOVO_MT_82YA\0Legion Pro 5 16IRX8\0"));
  add({3, 0x16, 0x02, 0x00, 1, chassis_byte, 2, 3, 4, 0x03, 0x03, 0x03, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
       0x03, 5},
      bytes("LENOVO\0None\0PF4XXXXX\0No Asset Tag\0SKU\0"));
  add({127, 4, 0xFE, 0xFF}, "");
  return t;
}

TEST(WindowsSmbios, SystemAndChassisFromARealLayout) {
  const Smbios s = parse_smbios(smbios_table(0x0A));
  EXPECT_EQ(s.manufacturer, "LENOVO");
  EXPECT_EQ(s.product, "82YA");
  EXPECT_EQ(s.chassis_type, 10);
  EXPECT_EQ(parse_smbios(smbios_table(0x80 | 0x03)).chassis_type, 3);  // the chassis-lock bit is no type
}

TEST(WindowsSmbios, RawSmbiosDataHeaderAndDamage) {
  const std::string table = smbios_table(0x0A);
  std::string raw = {0, 3, 4, 0, 0, 0, 0, 0};
  const auto n = static_cast<uint32_t>(table.size());
  for (int i = 0; i < 4; ++i) raw[4 + i] = static_cast<char>((n >> (8 * i)) & 0xff);
  EXPECT_EQ(parse_raw_smbios_data(raw + table).product, "82YA");
  EXPECT_FALSE(parse_raw_smbios_data("\x01\x02").product);
  // Cut anywhere, the parser stops at the damage and keeps what came before.
  for (size_t cut = 0; cut < table.size(); ++cut) {
    const Smbios s = parse_smbios(std::string_view(table).substr(0, cut));
    if (s.chassis_type) EXPECT_EQ(*s.chassis_type, 10);
    if (s.product) EXPECT_EQ(*s.product, "82YA");
  }
  // A header whose length overruns the table, and a string number past the set.
  std::string lying = table;
  lying[1] = static_cast<char>(0xff);
  EXPECT_FALSE(parse_smbios(lying).manufacturer);
  std::string past = table;
  const size_t type1 = past.find(std::string_view("\x01\x1b\x01\x00", 4));
  ASSERT_NE(type1, std::string::npos);
  past[type1 + 4] = 9;  // type 1's manufacturer string number
  EXPECT_FALSE(parse_smbios(past).manufacturer);
  EXPECT_EQ(parse_smbios(past).product, "82YA");
}

// --- GetLogicalProcessorInformationEx's buffer --------------------------------------------------------------------

template <typename T>
void put_at(std::string& buffer, size_t offset, T value) {
  if (buffer.size() < offset + sizeof value) buffer.resize(offset + sizeof value);
  std::memcpy(buffer.data() + offset, &value, sizeof value);
}

// One SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX record at the SDK's offsets.
std::string record(uint32_t relationship, uint32_t size) {
  std::string r(size, '\0');
  put_at(r, 0, relationship);
  put_at(r, 4, size);
  return r;
}

TEST(WindowsProcessorRecords, CoresCachesPackagesGroups) {
  std::string core = record(0, 48);
  put_at<uint8_t>(core, 8, 1);   // LTP_PC_SMT
  put_at<uint8_t>(core, 9, 1);   // EfficiencyClass
  put_at<uint16_t>(core, 30, 1); // GroupCount
  put_at<uint64_t>(core, 32, 0x3);
  put_at<uint16_t>(core, 40, 0);
  std::string cache = record(2, 56);  // Windows 10: GroupCount is reserved (0), one GroupMask
  put_at<uint8_t>(cache, 8, 1);
  put_at<uint8_t>(cache, 9, 12);
  put_at<uint16_t>(cache, 10, 64);
  put_at<uint32_t>(cache, 12, 48u << 10);
  put_at<uint32_t>(cache, 16, 2);  // CacheData
  put_at<uint64_t>(cache, 40, 0x3);
  std::string package = record(3, 48);
  put_at<uint16_t>(package, 30, 1);
  put_at<uint64_t>(package, 32, 0xfffff);
  std::string group = record(4, 80);
  put_at<uint16_t>(group, 8, 1);
  put_at<uint16_t>(group, 10, 1);
  put_at<uint8_t>(group, 32, 20);
  put_at<uint8_t>(group, 33, 20);
  put_at<uint64_t>(group, 72, 0xfffff);
  std::string numa = record(1, 48);  // not used: skipped
  std::string overrun = record(0, 4096);
  overrun.resize(64);  // its Size says more than the buffer holds
  const auto p = parse_processor_records(core + numa + cache + package + group + overrun);
  ASSERT_EQ(p.cores.size(), 1u);
  EXPECT_EQ(p.cores[0].flags, 1);
  EXPECT_EQ(p.cores[0].efficiency_class, 1);
  ASSERT_EQ(p.cores[0].masks.size(), 1u);
  EXPECT_EQ(p.cores[0].masks[0].mask, 0x3u);
  ASSERT_EQ(p.caches.size(), 1u);
  EXPECT_EQ(p.caches[0].size, 48u << 10);
  EXPECT_EQ(p.caches[0].type, 2u);
  EXPECT_EQ(p.caches[0].line_size, 64);
  ASSERT_EQ(p.caches[0].masks.size(), 1u);
  ASSERT_EQ(p.packages.size(), 1u);
  EXPECT_EQ(p.packages[0].at(0).mask, 0xfffffu);
  ASSERT_EQ(p.groups.size(), 1u);
  EXPECT_EQ(p.groups[0].active_processors, 20);
  EXPECT_EQ(p.groups[0].active_mask, 0xfffffu);
  // A core whose GroupCount claims more masks than its record holds keeps none; a zero Size ends the walk.
  put_at<uint16_t>(core, 30, 9);
  EXPECT_TRUE(parse_processor_records(core).cores.at(0).masks.empty());
  EXPECT_TRUE(parse_processor_records(record(0, 0) + core).cores.empty());
}

TEST(WindowsRawTables, RandomBytesNeverReadPastTheBuffer) {
  // The parsers get what the firmware and the kernel hand over: any bytes. Each record's own length is trusted only
  // within the buffer (the asan preset turns an overrun into a failure).
  std::mt19937 random(14);
  for (int round = 0; round < 2000; ++round) {
    std::string bytes(random() % 300, '\0');
    for (auto& b : bytes) b = static_cast<char>(random() % 4 == 0 ? 0 : random());
    if (bytes.size() >= 8 && round % 2 == 0) put_at<uint32_t>(bytes, 4, static_cast<uint32_t>(8 + random() % 64));
    const auto p = parse_processor_records(bytes);
    for (const auto& c : p.cores) EXPECT_LE(c.masks.size(), bytes.size() / 16);
    const auto s = parse_smbios(bytes);
    if (s.product) EXPECT_LE(s.product->size(), bytes.size() * 3);  // U+FFFD for each invalid byte at most
    (void)parse_raw_smbios_data(bytes);
  }
}

// --- Names and versions ---------------------------------------------------------------------------------------------

TEST(WindowsNames, NvidiaDriverVersionFromWindowsForm) {
  EXPECT_EQ(nvidia_driver_version("32.0.15.8157"), "581.57");
  EXPECT_EQ(nvidia_driver_version("31.0.15.3623"), "536.23");
  EXPECT_EQ(nvidia_driver_version("27.21.14.5671"), "456.71");
  EXPECT_EQ(nvidia_driver_version("30.0.14.9649"), "496.49");
  EXPECT_FALSE(nvidia_driver_version("581.57"));
  EXPECT_FALSE(nvidia_driver_version("32.0.x.8157"));
  EXPECT_FALSE(nvidia_driver_version("32.0.15.8157.1"));
  EXPECT_FALSE(nvidia_driver_version("..."));
}

TEST(WindowsNames, Windows11IsNamedFromTheBuild) {
  Facts f = laptop();
  EXPECT_EQ(pretty_name(f), "Windows 11 Home 24H2");
  f.version.build = 19045;
  f.registry.display_version = "22H2";
  EXPECT_EQ(pretty_name(f), "Windows 10 Home 22H2");
  f.registry.display_version.reset();
  f.registry.release_id = "1909";
  f.version.build = 18363;
  EXPECT_EQ(pretty_name(f), "Windows 10 Home 1909");
  f.version.build = 22000;
  f.registry.product_name = "Windows 10 Pro";
  EXPECT_EQ(pretty_name(f), "Windows 11 Pro 1909");
  f.registry.product_name = "Windows Server 2022 Datacenter";
  f.version.build = 20348;
  EXPECT_EQ(pretty_name(f), "Windows Server 2022 Datacenter 1909");
}

// --- fill_inventory -------------------------------------------------------------------------------------------------

TEST(WindowsInventory, CpuFromTheProcessorRecords) {
  const Inventory inv = filled(laptop());
  EXPECT_EQ(inv.cpu.arch, "x86_64");
  EXPECT_EQ(inv.cpu.vendor, "GenuineIntel");
  EXPECT_EQ(inv.cpu.model, "13th Gen Intel(R) Core(TM) i7-13700H");
  EXPECT_EQ(inv.cpu.sockets, 1);
  EXPECT_EQ(inv.cpu.physical_cores, 4);
  EXPECT_EQ(inv.cpu.logical_cpus, 6);
  EXPECT_EQ(inv.cpu.online_cpus, 6);
  EXPECT_EQ(inv.cpu.features, (std::vector<std::string>{"avx", "avx2"}));
  EXPECT_TRUE(inv.cpu.hypervisor);
  // CPU 0's caches only: its L1D, L1I, L2 (shared by its 2 threads) and the L3 of all 6.
  ASSERT_EQ(inv.cpu.caches.size(), 4u);
  EXPECT_EQ(inv.cpu.caches[0].type, "Data");
  EXPECT_EQ(inv.cpu.caches[0].size_bytes, 48u << 10);
  EXPECT_EQ(inv.cpu.caches[1].type, "Instruction");
  EXPECT_EQ(inv.cpu.caches[2].shared_by_cpus, 2);
  EXPECT_EQ(inv.cpu.caches[3].level, 3);
  EXPECT_EQ(inv.cpu.caches[3].shared_by_cpus, 6);
  Facts arm = laptop();
  arm.processor_architecture = "ARM64";
  arm.processors.cores.clear();
  EXPECT_EQ(filled(arm).cpu.arch, "aarch64");
  EXPECT_EQ(filled(arm).cpu.logical_cpus, 6);  // from the group when the core records are missing
  EXPECT_FALSE(filled(arm).cpu.physical_cores);
}

TEST(WindowsInventory, MemoryAndThePageFile) {
  const Inventory inv = filled(laptop());
  EXPECT_EQ(inv.memory.total_bytes, 16ull << 30);
  EXPECT_EQ(inv.memory.available_bytes, 8ull << 30);
  EXPECT_EQ(inv.memory.swap_total_bytes, 2ull << 30);  // the commit limit less RAM
  EXPECT_EQ(inv.memory.swap_free_bytes, 1ull << 30);
  Facts none = laptop();
  none.memory.reset();
  EXPECT_FALSE(filled(none).memory.total_bytes);
}

TEST(WindowsInventory, DisksAreTheFixedDrives) {
  const Inventory inv = filled(laptop());
  ASSERT_EQ(inv.disks.size(), 2u);
  EXPECT_EQ(inv.disks[0].mount, "C:\\");
  EXPECT_EQ(inv.disks[0].device, "Windows");
  EXPECT_EQ(inv.disks[0].fstype, "NTFS");
  EXPECT_EQ(inv.disks[0].total_bytes, 1000u);
  EXPECT_EQ(inv.disks[0].free_bytes, 500u);  // available to the user, as df shows
  EXPECT_EQ(inv.disks[1].device, "F:\\");    // no label: the root names it
}

TEST(WindowsInventory, OsFields) {
  const Inventory inv = filled(laptop());
  EXPECT_EQ(inv.os.family, "windows");
  EXPECT_EQ(inv.os.id, "windows");
  EXPECT_EQ(inv.os.version_id, "10.0.26100");
  EXPECT_EQ(inv.os.kernel, "10.0.26100.4061");
  EXPECT_EQ(inv.os.pretty_name, "Windows 11 Home 24H2");
  EXPECT_FALSE(inv.os.wsl);
  ASSERT_TRUE(inv.os.windows);
  EXPECT_EQ(inv.os.windows->build, "26100.4061");
  EXPECT_EQ(inv.os.windows->display_version, "24H2");
  EXPECT_EQ(inv.os.windows->edition, "Core");
  EXPECT_EQ(inv.os.windows->long_paths_enabled, false);
  Facts old = laptop();
  old.registry.display_version.reset();
  old.registry.release_id = "2004";
  old.registry.long_paths_enabled.reset();
  EXPECT_EQ(filled(old).os.windows->display_version, "2004");
  EXPECT_FALSE(filled(old).os.windows->long_paths_enabled);
}

TEST(WindowsInventory, VirtualizationTellsTheHostFromAGuest) {
  // The laptop runs above Hyper-V (VBS) in the root partition: bare metal.
  EXPECT_FALSE(filled(laptop()).os.virtualization);
  Facts guest = laptop();
  guest.cpuid.hyperv_privileges_ebx = 0x3b8030;  // no CreatePartitions: a guest
  EXPECT_EQ(filled(guest).os.virtualization, "hyper-v");
  Facts unknown = laptop();
  unknown.cpuid.hyperv_privileges_ebx.reset();
  EXPECT_FALSE(filled(unknown).os.virtualization);  // cannot tell: the firmware decides
  Facts hyperv_vm = unknown;
  hyperv_vm.smbios = {"Microsoft Corporation", "Virtual Machine", 3};
  hyperv_vm.battery_flag = 128;
  EXPECT_EQ(filled(hyperv_vm).os.virtualization, "hyper-v");
  EXPECT_EQ(filled(hyperv_vm).platform.kind, "vm");
  Facts kvm = laptop();
  kvm.cpuid.hypervisor_vendor = "KVMKVMKVM";
  kvm.smbios = {"QEMU", "Standard PC (Q35 + ICH9, 2009)", 1};
  EXPECT_EQ(filled(kvm).os.virtualization, "kvm");
  kvm.smbios = {"Some Vendor", "Some Box", 1};
  EXPECT_EQ(filled(kvm).os.virtualization, "kvm");  // from the cpuid signature
  kvm.cpuid.hypervisor_vendor = "NewHypervisor";
  EXPECT_EQ(filled(kvm).os.virtualization, "unknown-hypervisor");
  Facts bare = laptop();
  bare.cpuid.hypervisor_present = false;
  bare.cpuid.hypervisor_vendor.reset();
  EXPECT_FALSE(filled(bare).os.virtualization);
}

TEST(WindowsInventory, PlatformFromChassisAndBattery) {
  Inventory inv = filled(laptop());
  EXPECT_EQ(inv.platform.kind, "laptop");
  EXPECT_TRUE(inv.platform.laptop);
  EXPECT_TRUE(inv.platform.battery);
  EXPECT_EQ(inv.platform.system_vendor, "LENOVO");
  EXPECT_EQ(inv.platform.product_name, "82YA");
  EXPECT_EQ(inv.platform.chassis_type, 10);
  Facts desktop = laptop();
  desktop.smbios.chassis_type = 3;
  desktop.battery_flag = 128;  // no system battery
  inv = filled(desktop);
  EXPECT_EQ(inv.platform.kind, "desktop");
  EXPECT_FALSE(inv.platform.battery);
  desktop.battery_flag = 255;  // unknown status: not a battery either
  EXPECT_FALSE(filled(desktop).platform.battery);
  Facts battery_only = desktop;
  battery_only.smbios.chassis_type = 2;  // "Unknown"
  battery_only.battery_flag = 8;          // charging
  EXPECT_EQ(filled(battery_only).platform.kind, "laptop");
  Facts tablet = desktop;
  tablet.smbios.chassis_type = 30;
  EXPECT_TRUE(filled(tablet).platform.laptop);
  Facts server = desktop;
  server.smbios.chassis_type = 23;
  EXPECT_EQ(filled(server).platform.kind, "server");
}

TEST(WindowsInventory, GpusFromDxgiWithoutTheSoftwareAdapter) {
  const Inventory inv = filled(laptop());
  ASSERT_EQ(inv.gpus.size(), 2u);  // the Basic Render Driver left out
  const Gpu& intel = inv.gpus[0];  // PCI order: 00:02.0 before 01:00.0
  const Gpu& nv = inv.gpus[1];
  EXPECT_EQ(intel.index, 0);
  EXPECT_EQ(intel.vendor, "intel");
  EXPECT_EQ(intel.pci_bus_id, "0000:00:02.0");
  EXPECT_TRUE(intel.integrated);
  EXPECT_EQ(intel.memory_total_bytes, (128ull << 20) + (8ull << 30));  // carve-out plus shared memory
  EXPECT_EQ(nv.index, 1);
  EXPECT_EQ(nv.vendor, "nvidia");
  EXPECT_EQ(nv.name, "NVIDIA GeForce RTX 4060 Laptop GPU");
  EXPECT_EQ(nv.pci_bus_id, "0000:01:00.0");
  EXPECT_EQ(nv.pci_vendor_id, 0x10de);
  EXPECT_EQ(nv.pci_device_id, 0x28e0);
  EXPECT_EQ(nv.pci_subsystem_vendor_id, 0x17aa);
  EXPECT_EQ(nv.pci_subsystem_device_id, 0x3cb3);
  EXPECT_FALSE(nv.integrated);
  EXPECT_EQ(nv.memory_total_bytes, 8ull << 30);
  EXPECT_EQ(nv.luid, "0x00000000:0x0001a2b3");
  EXPECT_EQ(nv.sources, std::vector<std::string>{"dxgi"});
  EXPECT_FALSE(nv.kernel_driver);
}

TEST(WindowsInventory, AdaptersThatAreNoGpu) {
  Facts f = laptop();
  f.adapters[0].flags = kAdapterFlagSoftware;
  f.adapters[1] = {"Microsoft Hyper-V Video", 0x1414, 0x5353, 0, 0, 0, 0, 1 << 30, 0, 7, 0,
                   std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  EXPECT_TRUE(filled(f).gpus.empty());
  Facts unplaced = laptop();
  unplaced.adapters[0].pci_bus.reset();
  const Inventory inv = filled(unplaced);
  ASSERT_EQ(inv.gpus.size(), 2u);
  EXPECT_EQ(inv.gpus[1].vendor, "nvidia");  // without a location, after the placed ones
  EXPECT_FALSE(inv.gpus[1].pci_bus_id);
  Facts negative_luid = laptop();
  negative_luid.adapters[0].luid_high = -1;
  EXPECT_EQ(filled(negative_luid).gpus[1].luid, "0xffffffff:0x0001a2b3");
}

TEST(WindowsInventory, NvidiaDriverVersionBothForms) {
  Inventory inv = filled(laptop());
  EXPECT_EQ(inv.nvidia.windows_driver_version, "32.0.15.8157");
  EXPECT_EQ(inv.nvidia.driver_version, "581.57");
  NvidiaInfo from_nvml;
  from_nvml.driver_version = "581.42";  // NVML's answer wins
  fill_nvidia(laptop(), from_nvml);
  EXPECT_EQ(from_nvml.driver_version, "581.42");
  EXPECT_EQ(from_nvml.windows_driver_version, "32.0.15.8157");
  // An NVIDIA card on Windows' Basic Display driver: its version is Microsoft's, not NVIDIA's.
  Facts basic = laptop();
  basic.adapters = {{"Microsoft Basic Display Adapter", 0x10de, 0x2786, 0, 0, 0, 0, 8ull << 30, 0, 5, 0, 0x2bu, 0u, 0u,
                     "10.0.19041.3636"}};
  inv = filled(basic);
  EXPECT_FALSE(inv.nvidia.windows_driver_version);
  EXPECT_FALSE(inv.nvidia.driver_version);
  ASSERT_EQ(inv.gpus.size(), 1u);
  EXPECT_EQ(inv.gpus[0].vendor, "nvidia");
  EXPECT_EQ(inv.gpus[0].kernel_driver, "BasicDisplay");
  EXPECT_FALSE(inv.gpus[0].memory_total_bytes);  // 0 dedicated: unknown, not 0 bytes
}

TEST(WindowsInventory, ApiErrorsGoToTheirSections) {
  Facts f = laptop();
  f.errors = {{"cpu", "GetLogicalProcessorInformationEx", "error 122", 122},
              {"disks", "GetDiskFreeSpaceExW(E:\\)", "not ready", 21},
              {"dxgi", "CreateDXGIFactory1", "failed", std::nullopt},
              {"os", "RegGetValueW(UBR)", "missing", 2}};
  const Inventory inv = filled(f);
  EXPECT_EQ(inv.cpu.errors.size(), 1u);
  EXPECT_EQ(inv.disk_errors.size(), 1u);
  EXPECT_EQ(inv.pci_errors.size(), 1u);
  EXPECT_EQ(inv.os.errors.size(), 1u);
}

// --- Which facts a run uses -----------------------------------------------------------------------------------------

TEST(WindowsFactsForThisRun, RecordedUnderASysrootOtherwiseNone) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("gpuscout-winfacts-" + std::to_string(::getpid()));
  fs::create_directories(root);
  std::vector<ProbeError> errors;
  os::set_sysroot("");
#ifdef _WIN32
  EXPECT_TRUE(facts_for_this_run(errors));  // the live machine's
  errors.clear();
#else
  EXPECT_FALSE(facts_for_this_run(errors));  // Linux, no sysroot: the Linux probes run
#endif
  os::set_sysroot(root.string());
  EXPECT_FALSE(facts_for_this_run(errors));  // a Linux recording
  std::ofstream(root / "windows.json") << to_json(laptop()).dump();
  auto facts = facts_for_this_run(errors);
  ASSERT_TRUE(facts);
  EXPECT_EQ(facts->smbios.product, "82YA");
  EXPECT_TRUE(errors.empty());
  std::ofstream(root / "windows.json", std::ios::trunc) << R"({"version": 7})";
  facts = facts_for_this_run(errors);
  ASSERT_TRUE(facts);  // still a Windows machine, with nothing known
  EXPECT_TRUE(facts->adapters.empty());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].message.find("windows.json: "), std::string::npos) << errors[0].message;
  EXPECT_NE(errors[0].message.find("version: expected an object"), std::string::npos) << errors[0].message;
  os::set_sysroot("");
  fs::remove_all(root);
}

}  // namespace
