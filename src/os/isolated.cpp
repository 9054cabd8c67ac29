// Isolated calls by name (os/process.hpp): the registry, and the child's side of a re-run (Windows; also answered
// on POSIX, so that side is tested everywhere).
#include <cstdio>
#include <exception>
#include <map>
#include <mutex>

#include "os/native.hpp"
#include "os/process.hpp"

namespace gpuscout::os {
namespace {

std::map<std::string, IsolatedFunction, std::less<>>& registry() {
  static std::map<std::string, IsolatedFunction, std::less<>> calls;
  return calls;
}

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

bool register_isolated(const char* name, IsolatedFunction function) {
  std::lock_guard lock(registry_mutex());
  registry()[name] = function;
  return true;
}

IsolatedFunction find_isolated(const std::string& name) {
  std::lock_guard lock(registry_mutex());
  const auto it = registry().find(name);
  return it == registry().end() ? nullptr : it->second;
}

std::optional<int> run_isolated_if_asked(const std::vector<std::string>& args) {
  if (args.size() < 2 || args[1] != kIsolatedChildFlag) return std::nullopt;
  if (args.size() != 4) return 2;
  const IsolatedFunction function = find_isolated(args[2]);
  if (!function) return 2;
  // The payload goes to the original standard output; whatever a driver prints goes to standard error.
  native::PayloadChannel channel = native::open_payload_channel();
  const auto [payload, code] = native::run_catching([&] { return function(args[3]); });
  if (!native::write_payload(channel, payload)) return 4;
  std::fflush(stdout);
  std::fflush(stderr);
  return code;
}

namespace native {

std::pair<std::string, int> run_catching(const std::function<std::string()>& call) {
  try {
    return {call(), 0};
  } catch (const std::exception& e) {
    return {std::string("exception: ") + e.what(), 3};
  } catch (...) {
    return {"exception: unknown", 3};
  }
}

}  // namespace native
}  // namespace gpuscout::os
