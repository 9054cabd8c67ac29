#pragma once
/// The Inventory: every fact the probes gathered about one machine, as plain data.
/// Everything else (verdict, memory plan, advice, reports) is a pure function of an Inventory plus
/// the data tables, so it works as well on a saved `info --json` from another machine (--from).
/// Units are in the names (bytes, mhz, mw, c); an absent value is std::nullopt and the reason is in
/// the section's `errors`.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpuscout {

inline constexpr const char* kInventorySchema = "gpuscout.inventory/1";

/// A failed call or read, kept for the report: which source, what was attempted, what came back.
struct ProbeError {
  std::string source;   ///< "cpu", "nvml", "cuda", "pci", "python", ...
  std::string what;     ///< the call or file ("nvmlDeviceGetTemperature", "/proc/meminfo")
  std::string message;  ///< readable reason
  std::optional<int> code;  ///< vendor status code where there is one (NVML 9, CUDA 999)
};

struct CpuCache {
  int level = 0;
  std::string type;  ///< "Data", "Instruction", "Unified"
  uint64_t size_bytes = 0;
  std::optional<int> shared_by_cpus;
};

/// One NUMA node (/sys/devices/system/node/nodeN): memory and CPUs close to each other.
struct NumaNode {
  int node = 0;                                 ///< N of nodeN
  std::string cpus;                             ///< its CPUs in the kernel's list form ("0-15,32-47"); "" for none
  std::optional<uint64_t> memory_total_bytes;   ///< "Node N MemTotal" of nodeN/meminfo
};

struct CpuInfo {
  std::string arch;  ///< "x86_64", "aarch64"
  std::optional<std::string> vendor;  ///< "GenuineIntel", "AuthenticAMD", "ARM", ...
  std::optional<std::string> model;
  std::optional<int> family;            ///< x86 "cpu family" (6 Intel Core/Xeon, 25 AMD Zen 3/4, 26 Zen 5)
  std::optional<int> model_number;      ///< x86 "model" (143 Sapphire Rapids): family + model name a generation
  std::optional<int> stepping;          ///< x86 "stepping": the silicon revision
  std::optional<std::string> microcode; ///< "0x2b000603": the microcode revision the kernel loaded
  std::optional<int> sockets;
  std::optional<int> physical_cores;   ///< cores of the usable CPUs (hyper-threads counted once)
  std::optional<int> logical_cpus;     ///< CPUs this process may run on (affinity within online CPUs)
  std::optional<int> online_cpus;      ///< CPUs the kernel has online (the whole machine or VM)
  std::optional<double> cpu_quota;     ///< cgroup CPU quota in CPUs (a container's limit), if any
  std::optional<double> base_mhz;
  std::optional<double> max_mhz;
  /// The highest "cpu MHz" of /proc/cpuinfo: the current clock as the OS reports it (in a VM, what the
  /// hypervisor says); bench's clock when cpufreq gives no max_mhz.
  std::optional<double> cpuinfo_mhz_max;
  std::vector<CpuCache> caches;
  std::vector<std::string> features;   ///< deep-learning-relevant SIMD features the OS enables
  bool hypervisor = false;             ///< the CPU reports running under a hypervisor
  /// The CPUs this process may run on (Cpus_allowed_list of /proc/self/status), in the kernel's list form.
  std::optional<std::string> allowed_cpus;
  std::vector<NumaNode> numa_nodes;    ///< empty where the kernel shows none (or on Windows)
  std::vector<ProbeError> errors;
};

struct MemoryInfo {
  std::optional<uint64_t> total_bytes;
  std::optional<uint64_t> available_bytes;
  std::optional<uint64_t> swap_total_bytes;
  std::optional<uint64_t> swap_free_bytes;
  std::optional<uint64_t> cgroup_limit_bytes;  ///< a container's memory limit, when below total
  std::optional<uint64_t> shm_total_bytes;     ///< size of /dev/shm (PyTorch DataLoader workers share batches there)
  std::optional<uint64_t> shm_available_bytes; ///< free in /dev/shm
  std::vector<ProbeError> errors;
};

