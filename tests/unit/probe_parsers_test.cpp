// Pure parsers of the probes, fed with text from real machines.
#include <algorithm>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "probe/sources.hpp"
#include "vendor/cpuid.hpp"
#include "test_support.hpp"

using namespace gpuscout;
using namespace gpuscout::probe;

namespace {
using gpuscout::test_support::read_file;
}  // namespace

TEST(Cpuinfo, IntelHybridLaptop) {
  const auto s = parse_cpuinfo(read_file(std::string(GPUSCOUT_SYSROOTS_DIR) + "/laptop-intel-nvidia/proc/cpuinfo"));
  EXPECT_EQ(s.vendor, "GenuineIntel");
  EXPECT_EQ(s.model, "13th Gen Intel(R) Core(TM) i7-13700H");
  EXPECT_EQ(s.processors, 20);
  EXPECT_EQ(s.sockets, 1);
  EXPECT_EQ(s.physical_cores, 14);
  EXPECT_FALSE(s.hypervisor);
  const auto f = dl_features_from_flags(s.flags, "x86_64");
  EXPECT_NE(std::find(f.begin(), f.end(), "avx_vnni"), f.end());
  EXPECT_EQ(std::find(f.begin(), f.end(), "avx512f"), f.end());
}

TEST(Cpuinfo, ArmGravitonHasNoModelNameButAPartNumber) {
  const auto s = parse_cpuinfo(read_file(std::string(GPUSCOUT_SYSROOTS_DIR) + "/arm-graviton/proc/cpuinfo"));
  EXPECT_EQ(s.model, "Neoverse-V1");
  EXPECT_EQ(s.vendor, "ARM");
  const auto f = dl_features_from_flags(s.flags, "aarch64");
  for (const char* want : {"neon", "sve", "bf16", "i8mm"}) EXPECT_NE(std::find(f.begin(), f.end(), want), f.end()) << want;
}

TEST(Cpuinfo, GarbageLinesAreSkipped) {
  const auto s = parse_cpuinfo("processor : 0\nvendor_id : GenuineIntel\ngarbage without colon\nprocessor : x\n"
                               "model name : Xeon @ 2.20GHz\nflags : fpu avx2 fma hypervisor\n\nprocessor : 1\n");
  EXPECT_EQ(s.processors, 2);
  EXPECT_TRUE(s.hypervisor);
  ASSERT_TRUE(s.nominal_ghz.has_value());
  EXPECT_DOUBLE_EQ(*s.nominal_ghz, 2.2);
}

TEST(CpuFeatures, CpuidAgreesWithTheKernelFlagsOnThisMachine) {
  const auto from_cpuid = vendor::cpuid::dl_features(vendor::cpuid::native());
  if (from_cpuid.empty()) GTEST_SKIP() << "not an x86 machine";
  const auto s = parse_cpuinfo(read_file("/proc/cpuinfo"));
  const auto from_flags = dl_features_from_flags(s.flags, "x86_64");
  // The kernel clears flags it cannot support (XSAVE state), so both views must agree feature by feature.
  for (const auto& f : from_cpuid) EXPECT_NE(std::find(from_flags.begin(), from_flags.end(), f), from_flags.end()) << f;
  for (const auto& f : from_flags) EXPECT_NE(std::find(from_cpuid.begin(), from_cpuid.end(), f), from_cpuid.end()) << f;
}

TEST(Cgroup, CpuMax) {
  EXPECT_DOUBLE_EQ(parse_cgroup_cpu_max("200000 100000").value(), 2.0);
  EXPECT_DOUBLE_EQ(parse_cgroup_cpu_max("150000 100000\n").value(), 1.5);
  EXPECT_FALSE(parse_cgroup_cpu_max("max 100000").has_value());
  EXPECT_FALSE(parse_cgroup_cpu_max("garbage").has_value());
  EXPECT_FALSE(parse_cgroup_cpu_max("-1 100000").has_value());
  // std::from_chars reads these; a damaged file is no endless (or undefined) quota.
  for (const char* bad : {"inf 100000", "nan 100000", "200000 nan", "1e308 1e-308", "200000 inf"})
    EXPECT_FALSE(parse_cgroup_cpu_max(bad).has_value()) << bad;
}

