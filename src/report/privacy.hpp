#pragma once
/// What a shared report must not carry: the user's name, the machine's name, paths under a home folder,
/// serial numbers (GPU UUIDs, disk ids) and process names. Pure functions over text, JSON and an Inventory;
/// only `privacy_context(..., true)` asks the running system (environment, passwd, gethostname).
#include <string>
#include <string_view>
#include <vector>

#include "bench/result.hpp"
#include "core/json.hpp"
#include "inventory/inventory.hpp"

namespace gpuscout::report {

/// What counts as private on the machine a report describes.
struct PrivacyContext {
  std::vector<std::string> home_dirs;   ///< "/home/alice" (no trailing slash): replaced by "~"
  std::vector<std::string> user_names;  ///< "alice": replaced by "<user>" where it stands as a whole word/path part
  std::vector<std::string> host_names;  ///< "alice-laptop": replaced by "<host>"
};

/// The private names of the machine an inventory describes: its hostname (and the short form of a dotted one)
/// and the NAME of every "/home/NAME/"-style path in it; with `this_machine` also $HOME, $USER, $LOGNAME,
/// $SUDO_USER, the passwd entry of getuid() and gethostname().
/// Left out, because replacing them would mangle ordinary text and they identify nobody: names of 1-2
/// characters, and generic account or machine names ("root", "ubuntu", "ec2-user", "jovyan", "localhost", ...).
/// A home dir must be absolute with at least two parts, or "/root" ("/" or "/tmp" as $HOME are ignored).
PrivacyContext privacy_context(const Inventory& inventory, bool this_machine);

/// Redacts one string, in this order: each home dir (at a path boundary) -> "~"; the NAME in "/home/NAME",
/// "/Users/NAME", "/run/media/NAME/", "/media/NAME/" and "\Users\NAME" -> "<user>"; then host and user names
/// where they stand as whole words ("ai" leaves "train" alone; '-', '.', '/' end a word), longest first.
/// Idempotent: redacting redacted text changes nothing.
std::string redact_text(std::string_view text, const PrivacyContext& ctx);

/// Every string value in a JSON document (not the keys) through redact_text.
void redact_json(nlohmann::json& doc, const PrivacyContext& ctx);
void redact_json(nlohmann::ordered_json& doc, const PrivacyContext& ctx);

/// The inventory without private facts: hostname, GPU and CUDA device UUIDs and GPU processes dropped (each GPU's
/// memory_used_bytes still says how much is in use), the server of a network disk -> "<host>", the id in a
/// /dev/disk/by-* device -> "<id>", then every remaining string through redact_text.
Inventory redact_inventory(const Inventory& inventory, const PrivacyContext& ctx);

/// A benchmark with every string through redact_text (through its JSON, as the inventory: no field list to forget).
bench::BenchResult redact_bench(const bench::BenchResult& result, const PrivacyContext& ctx);

}  // namespace gpuscout::report