struct Disk {
  std::string mount;
  std::string device;
  std::string fstype;
  uint64_t total_bytes = 0;
  uint64_t free_bytes = 0;  ///< available to an unprivileged user, as `df` shows
  /// In use (blocks minus free blocks): total - used - free is what the filesystem reserves for root.
  std::optional<uint64_t> used_bytes;
};

/// Windows' own facts (RtlGetVersion, the registry's CurrentVersion key, the file system policy).
struct WindowsInfo {
  std::string build;                              ///< "26100.4061": CurrentBuildNumber.UBR
  std::optional<std::string> display_version;     ///< "24H2" (DisplayVersion; ReleaseId on older builds)
  std::optional<std::string> edition;             ///< EditionID: "Core" (Home), "Professional", "ServerDatacenter"
  std::optional<bool> long_paths_enabled;         ///< HKLM\SYSTEM\CurrentControlSet\Control\FileSystem LongPathsEnabled
};

struct OsInfo {
  std::string family = "linux";           ///< "linux" or "windows": which set of probes wrote this section
  std::optional<std::string> id;          ///< os-release ID ("ubuntu"); "windows" on Windows
  std::optional<std::string> version_id;  ///< "22.04"
  std::optional<std::string> pretty_name;
  std::optional<std::string> kernel;      ///< kernel release
  std::optional<std::string> container;   ///< "docker", "podman", "kubernetes", "lxc", or none
  std::optional<std::string> virtualization;  ///< "kvm", "hyper-v", "vmware", "xen", "wsl", or none
  bool wsl = false;
  std::optional<WindowsInfo> windows;     ///< only on Windows
  std::vector<ProbeError> errors;
};

/// Where the machine is: decides the advice (a laptop's GPU cannot be upgraded; Colab resets).
struct PlatformInfo {
  std::string kind = "unknown";  ///< colab, kaggle, aistudio, cloud-vm, laptop, desktop, server, wsl, container, unknown
  std::optional<std::string> cloud;         ///< aws, gcp, azure, oracle, alibaba, tencent, ...
  std::optional<std::string> notebook;      ///< colab, kaggle, aistudio (a hosted notebook service)
  bool laptop = false;
  bool battery = false;
  std::optional<int> chassis_type;          ///< SMBIOS chassis type number
  std::optional<std::string> system_vendor; ///< DMI sys_vendor
  std::optional<std::string> product_name;  ///< DMI product_name
};

struct GpuProcess {
  uint32_t pid = 0;
  std::optional<uint64_t> used_bytes;
  std::optional<std::string> name;
};

/// What NVML says of a GPU's memory health: ECC, retired pages (Kepler to Volta; frozen on later boards) and row
/// remapping (Ampere and newer). Each fact is absent where the GPU does not support its call (GeForce cards
/// mostly, and ECC counts while ECC is off); a failing call is in the GPU's `errors`.
struct MemoryHealth {
  std::optional<bool> ecc_enabled;                          ///< current ECC mode (nvmlDeviceGetEccMode)
  std::optional<bool> ecc_pending_enabled;                  ///< the mode after the next reset, when it differs
  std::optional<uint64_t> ecc_errors_uncorrected_volatile;  ///< double-bit errors since the driver loaded
  std::optional<uint64_t> ecc_errors_uncorrected_aggregate; ///< over the board's life
  std::optional<uint64_t> ecc_errors_corrected_volatile;    ///< single-bit errors since the driver loaded
  std::optional<uint32_t> retired_pages_sbe;  ///< pages retired for repeated single-bit errors
  std::optional<uint32_t> retired_pages_dbe;  ///< pages retired for a double-bit error
  std::optional<bool> retired_pages_pending;  ///< a retirement waits for the next reset
  std::optional<uint32_t> remapped_rows_correctable;
  std::optional<uint32_t> remapped_rows_uncorrectable;
  std::optional<bool> remapped_rows_pending;  ///< a remap waits for the next reset
  std::optional<bool> remapped_rows_failed;   ///< a remap failed: the board needs service

  bool operator==(const MemoryHealth&) const = default;
};

