// OS (distribution, kernel, container, VM, WSL) and platform (Colab, Kaggle, cloud VM, laptop, desktop).
#include <algorithm>

#include "core/text.hpp"
#include "os/system.hpp"
#include "probe/sources.hpp"
#include "vendor/cpuid.hpp"

namespace gpuscout::probe {
namespace {

// Firmware strings: vendors write Latin-1 and padding bytes here, so they are cleaned to UTF-8 on entry.
std::optional<std::string> dmi(const char* field) {
  auto v = os::read_line(std::string("/sys/class/dmi/id/") + field);
  if (!v) return std::nullopt;
  std::string clean = text::clean_utf8(*v);
  if (clean.empty()) return std::nullopt;
  return clean;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> parse_os_release(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> out;
  for (auto raw : text::split(text, '\n')) {
    const auto line = text::trim(raw);
    if (line.empty() || line.front() == '#') continue;
    const auto eq = line.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    std::string key(text::trim(line.substr(0, eq)));
    std::string_view value = text::trim(line.substr(eq + 1));
    std::string unquoted;
    if (!value.empty() && (value.front() == '"' || value.front() == '\'')) {
      const char q = value.front();
      size_t i = 1;
      bool closed = false;
      for (; i < value.size(); ++i) {
        if (value[i] == '\\' && q == '"' && i + 1 < value.size()) {
          unquoted += value[++i];
        } else if (value[i] == q) {
          closed = true;
          break;
        } else {
          unquoted += value[i];
        }
      }
      if (!closed) continue;  // unbalanced quotes: skip the line rather than guess
    } else {
      unquoted = std::string(value);
    }
    out.emplace_back(text::clean_utf8(key), text::clean_utf8(unquoted));
  }
  return out;
}

std::optional<std::string> hypervisor_name(std::string_view signature) {
  // The signatures systemd-detect-virt knows.
  static const std::pair<std::string_view, std::string_view> known[] = {
      {"KVMKVMKVM", "kvm"},         {"Linux KVM Hv", "kvm"},   {"Microsoft Hv", "hyper-v"}, {"VMwareVMware", "vmware"},
      {"XenVMMXenVMM", "xen"},      {"TCGTCGTCGTCG", "qemu"},  {" lrpepyh  vr", "parallels"},
      {"VBoxVBoxVBox", "virtualbox"}, {"bhyve bhyve ", "bhyve"}, {"ACRNACRNACRN", "acrn"}, {"QNXQVMBSQG", "qnx"},
      {"SRESRESRESRE", "sre"},      {"Apple VZ", "apple"}};
  for (const auto& [sig, name] : known)
    if (signature == sig) return std::string(name);
  return std::nullopt;
}

std::optional<std::string> virtualization_from_firmware(std::string_view sys_vendor, std::string_view product_name,
                                                        std::string_view bios_vendor) {
  const std::string vendor = text::to_lower(sys_vendor);
  const std::string product = text::to_lower(product_name);
  const std::string bios = text::to_lower(bios_vendor);
  const auto has = [](const std::string& s, const char* what) { return s.find(what) != std::string::npos; };
  if (has(vendor, "vmware")) return "vmware";
  if (has(vendor, "microsoft") && has(product, "virtual")) return "hyper-v";
  if (has(vendor, "xen") || has(bios, "xen")) return "xen";
  if (has(vendor, "qemu") || has(product, "kvm") || has(vendor, "amazon ec2") || vendor == "google" ||
      has(product, "google compute engine") || has(bios, "seabios") || has(vendor, "alibaba") ||
      has(vendor, "tencent") || has(vendor, "openstack") || has(vendor, "digitalocean") || has(vendor, "hetzner"))
    return "kvm";
  if (has(vendor, "innotek") || has(product, "virtualbox")) return "virtualbox";
  if (has(vendor, "parallels")) return "parallels";
  return std::nullopt;
}

bool laptop_chassis(int chassis_type) {
  // SMBIOS chassis types: 8 Portable, 9 Laptop, 10 Notebook, 14 Sub Notebook, 30 Tablet, 31 Convertible,
  // 32 Detachable.
  static constexpr int laptop_types[] = {8, 9, 10, 14, 30, 31, 32};
  return std::find(std::begin(laptop_types), std::end(laptop_types), chassis_type) != std::end(laptop_types);
}

std::optional<std::string> chassis_kind(int t) {
  // 17 Main Server Chassis, 23 Rack Mount, 25 Multi-system, 28 Blade; 3-7, 13, 15, 16, 35, 36 desktops.
  if (t == 17 || t == 23 || t == 25 || t == 28 || t == 29) return "server";
  if ((t >= 3 && t <= 7) || t == 13 || t == 15 || t == 16 || t == 24 || t == 35 || t == 36) return "desktop";
  return std::nullopt;
}

vendor::cpuid::Functions machine_cpuid() {
  if (os::sysroot().empty()) return vendor::cpuid::native();
  // Under a sysroot the running CPU is not the recorded machine's: its cpuid.txt answers (nothing without one).
  auto dump = os::read_file("/cpuid.txt", 1 << 20);
  return dump ? vendor::cpuid::replay(vendor::cpuid::parse_dump(*dump)) : vendor::cpuid::Functions{};
}

std::optional<std::string> decide_virtualization(const std::optional<std::string>& firmware, bool firmware_first,
                                                 const std::optional<std::string>& cpuid_name, bool hypervisor_bit) {
  if (firmware && firmware_first) return firmware;
  if (cpuid_name) return cpuid_name;
  if (firmware) return firmware;
  if (hypervisor_bit) return "unknown-hypervisor";
  return std::nullopt;
}

bool firmware_names_first(std::string_view sys_vendor, std::string_view product_name, std::string_view bios_vendor) {
  // systemd-detect-virt trusts DMI before cpuid only for these: VirtualBox and Amazon's Nitro run on KVM,
  // Parallels too, and Xen may cloak as Hyper-V.
  const auto named = virtualization_from_firmware(sys_vendor, product_name, bios_vendor);
  if (named == "virtualbox" || named == "xen" || named == "parallels") return true;
  return text::contains_icase(sys_vendor, "amazon ec2");
}

namespace {

/// The hypervisor the cpuid signature (leaf 0x40000000) names, on the live machine or from a recorded cpuid.txt.
std::optional<std::string> hypervisor_from_cpuid() {
  const auto signature = vendor::cpuid::hypervisor_signature(machine_cpuid());
  if (!signature) return std::nullopt;
  return hypervisor_name(*signature);
}

std::optional<std::string> detect_vm(bool cpu_hypervisor_flag) {
  const std::string vendor = dmi("sys_vendor").value_or(""), product = dmi("product_name").value_or(""),
                    bios = dmi("bios_vendor").value_or("");
  return decide_virtualization(virtualization_from_firmware(vendor, product, bios),
                               firmware_names_first(vendor, product, bios), hypervisor_from_cpuid(),
                               cpu_hypervisor_flag);
}

}  // namespace

OsInfo probe_os(bool cpu_hypervisor_flag) {
  OsInfo info;
  auto release = os::read_file("/etc/os-release");
  if (!release) release = os::read_file("/usr/lib/os-release");
  if (release) {
    for (auto& [k, v] : parse_os_release(*release)) {
      if (k == "ID") info.id = v;
      else if (k == "VERSION_ID") info.version_id = v;
      else if (k == "PRETTY_NAME") info.pretty_name = v;
    }
  } else {
    info.errors.push_back(ProbeError{"os", "/etc/os-release", release.error().message, std::nullopt});
  }
  if (auto k = os::read_line("/proc/sys/kernel/osrelease")) info.kernel = text::clean_utf8(*k);
  const std::string version = os::read_line("/proc/version").value_or("");
  info.wsl = (info.kernel && text::contains_icase(*info.kernel, "microsoft")) ||
             text::contains_icase(version, "microsoft") || os::exists("/proc/sys/fs/binfmt_misc/WSLInterop");

  // Containers: the runtimes' marker files, then the init process's cgroup path.
  // A stale /.dockerenv survives in VM images built from containers: trust it only with an overlay root.
  bool overlay_root = false;
  if (auto mounts = os::read_file("/proc/self/mounts")) {
    for (auto line : text::split(*mounts, '\n')) {
      const auto f = text::split_ws(line);
      if (f.size() >= 3 && f[1] == "/" && (f[2] == "overlay" || f[2] == "aufs" || f[2] == "fuse-overlayfs")) overlay_root = true;
    }
  }
  if (os::exists("/run/.containerenv")) info.container = "podman";
  else if (os::exists("/.dockerenv") && overlay_root) info.container = "docker";
  if (auto cg = os::read_file("/proc/1/cgroup")) {
    if (cg->find("kubepods") != std::string::npos) info.container = "kubernetes";
    else if (!info.container && cg->find("/docker") != std::string::npos) info.container = "docker";
    else if (!info.container && cg->find("/lxc") != std::string::npos) info.container = "lxc";
  }
  if (!info.container && os::getenv("KUBERNETES_SERVICE_HOST")) info.container = "kubernetes";

  // Virtualisation: WSL first (it is Hyper-V underneath, but WSL is what the user needs to hear).
  info.virtualization = info.wsl ? std::optional<std::string>("wsl") : detect_vm(cpu_hypervisor_flag);
  return info;
}

PlatformInfo probe_platform(const OsInfo& osinfo) {
  PlatformInfo p;
  p.system_vendor = dmi("sys_vendor");
  p.product_name = dmi("product_name");
  if (auto chassis = dmi("chassis_type")) {
    if (auto n = text::parse_int(*chassis); n && *n > 0 && *n < 256) p.chassis_type = static_cast<int>(*n);
  }
  for (const auto& supply : os::list_dir("/sys/class/power_supply")) {
    if (os::read_line("/sys/class/power_supply/" + supply + "/type").value_or("") == "Battery") {
      // Wireless mice and UPSes report batteries too; those carry scope "Device".
      if (os::read_line("/sys/class/power_supply/" + supply + "/scope").value_or("") == "Device") continue;
      p.battery = true;
    }
  }
  const bool laptop = p.chassis_type && laptop_chassis(*p.chassis_type);
  p.laptop = laptop || (p.battery && !osinfo.virtualization);

  const std::string vendor = text::to_lower(p.system_vendor.value_or(""));
  const std::string product = text::to_lower(p.product_name.value_or(""));
  const std::string asset = dmi("chassis_asset_tag").value_or("");
  if (vendor.find("amazon ec2") != std::string::npos || product.find("amazon ec2") != std::string::npos)
    p.cloud = "aws";
  else if (vendor == "google" || product.find("google compute engine") != std::string::npos) p.cloud = "gcp";
  else if (asset == "7783-7084-3265-9085-8269-3286-77") p.cloud = "azure";  // Azure's documented chassis asset tag
  else if (asset == "OracleCloud.com") p.cloud = "oracle";
  else if (vendor.find("alibaba") != std::string::npos) p.cloud = "alibaba";
  else if (vendor.find("tencent") != std::string::npos) p.cloud = "tencent";
  else if (vendor.find("digitalocean") != std::string::npos) p.cloud = "digitalocean";
  else if (vendor.find("hetzner") != std::string::npos) p.cloud = "hetzner";
  else if (vendor.find("scaleway") != std::string::npos) p.cloud = "scaleway";
  else if (vendor.find("openstack") != std::string::npos) p.cloud = "openstack";

  if (os::getenv("COLAB_RELEASE_TAG") || os::getenv("COLAB_GPU") || os::getenv("COLAB_JUPYTER_IP"))
    p.notebook = "colab";
  else if (os::getenv("KAGGLE_KERNEL_RUN_TYPE") || os::getenv("KAGGLE_URL_BASE") || os::getenv("KAGGLE_DATA_PROXY_TOKEN"))
    p.notebook = "kaggle";
  // Baidu AI Studio runs its notebooks as user aistudio with a fixed home (work/ and data/ inside it).
  else if (os::is_directory("/home/aistudio"))
    p.notebook = "aistudio";

  if (p.notebook) p.kind = *p.notebook;
  else if (osinfo.wsl) p.kind = "wsl";
  else if (p.cloud) p.kind = "cloud-vm";
  else if (p.laptop) p.kind = "laptop";
  else if (osinfo.virtualization) p.kind = osinfo.container ? "container" : "vm";
  else if (osinfo.container) p.kind = "container";
  else if (p.chassis_type) p.kind = chassis_kind(*p.chassis_type).value_or(p.kind);
  return p;
}

}  // namespace gpuscout::probe
