// The parsers of issue 15's machine facts: cgroup membership and paths, memory limits, the recorded cpuid dump and
// the hypervisor decision, CPU family lines, disk use.
#include <gtest/gtest.h>

#include "probe/sources.hpp"
#include "vendor/cpuid.hpp"

using namespace gpuscout;
using namespace gpuscout::probe;

TEST(ProcCgroup, UnifiedAndV1Paths) {
  // A cgroup v1 Docker container without a cgroup namespace (Docker 19, Ubuntu 18.04 host).
  const auto v1 = parse_proc_cgroup(
      "12:memory:/docker/4f2a9c\n11:cpu,cpuacct:/docker/4f2a9c\n1:name=systemd:/docker/4f2a9c\n0::/system.slice\n");
  EXPECT_EQ(v1.v1.at("memory"), "/docker/4f2a9c");
  EXPECT_EQ(v1.v1.at("cpu"), "/docker/4f2a9c");
  EXPECT_EQ(v1.unified, "/system.slice");
  // A cgroup v2 namespace: the container sees itself at the root.
  EXPECT_EQ(parse_proc_cgroup("0::/\n").unified, "");
  // Damage: no colons, relative or climbing paths are dropped.
  const auto bad = parse_proc_cgroup("garbage\n0::relative\n5:memory:/a/../../etc\n");
  EXPECT_FALSE(bad.unified);
  EXPECT_TRUE(bad.v1.empty());
}

TEST(ProcCgroup, DirsWalkUpToTheMount) {
  const std::vector<std::string> want{"/sys/fs/cgroup/a/b", "/sys/fs/cgroup/a", "/sys/fs/cgroup"};
  EXPECT_EQ(cgroup_dirs("/sys/fs/cgroup", "/a/b"), want);
  EXPECT_EQ(cgroup_dirs("/sys/fs/cgroup", ""), std::vector<std::string>{"/sys/fs/cgroup"});
}

TEST(ProcCgroup, MemoryLimitValues) {
  EXPECT_EQ(parse_cgroup_memory_limit("8589934592\n"), 8589934592ULL);
  EXPECT_FALSE(parse_cgroup_memory_limit("max"));
  EXPECT_FALSE(parse_cgroup_memory_limit("9223372036854771712"));  // v1's "no limit"
  EXPECT_FALSE(parse_cgroup_memory_limit("0"));
  EXPECT_FALSE(parse_cgroup_memory_limit("-1"));
}

TEST(CpuidDump, ReplaysTheHypervisorSignature) {
  // This machine's leaves 1 (ECX bit 31: hypervisor) and 0x40000000 ("KVMKVMKVM\0\0\0").
  const auto leaves = vendor::cpuid::parse_dump(
      "# leaf subleaf => eax ebx ecx edx\n0x1 0x0 => 0x806f8 0x800 0xfffa3203 0x1f8bfbff\n"
      "0x40000000 0x0 => 0x40000001 0x4b4d564b 0x564b4d56 0x4d\nnot a line\n0x2 0x0 => 0x1 0x2 0x3\n");
  EXPECT_EQ(leaves.size(), 2u);
  const auto table = vendor::cpuid::replay(leaves);
  const auto signature = vendor::cpuid::hypervisor_signature(table);
  ASSERT_TRUE(signature);
  EXPECT_EQ(*signature, "KVMKVMKVM");
  EXPECT_EQ(hypervisor_name(*signature), "kvm");
  EXPECT_FALSE(vendor::cpuid::hypervisor_signature(vendor::cpuid::replay({})));
}

TEST(CpuidDump, EverySignatureSystemdKnows) {
  const std::pair<const char*, const char*> known[] = {
      {"KVMKVMKVM", "kvm"},          {"Linux KVM Hv", "kvm"},     {"Microsoft Hv", "hyper-v"},
      {"VMwareVMware", "vmware"},    {"XenVMMXenVMM", "xen"},     {"TCGTCGTCGTCG", "qemu"},
      {" lrpepyh  vr", "parallels"}, {"VBoxVBoxVBox", "virtualbox"}, {"ACRNACRNACRN", "acrn"},
      {"bhyve bhyve ", "bhyve"},     {"QNXQVMBSQG", "qnx"}};
  for (const auto& [sig, name] : known) EXPECT_EQ(hypervisor_name(sig), name) << sig;
  EXPECT_FALSE(hypervisor_name("NotAHypervisor"));
}

TEST(Virtualization, SystemdOrder) {
  // Amazon's Nitro runs KVM: DMI wins. A QEMU DMI with a Hyper-V signature: cpuid wins.
  EXPECT_TRUE(firmware_names_first("Amazon EC2", "g5.xlarge", "Amazon EC2"));
  EXPECT_EQ(decide_virtualization("kvm", true, std::string("kvm"), true), "kvm");
  EXPECT_EQ(decide_virtualization("virtualbox", true, std::string("kvm"), true), "virtualbox");
  EXPECT_FALSE(firmware_names_first("QEMU", "Standard PC (Q35 + ICH9, 2009)", "SeaBIOS"));
  EXPECT_EQ(decide_virtualization("kvm", false, std::string("hyper-v"), true), "hyper-v");
  EXPECT_EQ(decide_virtualization("kvm", false, std::nullopt, true), "kvm");
  EXPECT_EQ(decide_virtualization(std::nullopt, false, std::nullopt, true), "unknown-hypervisor");
  EXPECT_FALSE(decide_virtualization(std::nullopt, false, std::nullopt, false));
}

TEST(CpuinfoIdentity, FamilyModelSteppingMicrocode) {
  const auto s = parse_cpuinfo(
      "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\n"
      "model name\t: Intel(R) Xeon(R) Platinum 8480+\nstepping\t: 8\nmicrocode\t: 0x2b000603\n\n"
      "processor\t: 1\ncpu family\t: 99\nmodel\t\t: 1\n");
  EXPECT_EQ(s.family, 6);
  EXPECT_EQ(s.model_number, 143);
  EXPECT_EQ(s.stepping, 8);
  EXPECT_EQ(s.microcode, "0x2b000603");
  EXPECT_EQ(s.model, "Intel(R) Xeon(R) Platinum 8480+");
  const auto bad = parse_cpuinfo("cpu family\t: -3\nmodel\t: x\n");
  EXPECT_FALSE(bad.family);
  EXPECT_FALSE(bad.model_number);
}

TEST(DiskUse, BlocksInUse) {
  EXPECT_EQ(used_bytes(os::FsSpace{1000, 300, 250}), 700u);  // 50 reserved for root
  EXPECT_FALSE(used_bytes(os::FsSpace{100, 300, 250}));
}
