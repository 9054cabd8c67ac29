#include "report/privacy.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <utility>

#include "bench/report.hpp"
#include "core/text.hpp"
#include "inventory/json.hpp"
#include "os/system.hpp"

namespace gpuscout::report {
namespace {

constexpr std::string_view kUserTag = "<user>";
constexpr std::string_view kHostTag = "<host>";

// Names that many machines share: they identify nobody, and treating them as private would turn
// "Ubuntu 24.04" into "<user> 24.04" or the vendor "nvidia" into "<host>". "user" and "host" are here so
// the tags themselves are never replaced again.
constexpr std::string_view kGenericNames[] = {
    "root",   "admin",  "administrator", "user",   "users",  "host",      "localhost", "localhost.localdomain",
    "ubuntu", "debian", "fedora",        "centos", "rocky",  "ec2-user",  "azureuser", "jovyan",
    "runner", "vagrant", "nobody",       "guest",  "shared", "public",    "colab",     "kaggle",
    "docker", "nvidia", "cuda",          "python", "linux",  "home",      "raspberrypi",
};

bool is_word_byte(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_' || u >= 0x80;
}
/// Bytes of a user name inside a path ("alice.smith", "bob-2").
bool is_name_byte(char c) { return is_word_byte(c) || c == '.' || c == '-' || c == '+'; }

bool worth_redacting(std::string_view name) {
  if (name.size() < 3) return false;
  const std::string lower = text::to_lower(name);
  return std::ranges::find(kGenericNames, std::string_view(lower)) == std::end(kGenericNames);
}

void add_unique(std::vector<std::string>& list, std::string_view value) {
  if (std::ranges::find(list, value) == list.end()) list.emplace_back(value);
}

void add_name(std::vector<std::string>& list, std::string_view name) {
  name = text::trim(name);
  if (worth_redacting(name)) add_unique(list, name);
}

/// A host name and, for "alice-laptop.example.com", its first label too.
void add_host(PrivacyContext& ctx, std::string_view host) {
  host = text::trim(host);
  add_name(ctx.host_names, host);
  if (const size_t dot = host.find('.'); dot != std::string_view::npos) add_name(ctx.host_names, host.substr(0, dot));
}

std::string_view without_trailing_slashes(std::string_view dir) {
  while (dir.size() > 1 && dir.back() == '/') dir.remove_suffix(1);
  return dir;
}

void add_home(std::vector<std::string>& list, std::string_view dir) {
  dir = without_trailing_slashes(text::trim(dir));
  // "/tmp" or "/" as $HOME (some containers) would turn every path into "~/...".
  const bool two_parts = dir.size() > 1 && dir.front() == '/' && dir.find('/', 1) != std::string_view::npos;
  if (two_parts || dir == "/root") add_unique(list, dir);
}

/// A path part that names a user: the NAME after `prefix`, ended by a byte that cannot be in a name.
struct UserPath {
  std::string_view prefix;
  char separator;
  bool needs_separator;  ///< "/media/NAME/..." names a user; "/media/cdrom" does not
};
constexpr std::array kUserPaths = {
    UserPath{"/home/", '/', false},      UserPath{"/Users/", '/', false}, UserPath{"/run/media/", '/', true},
    UserPath{"/media/", '/', true},      UserPath{"\\Users\\", '\\', false},
};

struct Span {
  size_t begin;
  size_t end;
};

void add_spans(std::string_view text, const UserPath& path, std::vector<Span>& spans) {
  for (size_t at = text.find(path.prefix); at != std::string_view::npos; at = text.find(path.prefix, at + 1)) {
    const size_t begin = at + path.prefix.size();
    size_t end = begin;
    while (end < text.size() && is_name_byte(text[end])) ++end;
    if (end == begin) continue;  // "/home/" alone, or already "/home/<user>"
    if (path.needs_separator && (end == text.size() || text[end] != path.separator)) continue;
    spans.push_back({begin, end});
  }
}

/// Where user names stand in home-like paths, in text order, without overlaps ("/run/media/" holds "/media/").
std::vector<Span> user_path_spans(std::string_view text) {
  std::vector<Span> spans;
  for (const auto& path : kUserPaths) add_spans(text, path, spans);
  std::ranges::sort(spans, {}, &Span::begin);
  std::vector<Span> kept;
  for (const auto& s : spans)
    if (kept.empty() || s.begin >= kept.back().end) kept.push_back(s);
  return kept;
}

std::string redact_user_paths(std::string_view text) {
  std::string out;
  size_t copied = 0;
  for (const auto& s : user_path_spans(text)) {
    out.append(text.substr(copied, s.begin - copied)).append(kUserTag);
    copied = s.end;
  }
  return out.append(text.substr(copied));
}

/// Replaces each `needle` for which `fits(text, begin, end)` holds.
template <typename Fits>
std::string replace_where(std::string_view text, std::string_view needle, std::string_view with, Fits fits) {
  if (needle.empty()) return std::string(text);
  std::string out;
  size_t copied = 0;
  size_t at = text.find(needle);
  while (at != std::string_view::npos) {
    const size_t end = at + needle.size();
    if (!fits(text, at, end)) {
      at = text.find(needle, at + 1);
      continue;
    }
    out.append(text.substr(copied, at - copied)).append(with);
    copied = end;
    at = text.find(needle, end);
  }
  return out.append(text.substr(copied));
}

bool at_path_boundary(std::string_view text, size_t begin, size_t end) {
  const bool starts = begin == 0 || (!is_name_byte(text[begin - 1]) && text[begin - 1] != '/');
  return starts && (end == text.size() || !is_name_byte(text[end]));
}

bool at_word_boundary(std::string_view text, size_t begin, size_t end) {
  return (begin == 0 || !is_word_byte(text[begin - 1])) && (end == text.size() || !is_word_byte(text[end]));
}

/// Host and user names with their tags, longest first, so "alice-laptop" goes before "alice".
std::vector<std::pair<std::string_view, std::string_view>> names_longest_first(const PrivacyContext& ctx) {
  std::vector<std::pair<std::string_view, std::string_view>> names;
  for (const auto& h : ctx.host_names) names.emplace_back(h, kHostTag);
  for (const auto& u : ctx.user_names) names.emplace_back(u, kUserTag);
  std::ranges::stable_sort(names, std::greater{}, [](const auto& n) { return n.first.size(); });
  return names;
}

std::vector<std::string_view> homes_longest_first(const PrivacyContext& ctx) {
  std::vector<std::string_view> homes;
  for (const auto& h : ctx.home_dirs)
    if (const auto dir = without_trailing_slashes(h); dir.size() > 1) homes.push_back(dir);
  std::ranges::stable_sort(homes, std::greater{}, [](std::string_view h) { return h.size(); });
  return homes;
}

template <typename J, typename F>
void for_each_string(J& doc, const F& visit) {
  if (doc.is_string()) visit(doc.template get_ref<typename J::string_t&>());
  else if (doc.is_structured())
    for (auto& item : doc) for_each_string(item, visit);
}

template <typename J>
void redact_strings(J& doc, const PrivacyContext& ctx) {
  for_each_string(doc, [&](std::string& s) { s = redact_text(s, ctx); });
}

/// The user names that the inventory's own paths reveal ("/home/alice/.venv/bin/python" -> "alice"), so a
/// report made elsewhere (--from) also hides that name where it stands alone.
void add_path_users(const Inventory& inventory, PrivacyContext& ctx) {
  auto doc = inventory_to_json(inventory);
  for_each_string(doc, [&](std::string& s) {
    for (const auto& span : user_path_spans(s))
      add_name(ctx.user_names, std::string_view(s).substr(span.begin, span.end - span.begin));
  });
}

void add_this_machine(PrivacyContext& ctx) {
  const os::UserIdentity who = os::current_user();
  for (const auto& name : who.names) add_name(ctx.user_names, name);
  for (const auto& home : who.homes) add_home(ctx.home_dirs, home);
  if (auto host = os::hostname()) add_host(ctx, host->c_str());
}

/// A disk's source without ids or server names: "/dev/disk/by-id/nvme-Samsung_..._S5GX..." carries a serial,
/// "nas.lan:/export" and "//nas/share" name a machine of the user's network.
std::string redact_disk_device(std::string_view device) {
  if (device.starts_with("/dev/disk/by-")) return std::string(device.substr(0, device.rfind('/') + 1)) + "<id>";
  if (device.starts_with("//")) {
    const size_t share = device.find('/', 2);
    return std::string("//").append(kHostTag).append(share == std::string_view::npos ? "" : device.substr(share));
  }
  // NFS, sshfs, CephFS: "server:/path"; a Windows drive ("C:/") has a one-letter prefix.
  const size_t colon = device.find(":/");
  if (colon != std::string_view::npos && colon >= 2 && device.substr(0, colon).find('/') == std::string_view::npos)
    return std::string(kHostTag).append(device.substr(colon));
  return std::string(device);
}

void drop_private_facts(Inventory& inventory) {
  inventory.hostname.reset();
  if (inventory.environment)  // Slurm's node names are host names
    for (const char* name : {"SLURMD_NODENAME", "SLURM_JOB_NODELIST"}) inventory.environment->erase(name);
  for (auto& gpu : inventory.gpus) {
    gpu.uuid.reset();
    gpu.processes.clear();
  }
  for (auto& device : inventory.cuda.devices) device.uuid.reset();
  for (auto& disk : inventory.disks) disk.device = redact_disk_device(disk.device);
}

}  // namespace

PrivacyContext privacy_context(const Inventory& inventory, bool this_machine) {
  PrivacyContext ctx;
  if (inventory.hostname) add_host(ctx, *inventory.hostname);
  if (inventory.environment)
    if (const auto node = inventory.environment->find("SLURMD_NODENAME"); node != inventory.environment->end())
      add_host(ctx, node->second);
  add_path_users(inventory, ctx);
  if (this_machine) add_this_machine(ctx);
  return ctx;
}

std::string redact_text(std::string_view text, const PrivacyContext& ctx) {
  std::string out(text);
  for (const auto home : homes_longest_first(ctx)) out = replace_where(out, home, "~", at_path_boundary);
  out = redact_user_paths(out);
  for (const auto& [name, tag] : names_longest_first(ctx)) out = replace_where(out, name, tag, at_word_boundary);
  return out;
}

void redact_json(nlohmann::json& doc, const PrivacyContext& ctx) { redact_strings(doc, ctx); }
void redact_json(nlohmann::ordered_json& doc, const PrivacyContext& ctx) { redact_strings(doc, ctx); }

Inventory redact_inventory(const Inventory& inventory, const PrivacyContext& ctx) {
  Inventory copy = inventory;
  drop_private_facts(copy);
  // Through JSON so that every string field, including ones added later, is covered without a list here.
  nlohmann::json doc = inventory_to_json(copy);
  redact_json(doc, ctx);
  if (auto back = inventory_from_json(doc, "redacted inventory")) return *std::move(back);
  // Unreachable for a document inventory_to_json wrote (the tests check the round trip); if it ever fails, a
  // report shows nothing rather than something private.
  Inventory empty;
  empty.gpuscout_version = inventory.gpuscout_version;
  return empty;
}

bench::BenchResult redact_bench(const bench::BenchResult& result, const PrivacyContext& ctx) {
  nlohmann::json doc = bench::to_json(result);
  redact_json(doc, ctx);
  if (auto back = bench::from_json(doc)) return *std::move(back);
  // Unreachable for a document to_json wrote (the tests check the round trip): nothing rather than something private.
  return bench::BenchResult{};
}

}  // namespace gpuscout::report