/// One GPU, joined across sources by PCI bus id: PCI (every vendor), NVML and CUDA (NVIDIA).
struct Gpu {
  int index = 0;           ///< position in this list (PCI order)
  std::string vendor;      ///< "nvidia", "amd", "intel", or the PCI vendor name in lower case
  std::string name;
  std::optional<std::string> pci_bus_id;  ///< "0000:01:00.0" (lower-case hex, 4-digit domain)
  std::optional<uint16_t> pci_vendor_id;
  std::optional<uint16_t> pci_device_id;
  std::optional<uint16_t> pci_subsystem_vendor_id;
  std::optional<uint16_t> pci_subsystem_device_id;
  std::optional<std::string> pci_name;      ///< the name pci.ids gives
  std::optional<std::string> kernel_driver; ///< "nvidia", "nouveau", "amdgpu", "i915", "xe", ...
  /// The NUMA node the device hangs off (sysfs numa_node); none where the kernel says -1 (no affinity, or unknown).
  std::optional<int> numa_node;
  bool integrated = false;
  std::optional<int> nvml_index;
  std::optional<int> cuda_index;  ///< CUDA's ordinal (fastest first unless CUDA_DEVICE_ORDER=PCI_BUS_ID)
  std::optional<std::string> uuid;
  std::optional<uint64_t> memory_total_bytes;
  std::optional<uint64_t> memory_used_bytes;      ///< as nvidia-smi shows it (NVML v2)
  std::optional<uint64_t> memory_free_bytes;
  std::optional<uint64_t> memory_reserved_bytes;  ///< driver-reserved (NVML v2)
  std::optional<std::string> compute_capability;  ///< "8.9"
  std::optional<std::string> architecture;        ///< "Ada Lovelace", from the data tables
  std::optional<std::string> catalog_name;        ///< matching data/gpus.csv row
  std::optional<int> temperature_c;
  std::optional<uint32_t> power_draw_mw;
  std::optional<uint32_t> power_limit_mw;
  std::optional<int> utilization_gpu_pct;
  std::optional<int> utilization_memory_pct;
  std::optional<int> pcie_gen;        ///< current link generation (drops at idle)
  std::optional<int> pcie_width;
  std::optional<int> pcie_gen_max;    ///< what the card and slot support
  std::optional<int> pcie_width_max;
  std::optional<int> sm_count;
  std::optional<int> clock_sm_mhz;       ///< current
  std::optional<int> max_clock_sm_mhz;
  std::optional<int> clock_memory_mhz;  ///< the maximum memory clock (NVML's max clock info)
  std::optional<int> max_clock_graphics_mhz;
  std::optional<std::string> vbios_version;  ///< NVIDIA: "96.00.AF.00.01" (nvmlDeviceGetVbiosVersion)
  std::optional<bool> persistence_mode;      ///< NVIDIA, Linux: the driver stays loaded with no client
  std::optional<bool> mig_mode;              ///< NVIDIA: MIG on (current mode); absent where the GPU has no MIG
  std::optional<int> memory_bus_width_bits;
  std::optional<uint64_t> l2_bytes;
  std::vector<GpuProcess> processes;
  std::optional<std::string> gfx_target;  ///< AMD: the ISA ROCm builds for ("gfx1100"), from the KFD topology
  std::optional<std::string> luid;        ///< Windows: the adapter's LUID from DXGI ("0x00000000:0x0001a2b3")
  std::optional<std::string> driver_model;  ///< Windows, NVIDIA: "WDDM", "TCC" or "MCDM" (nvmlDeviceGetDriverModel)
  std::optional<MemoryHealth> memory_health;  ///< NVIDIA: absent where NVML answered none of its calls
  std::vector<std::string> sources;  ///< which probes saw it: "pci", "nvml", "cuda"
  std::vector<ProbeError> errors;
};

struct NvidiaInfo {
  bool library_found = false;                     ///< libnvidia-ml.so.1 could be loaded
  std::optional<std::string> library_path;
  std::optional<std::string> driver_version;      ///< "580.95.05"; on Windows as NVIDIA writes it, "581.57"
  std::optional<std::string> windows_driver_version;  ///< Windows' form of the same driver, "32.0.15.8157"
  std::optional<std::string> cuda_driver_version; ///< highest CUDA the driver supports, "13.0"
  std::optional<std::string> nvml_version;
  std::optional<std::string> kernel_module_version;  ///< /proc/driver/nvidia/version
  bool kernel_module_loaded = false;
  bool uvm_loaded = false;     ///< nvidia_uvm: CUDA needs it; without it cuInit fails with 999
  bool nouveau_loaded = false;
  bool timed_out = false;
  std::optional<ProbeError> error;  ///< what stopped NVML (init failure, timeout); per-call errors are on the GPUs
};