TEST(CacheSize, SysfsFormats) {
  EXPECT_EQ(parse_cache_size("32K").value(), 32768u);
  EXPECT_EQ(parse_cache_size("16M").value(), 16777216u);
  EXPECT_FALSE(parse_cache_size("big").has_value());
}

TEST(Meminfo, ParsesAndReportsGarbage) {
  const auto m = parse_meminfo("MemTotal:       16384000 kB\nMemFree: 1 kB\nMemAvailable:   lots kB\nSwapTotal: 0 kB\n");
  EXPECT_EQ(m.total_bytes, 16384000ULL * 1024);
  EXPECT_FALSE(m.available_bytes.has_value());
  EXPECT_EQ(m.swap_total_bytes, 0u);
  ASSERT_EQ(m.errors.size(), 1u);
  EXPECT_NE(m.errors[0].message.find("MemAvailable"), std::string::npos);
  EXPECT_FALSE(parse_meminfo("").errors.empty());
}

TEST(Mounts, KeepsRealFilesystemsOncePerDevice) {
  const std::string text =
      "proc /proc proc rw 0 0\n"
      "/dev/nvme0n1p2 / ext4 rw,relatime 0 0\n"
      "/dev/nvme0n1p1 /boot/efi vfat rw 0 0\n"
      "tmpfs /run tmpfs rw 0 0\n"
      "/dev/loop3 /snap/core22/1 squashfs ro 0 0\n"
      "/dev/nvme0n1p2 /var/lib/docker ext4 rw 0 0\n"
      "/dev/sda1 /media/My\\040Disk ext4 rw 0 0\n"
      "server:/export /data nfs4 rw 0 0\n"
      "/dev/sdb1 /mnt/ro ext4 ro 0 0\n"
      "too few\n";
  std::vector<ProbeError> errors;
  const auto mounts = parse_mounts(text, &errors);
  EXPECT_EQ(errors.size(), 1u);
  const auto real = real_filesystems(mounts);
  std::vector<std::string> names;
  for (const auto& m : real) names.push_back(m.mount);
  EXPECT_EQ(names, (std::vector<std::string>{"/", "/data", "/media/My Disk"}));
}

TEST(OsRelease, QuotesAndGarbage) {
  const auto kv = parse_os_release("NAME=\"Ubuntu\"\nID=ubuntu\nVERSION_ID='22.04'\nBROKEN=\"unbalanced\n# comment\n=novalue\n");
  std::map<std::string, std::string> m(kv.begin(), kv.end());
  EXPECT_EQ(m["NAME"], "Ubuntu");
  EXPECT_EQ(m["ID"], "ubuntu");
  EXPECT_EQ(m["VERSION_ID"], "22.04");
  EXPECT_EQ(m.count("BROKEN"), 0u);
}

TEST(BusId, NormalisesNvmlAndCudaForms) {
  EXPECT_EQ(normalize_bus_id("00000000:9A:00.0"), "0000:9a:00.0");
  EXPECT_EQ(normalize_bus_id("0000:01:00.0"), "0000:01:00.0");
  EXPECT_EQ(normalize_bus_id("01:00.0"), "0000:01:00.0");
}

TEST(Toolkit, VersionParsers) {
  EXPECT_EQ(parse_nvcc_version("nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 13.0, V13.0.88\n"),
            "13.0.88");
  EXPECT_FALSE(parse_nvcc_version("garbage").has_value());
  EXPECT_EQ(parse_cudnn_header("#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 13\n#define CUDNN_PATCHLEVEL 0\n"), "9.13.0");
}

