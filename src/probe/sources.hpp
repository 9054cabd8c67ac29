#pragma once
/// The individual probes. Each fills its own part of an Inventory and records its own errors.
/// Pure parsers take text and return values, so tests feed them strings from real machines.
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "inventory/inventory.hpp"
#include "os/system.hpp"
#include "vendor/cpuid.hpp"
#include "vendor/cuda.hpp"
#include "vendor/nvml.hpp"

namespace gpuscout::probe {

// --- CPU (cpu.cpp) ---
struct CpuinfoSummary {
  std::optional<std::string> vendor, model;
  int processors = 0;                ///< "processor" entries
  std::optional<int> sockets;        ///< distinct "physical id"
  std::optional<int> physical_cores; ///< distinct (physical id, core id) pairs
  std::vector<std::string> flags;    ///< x86 "flags" or Arm "Features" of the first processor
  std::optional<double> nominal_ghz; ///< "@ 2.20GHz" in the model name
  bool hypervisor = false;
  std::optional<std::string> arm_implementer, arm_part;
  std::optional<int> family, model_number, stepping;  ///< x86 "cpu family", "model", "stepping"
  std::optional<std::string> microcode;               ///< "0x2b000603"
};
CpuinfoSummary parse_cpuinfo(std::string_view text);
/// Deep-learning-relevant features from the kernel's flag names, normalised ("asimd" -> "neon").
std::vector<std::string> dl_features_from_flags(const std::vector<std::string>& flags, std::string_view arch);
/// "200000 100000" -> 2.0; "max 100000" -> nullopt.
std::optional<double> parse_cgroup_cpu_max(std::string_view text);
/// Sizes as in sysfs cache files ("32K", "1024K", "16M").
std::optional<uint64_t> parse_cache_size(std::string_view text);
/// The highest "cpu MHz" line of /proc/cpuinfo (what the OS reports); nullopt when there is none.
std::optional<double> parse_cpuinfo_mhz_max(std::string_view text);
/// Cores and sockets: from the distinct (package, core) ids sysfs gives for the usable CPUs; without them from
/// cpuinfo's ids (scaled to the CPUs we may use), else one core per logical CPU (Arm and most VMs lack core ids).
struct CoreCount {
  std::optional<int> physical_cores, sockets;
};
CoreCount count_cores(const std::set<std::pair<long long, long long>>& sysfs_ids, const CpuinfoSummary& summary,
                      std::optional<int> logical_cpus, std::optional<int> online_cpus);
CpuInfo probe_cpu();

// --- NUMA (numa.cpp) ---
/// "Node 1 MemTotal:  65843212 kB" of nodeN/meminfo -> bytes; nullopt without a valid line for `node`.
std::optional<uint64_t> parse_node_meminfo_total(std::string_view text, int node);
/// A PCI device's numa_node file: "1" -> 1; nullopt for -1 (no node known) and anything malformed.
std::optional<int> parse_numa_node(std::string_view text);
/// The nodes of /sys/devices/system/node, in node order; empty where the kernel shows none.
std::vector<NumaNode> probe_numa_nodes(std::vector<ProbeError>& errors);

// --- cgroups (cgroup.cpp) ---
/// /proc/self/cgroup: the v2 path ("0::/PATH", "" for the root) and v1 paths of the cpu and memory controllers.
struct CgroupMembership {
  std::optional<std::string> unified;
  std::map<std::string, std::string> v1;  ///< "memory" -> "/docker/ID"
};
CgroupMembership parse_proc_cgroup(std::string_view text);
/// MOUNT + PATH and each parent up to MOUNT itself, innermost first ("/sys/fs/cgroup/a/b", ".../a", "/sys/fs/cgroup").
std::vector<std::string> cgroup_dirs(std::string_view mount, std::string_view path);
/// The limit files of the process's own cgroup, innermost first: v2's `v2_file` along the unified path, then
/// v1's `v1_file` along the controller's path under /sys/fs/cgroup/CONTROLLER.
std::vector<std::string> own_cgroup_files(std::string_view v1_controller, std::string_view v2_file,
                                          std::string_view v1_file);
/// memory.max / memory.limit_in_bytes -> bytes; nullopt for "max", 0 and v1's huge "no limit" value.
std::optional<uint64_t> parse_cgroup_memory_limit(std::string_view text);
/// The smallest memory limit along the process's own cgroup path (v2 and v1); nullopt without one.
std::optional<uint64_t> cgroup_memory_limit();

// --- Memory (memory.cpp) ---
/// /proc/meminfo: fills total, available, swap; errors for lines that do not parse.
MemoryInfo parse_meminfo(std::string_view text);
MemoryInfo probe_memory();

// --- Disks (disks.cpp) ---
struct MountEntry {
  std::string device, mount, fstype;
  bool read_only = false;
};
std::vector<MountEntry> parse_mounts(std::string_view text, std::vector<ProbeError>* errors = nullptr);
/// Real filesystems a user stores data on (like df without pseudo filesystems), one per device.
std::vector<MountEntry> real_filesystems(const std::vector<MountEntry>& mounts);
std::vector<Disk> probe_disks(std::vector<ProbeError>& errors);
/// Bytes in use (statvfs f_blocks - f_bfree); nullopt when the free figure exceeds the total.
std::optional<uint64_t> used_bytes(const os::FsSpace& space);

// --- OS and platform (system.cpp) ---
/// os-release KEY=VALUE with shell quoting.
std::vector<std::pair<std::string, std::string>> parse_os_release(std::string_view text);
OsInfo probe_os(bool cpu_hypervisor_flag);
PlatformInfo probe_platform(const OsInfo& os);
/// The hypervisor a cpuid leaf 0x40000000 signature names ("Microsoft Hv" -> "hyper-v"); nullopt if unknown.
std::optional<std::string> hypervisor_name(std::string_view signature);
/// The hypervisor the firmware's strings name (DMI on Linux, SMBIOS on Windows): "Microsoft Corporation" +
/// "Virtual Machine" -> "hyper-v", QEMU and the KVM clouds -> "kvm", ...; nullopt on bare metal.
std::optional<std::string> virtualization_from_firmware(std::string_view sys_vendor, std::string_view product_name,
                                                        std::string_view bios_vendor);
/// systemd-detect-virt's order: the firmware's name first only where `firmware_first` (VirtualBox, Xen, Amazon
/// EC2, Parallels), then the cpuid signature's, then the firmware's, then "unknown-hypervisor" for the bare bit.
std::optional<std::string> decide_virtualization(const std::optional<std::string>& firmware, bool firmware_first,
                                                 const std::optional<std::string>& cpuid_name, bool hypervisor_bit);
/// Whether the firmware's strings name a hypervisor systemd trusts before cpuid (see decide_virtualization).
bool firmware_names_first(std::string_view sys_vendor, std::string_view product_name, std::string_view bios_vendor);
/// The cpuid table of the machine probed: the running CPU, or under a sysroot its recorded cpuid.txt.
vendor::cpuid::Functions machine_cpuid();
/// SMBIOS chassis types of portable machines (8-10, 14, 30-32).
bool laptop_chassis(int chassis_type);
/// "desktop" or "server" for those SMBIOS chassis types; nullopt for the others.
std::optional<std::string> chassis_kind(int chassis_type);

// --- PCI (pci.cpp): every display/3D/accelerator device of every vendor, named from pci.ids ---
std::vector<Gpu> probe_pci_gpus(std::vector<ProbeError>& errors);
/// The Inventory's vendor key of a PCI vendor id ("nvidia", "amd", "intel", ...; else pci.ids' first word, lower
/// case): the one mapping, used for sysfs devices and for Windows' DXGI adapters alike.
std::string vendor_key(uint16_t vendor_id, std::string_view pci_vendor_name);
/// Server BMCs' and hypervisors' emulated display adapters: shown as VGA devices, never a GPU to compute on.
bool is_display_only_adapter(uint16_t vendor_id);
/// Canonical bus id "0000:01:00.0" from NVML's "00000000:01:00.0" or CUDA's "0000:01:00.0".
std::string normalize_bus_id(std::string_view bus_id);
/// A Windows adapter LUID as gpuscout writes it everywhere (gpus[].luid from DXGI, cuda.devices[].luid from
/// cuDeviceGetLuid): "0xHIGHPART:0xLOWPART", 8 lower-case hex digits each, "0x00000000:0x0001a2b3" (join.cpp).
std::string luid_text(uint32_t high_part, uint32_t low_part);

// --- AMD (amdgpu.cpp): VRAM and the ROCm ISA from amdgpu's sysfs files ---
struct KfdProperties {
  std::optional<std::string> bus_id;      ///< "0000:03:00.0" from domain and location_id
  std::optional<std::string> gfx_target;  ///< "gfx1100"; none for CPU nodes
};
/// One KFD topology node's `properties` file ("gfx_target_version 110000" lines).
KfdProperties parse_kfd_properties(std::string_view text);
/// gfx_target_version 110000 -> "gfx1100", 90010 -> "gfx90a"; nullopt for 0 and out-of-range values.
std::optional<std::string> gfx_target_name(uint64_t version);
/// Fills AMD GPUs' memory and gfx target, and the ROCm facts.
void probe_amdgpu(std::vector<Gpu>& gpus, RocmInfo& rocm);

// --- Environment (environment.cpp) ---
using EnvironmentLookup = std::function<std::optional<std::string>(const std::string&)>;
/// The recorded variables among `names` (the environment's names, for the prefix rules) and the fixed list, with
/// their values from `lookup`: unset ones absent, values cleaned to UTF-8 and cut to kMaxEnvironmentValueBytes, at
/// most kMaxEnvironmentVariables (the fixed names first, then the prefixed ones by name).
Environment recorded_environment(const std::vector<std::string>& names, const EnvironmentLookup& lookup);
/// The recorded variables of this process (of <sysroot>/proc/self/environ under a sysroot).
Environment probe_environment();

// --- NVIDIA kernel module state (nvidia_module.cpp) ---
void probe_nvidia_module(NvidiaInfo& info);

// --- NVML and the CUDA driver API (nvml.cpp, cuda_driver.cpp): run inside a bounded child ---
struct NvmlReport {
  NvidiaInfo info;
  std::vector<Gpu> gpus;  ///< NVML's view, pci_bus_id set
};
/// Opens the driver library (vendor floor) and probes through it; a library that cannot be opened is an error
/// recorded in the report.
NvmlReport probe_nvml();
CudaInfo probe_cuda_driver();
/// The probe logic over a table of functions: the real library's, or a test's in-process fake.
NvmlReport probe_nvml(const vendor::nvml::Functions& functions);
CudaInfo probe_cuda_driver(const vendor::cuda::Functions& functions);

// --- Toolkit (toolkit.cpp) ---
ToolkitInfo probe_toolkit();
/// "Cuda compilation tools, release 13.0, V13.0.88" -> "13.0.88".
std::optional<std::string> parse_nvcc_version(std::string_view text);
/// cudnn_version.h -> "9.13.0".
std::optional<std::string> parse_cudnn_header(std::string_view text);
/// The toolkit's version.json -> "13.0.88" (cuda_nvcc's version, else cuda's); an error for damaged JSON or a
/// version that does not parse, so the inventory never holds one that --from would refuse.
Result<std::string> parse_toolkit_version_json(std::string_view text);

// --- Python and PyTorch (python_torch.cpp) ---
/// The probe script run with `python3 -c`; prints one JSON object.
std::string_view python_probe_script();
/// Parses the script's output into python + torch facts.
void parse_python_probe_output(std::string_view json_text, PythonInfo& python, std::optional<TorchInfo>& torch);
/// What torch.__config__.show() says about the CPU side; each a short name, or none where absent or odd.
struct TorchConfig {
  std::optional<std::string> cpu_capability;  ///< "CPU capability usage: AVX2" (torch 1.x/2.x before the API)
  std::optional<std::string> blas;            ///< "BLAS_INFO=open" -> "open"
  std::optional<std::string> lapack;          ///< "LAPACK_INFO=mkl" -> "mkl"
};
TorchConfig parse_torch_config(std::string_view show);

// --- Joining (join.cpp) ---
/// Merges NVML and CUDA views into the PCI list by bus id (GPUs NVML sees but PCI does not, as in WSL, are
/// appended); then names each GPU's architecture and catalogue row from the data tables.
void join_gpus(Inventory& inventory, const NvmlReport& nvml);

}  // namespace gpuscout::probe