struct CudaDevice {
  int index = 0;
  std::string name;
  std::optional<std::string> compute_capability;
  std::optional<int> sm_count;
  std::optional<int> clock_mhz;
  std::optional<int> memory_clock_mhz;
  std::optional<int> memory_bus_width_bits;
  std::optional<uint64_t> l2_bytes;
  std::optional<uint64_t> total_memory_bytes;
  std::optional<std::string> pci_bus_id;
  std::optional<std::string> uuid;
  bool integrated = false;
  std::optional<std::string> luid;  ///< Windows: cuDeviceGetLuid, as gpus[].luid writes DXGI's ("0x00000000:0x0001a2b3")
};

/// What torch.cuda would say, read through the CUDA driver API without Python.
struct CudaInfo {
  bool library_found = false;
  std::optional<std::string> library_path;
  bool available = false;
  int device_count = 0;
  std::optional<std::string> driver_version;  ///< cuDriverGetVersion, "13.0"
  bool timed_out = false;
  std::optional<ProbeError> error;
  std::vector<CudaDevice> devices;
};

struct ToolkitInfo {
  std::optional<std::string> nvcc_path;
  std::optional<std::string> nvcc_version;  ///< "13.0.88" -> release "13.0"
  std::optional<std::string> cudnn_version; ///< "9.13.0"
  std::optional<std::string> cudnn_path;
  std::vector<ProbeError> errors;
};

struct TorchDevice {
  int index = 0;
  std::string name;
  std::optional<std::string> capability;  ///< "8.9"
  std::optional<uint64_t> total_memory_bytes;
  std::optional<int> multi_processor_count;
};

struct TorchInfo {
  std::string version;                 ///< "2.5.1+cu121"
  std::optional<std::string> cuda;     ///< CUDA it was built with, "12.1"; none for a CPU build
  std::optional<std::string> hip;      ///< ROCm builds
  bool cuda_available = false;
  int device_count = 0;
  std::vector<std::string> arch_list;  ///< "sm_50", ..., "compute_90"
  std::optional<std::string> cudnn_version;  ///< "9.1.0" from 90100
  std::optional<bool> mps_available;
  std::optional<bool> xpu_available;
  std::vector<TorchDevice> devices;
  std::vector<std::string> warnings;   ///< warnings torch printed (e.g. "sm_120 is not compatible")
  std::optional<bool> debug;           ///< torch.version.debug: a debug build, much slower
  /// The SIMD kernels torch's CPU code dispatches to ("AVX2", "AVX512", "DEFAULT"):
  /// torch.backends.cpu.get_cpu_capability(), else "CPU capability usage:" of torch.__config__.show().
  std::optional<std::string> cpu_capability;
  std::optional<int> num_threads;          ///< torch.get_num_threads(): intra-op threads (matmul, conv)
  std::optional<int> num_interop_threads;  ///< torch.get_num_interop_threads()
  std::optional<std::string> blas;     ///< BLAS_INFO of torch.__config__.show(): "mkl", "open" (OpenBLAS), "generic"
  std::optional<std::string> lapack;   ///< LAPACK_INFO, same forms
};

/// Another interpreter on the machine that has PyTorch, found when the chosen one has none.
struct OtherPython {
  std::string executable;                 ///< the path gpuscout ran ("/usr/bin/python3")
  std::optional<std::string> version;     ///< its Python, "3.12.3"
  std::string torch_version;              ///< "2.5.1+cu121"
  std::optional<std::string> torch_cuda;  ///< CUDA the build was made with, "12.1"; none for a CPU build
};

/// An installed distribution that matters next to torch (numpy, torchvision, torchaudio, triton, nvidia-*).
struct PythonPackage {
  std::string name;     ///< normalised: lower case, '-' for '_' ("nvidia-cudnn-cu12")
  std::string version;  ///< as its metadata says ("9.1.0.70")
};