TEST(PythonProbe, ParsesTheScriptOutput) {
  PythonInfo py;
  std::optional<TorchInfo> torch;
  parse_python_probe_output(
      "noise printed by torch\nGPUSCOUT_PROBE {\"python\": \"3.11.2\", \"executable\": \"/usr/bin/python3\", \"torch\": "
      "{\"version\": \"2.5.1+cu121\", \"cuda\": \"12.1\", \"hip\": null, \"cuda_available\": true, \"device_count\": 1, "
      "\"arch_list\": [\"sm_80\", \"sm_90\"], \"cudnn\": 90100, \"devices\": [], \"warnings\": []}}\n",
      py, torch);
  ASSERT_TRUE(torch.has_value());
  EXPECT_EQ(torch->cuda, "12.1");
  EXPECT_EQ(torch->cudnn_version, "9.1.0");
  EXPECT_EQ(torch->arch_list.size(), 2u);
  PythonInfo py2;
  std::optional<TorchInfo> t2;
  parse_python_probe_output("Traceback ...", py2, t2);
  EXPECT_TRUE(py2.error.has_value());
  EXPECT_FALSE(t2.has_value());
}

TEST(Amdgpu, GfxTargetNamesFollowKfdsEncoding) {
  EXPECT_EQ(probe::gfx_target_name(110000), "gfx1100");
  EXPECT_EQ(probe::gfx_target_name(90010), "gfx90a");   // stepping 10 is the hex digit a
  EXPECT_EQ(probe::gfx_target_name(100300), "gfx1030");
  EXPECT_EQ(probe::gfx_target_name(90012), "gfx90c");
  EXPECT_EQ(probe::gfx_target_name(0), std::nullopt);   // a CPU node
  EXPECT_EQ(probe::gfx_target_name(91600), std::nullopt);  // minor 16 has no digit
  EXPECT_EQ(probe::gfx_target_name(1000000), std::nullopt);
}

TEST(Amdgpu, KfdPropertiesGiveBusIdAndTarget) {
  // A real node's properties (RX 7900 XTX at 0000:03:00.0; location_id = bus << 8 | device << 3 | function).
  const auto p = probe::parse_kfd_properties(
      "cpu_cores_count 0\nsimd_count 192\ngfx_target_version 110000\nvendor_id 4098\nlocation_id 768\ndomain 0\n");
  EXPECT_EQ(p.bus_id, "0000:03:00.0");
  EXPECT_EQ(p.gfx_target, "gfx1100");
  const auto odd = probe::parse_kfd_properties("location_id 4867\ndomain 1\ngfx_target_version garbage\n");
  EXPECT_EQ(odd.bus_id, "0001:13:00.3");
  EXPECT_EQ(odd.gfx_target, std::nullopt);
  EXPECT_EQ(probe::parse_kfd_properties("location_id 99999999\n").bus_id, std::nullopt);
  EXPECT_EQ(probe::parse_kfd_properties("").bus_id, std::nullopt);
}

TEST(PythonProbe, ReadsTheCpuSideAndThePackages) {
  PythonInfo py;
  std::optional<TorchInfo> torch;
  parse_python_probe_output(
      "GPUSCOUT_PROBE {\"python\": \"3.11.2\", \"build\": \"3.11.2 (main, Apr 28 2025) [GCC 12.2.0]\", "
      "\"implementation\": \"CPython\", \"libc\": \"glibc 2.36\", \"packages\": [{\"name\": \"numpy\", \"version\": "
      "\"1.24.2\"}, {\"name\": 7}, \"x\"], \"torch\": {\"version\": \"1.13.0\", \"debug\": true, \"num_threads\": 1, "
      "\"num_interop_threads\": 0, \"config\": \"PyTorch built with:\\n  - CPU capability usage: AVX2\\n  - Build "
      "settings: BLAS_INFO=generic, BUILD_TYPE=Release, LAPACK_INFO=generic, USE_CUDA=OFF,\\n\"}}\n",
      py, torch);
  EXPECT_EQ(py.build, "3.11.2 (main, Apr 28 2025) [GCC 12.2.0]");
  EXPECT_EQ(py.implementation, "CPython");
  EXPECT_EQ(py.libc, "glibc 2.36");
  ASSERT_EQ(py.packages.size(), 1u);  // the entries without a name and version are dropped
  EXPECT_EQ(py.packages[0].version, "1.24.2");
  ASSERT_TRUE(torch.has_value());
  EXPECT_EQ(torch->debug, true);
  EXPECT_EQ(torch->num_threads, 1);
  EXPECT_FALSE(torch->num_interop_threads.has_value());  // 0 threads is not believed
  EXPECT_EQ(torch->cpu_capability, "AVX2");              // no API: from __config__.show()
  EXPECT_EQ(torch->blas, "generic");
  EXPECT_EQ(torch->lapack, "generic");
}

