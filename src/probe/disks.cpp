// Disks: the real filesystems of /proc/self/mounts with their sizes, like `df -h` without pseudo filesystems.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "core/text.hpp"
#include "os/process.hpp"
#include "os/system.hpp"
#include "probe/sources.hpp"

namespace gpuscout::probe {
namespace {

// Octal escapes in mount fields ("\040" is a space in "/media/My Disk").
std::string unescape_mount_field(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size()) {
      const auto v = text::parse_int(s.substr(i + 1, 3), 8);
      if (v && *v >= 0 && *v < 256) {
        out += static_cast<char>(*v);
        i += 3;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

bool is_network_fs(std::string_view type) {
  return type == "nfs" || type == "nfs4" || type == "cifs" || type == "smb3" || type == "smbfs" ||
         type == "ceph" || type == "glusterfs" || type == "lustre" || type == "beegfs" || type == "gpfs" ||
         type.starts_with("fuse.");
}

bool is_real_fs(const MountEntry& m) {
  static const std::set<std::string, std::less<>> local = {
      "ext2", "ext3", "ext4", "xfs", "btrfs", "zfs", "f2fs", "jfs", "reiserfs", "bcachefs", "vfat", "exfat",
      "ntfs", "ntfs3", "fuseblk", "hfsplus", "apfs", "9p", "drvfs", "virtiofs", "v9fs"};
  if (local.count(m.fstype)) return true;
  if (is_network_fs(m.fstype)) {
    // Local FUSE plumbing is not a disk: only fuse filesystems that mount storage.
    static const std::set<std::string, std::less<>> fuse_storage = {"fuse.sshfs", "fuse.gcsfuse", "fuse.s3fs",
                                                                     "fuse.rclone", "fuse.juicefs", "fuse.mergerfs"};
    return !m.fstype.starts_with("fuse.") || fuse_storage.count(m.fstype);
  }
  // A container's root is an overlay: that is the disk the user writes to.
  // A container's root is an overlay, and so are writable work areas (/kaggle/working): those are the disks
  // the user writes to.
  if (m.fstype == "overlay" || m.fstype == "aufs" || m.fstype == "fuse-overlayfs") return true;
  return false;
}

}  // namespace

std::vector<MountEntry> parse_mounts(std::string_view text, std::vector<ProbeError>* errors) {
  std::vector<MountEntry> out;
  int line_no = 0;
  for (auto line : text::split(text, '\n')) {
    ++line_no;
    if (text::trim(line).empty()) continue;
    const auto f = text::split_ws(line);
    if (f.size() < 3) {
      if (errors)
        errors->push_back(ProbeError{"disks", "/proc/self/mounts", fmt::format("line {}: too few fields", line_no),
                                     std::nullopt});
      continue;
    }
    bool read_only = false;
    if (f.size() >= 4)
      for (auto o : text::split(f[3], ','))
        if (o == "ro") read_only = true;
    out.push_back(MountEntry{unescape_mount_field(f[0]), unescape_mount_field(f[1]), std::string(f[2]), read_only});
  }
  return out;
}

std::vector<MountEntry> real_filesystems(const std::vector<MountEntry>& mounts) {
  std::vector<MountEntry> out;
  std::set<std::string> seen_devices;
  // Shortest mount point first, so a device bind-mounted in several places shows once, at its main mount.
  std::vector<MountEntry> sorted;
  for (const auto& m : mounts)
    if (is_real_fs(m)) sorted.push_back(m);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const MountEntry& a, const MountEntry& b) { return a.mount.size() < b.mount.size(); });
  for (const auto& m : sorted) {
    // Containers bind-mount single files (/etc/hosts, /dev/termination-log) from the host disk.
    if (m.mount.starts_with("/etc/") || m.mount.starts_with("/dev/") || m.mount.starts_with("/proc/") ||
        m.mount.starts_with("/sys/") || m.mount.starts_with("/run/secrets"))
      continue;
    static constexpr std::string_view system_dirs[] = {"/boot", "/usr/", "/opt/bin/", "/bin/", "/sbin/", "/lib/", "/run/"};
    bool system = false;
    for (auto d : system_dirs) system = system || m.mount == d || m.mount.starts_with(std::string(d) + (d.ends_with('/') ? "" : "/"));
    if (system || m.read_only) continue;
    if (m.mount.starts_with("/mnt/wslg") ||  // WSLg's own plumbing, not a user disk
        m.mount.starts_with("/snap/") || m.mount.starts_with("/var/lib/docker/") ||
        m.mount.starts_with("/var/lib/containers/") || m.mount.starts_with("/var/lib/kubelet/"))
      continue;
    const bool device_like = m.device.starts_with("/dev/");
    if (device_like && !seen_devices.insert(m.device).second) continue;
    out.push_back(m);
  }
  std::sort(out.begin(), out.end(), [](const MountEntry& a, const MountEntry& b) { return a.mount < b.mount; });
  return out;
}

namespace {

std::string measure_filesystem(const std::string& mount) {
  auto s = os::filesystem_space(mount);
  if (!s) return std::string();
  return fmt::format("{} {} {}", s->total_bytes, s->free_bytes, s->available_bytes);
}
const bool kStatvfsChildRegistered = os::register_isolated("statvfs", measure_filesystem);

}  // namespace

std::optional<uint64_t> used_bytes(const os::FsSpace& space) {
  // f_blocks - f_bfree; a recording where free exceeds the total is damaged: no figure rather than a wrapped one.
  if (space.free_bytes > space.total_bytes) return std::nullopt;
  return space.total_bytes - space.free_bytes;
}

namespace {

}  // namespace

std::vector<Disk> probe_disks(std::vector<ProbeError>& errors) {
  (void)kStatvfsChildRegistered;
  std::vector<Disk> disks;
  auto text = os::read_file("/proc/self/mounts");
  if (!text) text = os::read_file("/proc/mounts");
  if (!text) {
    errors.push_back(ProbeError{"disks", "/proc/self/mounts", text.error().message, std::nullopt});
    return disks;
  }
  std::set<std::pair<uint64_t, uint64_t>> seen_sizes;  // btrfs subvolumes of one filesystem report the same sizes
  for (const auto& m : real_filesystems(parse_mounts(*text, &errors))) {
    Result<os::FsSpace> space = fail("not measured");
    if (is_network_fs(m.fstype) && os::sysroot().empty()) {
      // statvfs on a dead NFS server blocks for minutes (as `df` does): measure it in a bounded child.
      auto child = os::call_isolated("statvfs", m.mount, std::chrono::milliseconds(1500));
      if (child) {
        auto r = child->wait();
        const auto f = text::split_ws(r.out);
        if (r.timed_out) space = fail(m.mount + ": no answer from the file server within 1.5 s");
        else if (f.size() == 3)
          space = os::FsSpace{text::parse_uint(f[0]).value_or(0), text::parse_uint(f[1]).value_or(0),
                              text::parse_uint(f[2]).value_or(0)};
      }
    } else {
      space = os::filesystem_space(m.mount);
    }
    if (!space) {
      errors.push_back(
          ProbeError{"disks", text::clean_utf8(m.mount), text::clean_utf8(space.error().message), std::nullopt});
      continue;
    }
    if (space->total_bytes == 0) continue;
    if (m.fstype == "btrfs" && !seen_sizes.insert({space->total_bytes, space->available_bytes}).second) continue;
    // The raw mount point was measured above; what the report keeps is text ("\351" unescapes to Latin-1).
    disks.push_back(Disk{text::clean_utf8(m.mount), text::clean_utf8(m.device), text::clean_utf8(m.fstype),
                         space->total_bytes, space->available_bytes, used_bytes(*space)});
  }
  return disks;
}

}  // namespace gpuscout::probe
