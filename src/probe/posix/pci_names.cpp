// Names from pci.ids through libpci (Debian's pciutils), the one reader of that file.
#include <csetjmp>
#include <cstdarg>
#include <cstdio>

extern "C" {
#include <pci/pci.h>
}

#include "core/text.hpp"
#include "os/system.hpp"
#include "probe/pci_names.hpp"

namespace gpuscout::probe {
namespace {

// libpci's error callback must not return (it would exit the process): we jump back to the probe instead,
// record the message and keep the rest of the report.
thread_local std::jmp_buf* g_pci_jump = nullptr;
thread_local char g_pci_message[512];

// The GNU spelling: libpci's pointer type carries noreturn, which clang matches only in this form.
__attribute__((noreturn)) void pci_error_handler(char* msg, ...) {
  va_list args;
  va_start(args, msg);
  std::vsnprintf(g_pci_message, sizeof g_pci_message, msg, args);
  va_end(args);
  std::longjmp(*g_pci_jump, 1);
}
void pci_quiet(char*, ...) {}

// pci.ids only, never udev's hwdb: under a sysroot the hwdb is the real machine's, and libudev's state would outlive
// a lookup that libpci's error handler jumped out of.
constexpr int kLookupFlags = PCI_LOOKUP_NO_NUMBERS | PCI_LOOKUP_NO_HWDB;

// Names from pci.ids; false when libpci reported an error (its handler jumped back here).
bool lookup_names(pci_access* pacc, int vendor, int device, char* vendor_name, int vendor_size, char* device_name,
                  int device_size) {
  std::jmp_buf jump;
  g_pci_jump = &jump;
  if (setjmp(jump) != 0) {
    g_pci_jump = nullptr;
    return false;
  }
  const char* vn = pci_lookup_name(pacc, vendor_name, vendor_size, PCI_LOOKUP_VENDOR | kLookupFlags, vendor);
  if (!vn) vendor_name[0] = 0;
  else if (vn != vendor_name) std::snprintf(vendor_name, static_cast<size_t>(vendor_size), "%s", vn);
  const char* dn = pci_lookup_name(pacc, device_name, device_size, PCI_LOOKUP_DEVICE | kLookupFlags, vendor, device);
  if (!dn) device_name[0] = 0;
  else if (dn != device_name) std::snprintf(device_name, static_cast<size_t>(device_size), "%s", dn);
  g_pci_jump = nullptr;
  return true;
}

}  // namespace

/// libpci keeps the pointer to the ids path it is given (to_be_freed = 0) and reads the file on the first lookup,
/// so the path lives as long as this state.
struct PciNames::State {
  pci_access* pacc = nullptr;
  bool ok = false;
  std::string ids_path;
};

PciNames::PciNames() : state_(std::make_unique<State>()) {
  state_->pacc = pci_alloc();
  state_->ok = state_->pacc != nullptr;
  if (!state_->pacc) return;
  state_->pacc->error = pci_error_handler;
  state_->pacc->warning = pci_quiet;
  state_->pacc->debug = pci_quiet;
  for (const char* candidate : {"/usr/share/misc/pci.ids", "/usr/share/hwdata/pci.ids"}) {
    if (!os::sysroot().empty() && os::exists(candidate)) {
      state_->ids_path = os::sysroot() + candidate;
      break;
    }
  }
  if (!state_->ids_path.empty()) pci_set_name_list_path(state_->pacc, state_->ids_path.data(), 0);
}

PciNames::~PciNames() {
  if (state_->pacc && state_->ok) pci_cleanup(state_->pacc);  // libpci's state is undefined after an error
}

std::pair<std::string, std::string> PciNames::lookup(uint16_t vendor, uint16_t device, std::vector<ProbeError>& errors) {
  if (!state_->ok) return {};
  char vendor_name[256] = {0};
  char device_name[512] = {0};
  if (!lookup_names(state_->pacc, vendor, device, vendor_name, sizeof vendor_name, device_name, sizeof device_name)) {
    errors.push_back(ProbeError{"pci", "pci.ids", text::clean_utf8(g_pci_message), std::nullopt});
    state_->ok = false;
    return {};
  }
  return {vendor_name, device_name};
}

}  // namespace gpuscout::probe