TEST(PythonProbe, AnOldTorchLeavesTheCpuSideUnknown) {
  PythonInfo py;
  std::optional<TorchInfo> torch;
  parse_python_probe_output("GPUSCOUT_PROBE {\"python\": \"2.7.18\", \"torch\": {\"version\": \"1.4.0\"}}", py, torch);
  ASSERT_TRUE(torch.has_value());
  EXPECT_FALSE(py.build || py.libc || torch->debug || torch->num_threads || torch->cpu_capability || torch->blas);
  EXPECT_TRUE(py.packages.empty());
}

TEST(PythonProbe, TorchConfigValuesAreShortNamesOnly) {
  EXPECT_EQ(parse_torch_config("  - CPU capability usage: AVX512\n").cpu_capability, "AVX512");
  EXPECT_EQ(parse_torch_config("Build settings: BLAS_INFO=mkl, LAPACK_INFO=mkl\n").blas, "mkl");
  EXPECT_EQ(parse_torch_config("Build settings: BLAS_INFO=mkl, LAPACK_INFO=mkl\n").lapack, "mkl");
  EXPECT_FALSE(parse_torch_config("BLAS_INFO=\x1b[31mred, x").blas.has_value());
  EXPECT_FALSE(parse_torch_config("BLAS_INFO=" + std::string(100, 'a')).blas.has_value());
  EXPECT_FALSE(parse_torch_config("").cpu_capability.has_value());
}

TEST(NumaNodeMeminfo, ReadsItsOwnNodesTotal) {
  // /sys/devices/system/node/node1/meminfo as the kernel writes it (drivers/base/node.c).
  const char* text =
      "Node 1 MemTotal:       65969880 kB\n"
      "Node 1 MemFree:        60127144 kB\n"
      "Node 1 MemUsed:         5842736 kB\n";
  EXPECT_EQ(probe::parse_node_meminfo_total(text, 1), 65969880ULL * 1024);
  EXPECT_FALSE(probe::parse_node_meminfo_total(text, 0).has_value()) << "another node's file";
  EXPECT_FALSE(probe::parse_node_meminfo_total("Node 1 MemTotal: lots kB\n", 1).has_value());
  EXPECT_FALSE(probe::parse_node_meminfo_total("Node 1 MemTotal: 123\n", 1).has_value()) << "no unit";
  EXPECT_FALSE(probe::parse_node_meminfo_total("Node 1 MemTotal: 99999999999999999999 kB\n", 1).has_value());
  EXPECT_FALSE(probe::parse_node_meminfo_total("", 1).has_value());
}

TEST(NumaNodeOfPciDevice, MinusOneIsNoNode) {
  EXPECT_EQ(probe::parse_numa_node("1\n"), 1);
  EXPECT_EQ(probe::parse_numa_node("0"), 0);
  EXPECT_FALSE(probe::parse_numa_node("-1").has_value());
  EXPECT_FALSE(probe::parse_numa_node("").has_value());
  EXPECT_FALSE(probe::parse_numa_node("one").has_value());
  EXPECT_FALSE(probe::parse_numa_node("4096").has_value()) << "past MAX_NUMNODES";
}