struct PythonInfo {
  bool probed = false;                 ///< false with --no-python or for an old inventory
  std::optional<std::string> executable;
  std::optional<std::string> version;
  /// The rule that chose the interpreter: "--python", "GPUSCOUT_PYTHON", "VIRTUAL_ENV", "CONDA_PREFIX", ".venv",
  /// "PATH", or on Windows "py" (the py launcher) or "install-folder" (a usual install folder PATH does not reach).
  std::optional<std::string> selected_by;
  std::optional<bool> in_venv;             ///< sys.prefix != sys.base_prefix (a venv or virtualenv)
  /// PEP 668: the stdlib folder holds EXTERNALLY-MANAGED and this is no venv, so `pip install` refuses.
  std::optional<bool> externally_managed;
  std::optional<bool> has_pip;        ///< `python -m pip` would run (pip importable)
  /// ensurepip importable: `-m venv` can seed pip (Debian and Ubuntu ship it apart, in python3-venv)
  std::optional<bool> has_ensurepip;
  /// The tool that made the environment, where it matters to installing: "uv" (its venvs have no pip), "conda".
  std::optional<std::string> environment_tool;
  bool torch_installed = false;
  bool timed_out = false;
  std::optional<ProbeError> error;     ///< python missing, import failed with an error other than "no module"
  std::vector<OtherPython> others;     ///< interpreters with torch, listed when this one has none
  /// Windows: the Microsoft Store's python.exe stub (WindowsApps) that PATH reaches first; never run, since it
  /// opens the Store instead of running Python.
  std::optional<std::string> store_alias;
  /// sys.version on one line: "3.11.2 (main, Apr 28 2025, 14:11:48) [GCC 12.2.0]"
  std::optional<std::string> build;
  std::optional<std::string> implementation;  ///< platform.python_implementation(): "CPython", "PyPy"
  std::optional<std::string> libc;            ///< platform.libc_ver() as Python sees it: "glibc 2.36"
  std::vector<PythonPackage> packages;        ///< from importlib.metadata, sorted by name, at most 64
};

/// AMD's ROCm as the machine exposes it to PyTorch's ROCm builds (amdgpu's KFD device and the environment).
struct RocmInfo {
  bool kfd_present = false;                            ///< /dev/kfd's topology in sysfs (amdgpu's compute side)
  std::optional<std::string> hsa_override_gfx_version; ///< HSA_OVERRIDE_GFX_VERSION, when set
};

/// Bounds on the recorded environment (probe/environment.cpp writes it, inventory/json.cpp reads it back).
inline constexpr size_t kMaxEnvironmentVariables = 64;
inline constexpr size_t kMaxEnvironmentValueBytes = 4096;
/// A variable name longer than this is no setting anyone types: not recorded.
inline constexpr size_t kMaxEnvironmentNameBytes = 128;

/// The environment variables that change what GPUs and threads a program gets (probe/environment.cpp lists
/// them), name -> value as the process saw it. A variable that is unset is absent; one set to "" is present with
/// an empty value (CUDA_VISIBLE_DEVICES="" hides every GPU). nullopt: not recorded (an older gpuscout's file).
using Environment = std::map<std::string, std::string>;

/// How long each driver probe took inside its own child (library load, init, every query), null when it gave no
/// answer: where `probe_ms` goes on a GPU machine, beside the floors of bench/doctor_time.py.
struct ProbeTimings {
  std::optional<double> nvml_ms;
  std::optional<double> cuda_ms;
};

struct Inventory {
  std::string schema = kInventorySchema;
  std::string gpuscout_version;
  std::optional<std::string> collected_at;  ///< ISO 8601 UTC
  std::optional<std::string> hostname;      ///< private: only in `info --json`, dropped from reports
  CpuInfo cpu;
  MemoryInfo memory;
  std::vector<Disk> disks;
  std::vector<ProbeError> disk_errors;
  OsInfo os;
  PlatformInfo platform;
  std::vector<Gpu> gpus;
  std::vector<ProbeError> pci_errors;
  NvidiaInfo nvidia;
  CudaInfo cuda;
  ToolkitInfo toolkit;
  RocmInfo rocm;
  std::optional<Environment> environment;
  PythonInfo python;
  std::optional<TorchInfo> torch;
  double probe_ms = 0;  ///< wall time the probes took
  ProbeTimings probe_timings_ms;
};

}  // namespace gpuscout
