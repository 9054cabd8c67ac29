// The NVIDIA kernel side: is the module loaded (and which version), is nvidia_uvm there, does nouveau hold the card.
#include "core/text.hpp"
#include "core/version.hpp"
#include "os/system.hpp"
#include "probe/sources.hpp"

namespace gpuscout::probe {

void probe_nvidia_module(NvidiaInfo& info) {
  if (auto v = os::read_file("/proc/driver/nvidia/version")) {
    info.kernel_module_loaded = true;
    // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.95.05  Tue Sep 23 ..." (or "Open Kernel Module").
    const auto first = text::split(*v, '\n')[0];
    const auto words = text::split_ws(first);
    // The first dotted number after "Module" ("Open Kernel Module for x86_64  580.95.05").
    bool after_module = false;
    for (auto w : words) {
      if (w == "Module") after_module = true;
      const auto parsed = after_module ? Version::parse(w) : std::nullopt;
      if (parsed && parsed->parts().size() >= 2 && parsed->suffix().empty()) {
        info.kernel_module_version = std::string(w);
        break;
      }
    }
  }
  if (auto modules = os::read_file("/proc/modules")) {
    for (auto line : text::split(*modules, '\n')) {
      const auto name = text::split_ws(line);
      if (name.empty()) continue;
      if (name[0] == "nvidia") info.kernel_module_loaded = true;
      else if (name[0] == "nvidia_uvm") info.uvm_loaded = true;
      else if (name[0] == "nouveau") info.nouveau_loaded = true;
    }
  } else {
    if (os::is_directory("/sys/module/nvidia")) info.kernel_module_loaded = true;
    if (os::is_directory("/sys/module/nvidia_uvm")) info.uvm_loaded = true;
    if (os::is_directory("/sys/module/nouveau")) info.nouveau_loaded = true;
  }
}

}  // namespace gpuscout::probe
