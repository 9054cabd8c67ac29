#pragma once
/// One resolved entry point of a vendor library: the function (null when this driver version lacks every name
/// asked for) and the symbol it came from, so an error can name the call that failed ("nvmlInit_v2").
#include <functional>
#include <initializer_list>

namespace gpuscout::vendor {

/// Where symbols come from: a loaded library (dlsym), or a test that records which names are asked for.
using SymbolLookup = std::function<void*(const char* name)>;

template <typename Signature>
struct EntryPoint;

template <typename Ret, typename... Params>
struct EntryPoint<Ret(Params...)> {
  using Signature = Ret(Params...);
  Signature* call = nullptr;
  const char* name = "";  ///< the symbol resolved, or the preferred one when none was found

  explicit operator bool() const { return call != nullptr; }
  Ret operator()(Params... args) const { return call(args...); }

  /// Takes the first name the library exports: newest first ({"nvmlInit_v2", "nvmlInit"}).
  void resolve(const SymbolLookup& lookup, std::initializer_list<const char*> names) {
    call = nullptr;
    name = names.size() ? *names.begin() : "";
    for (const char* candidate : names) {
      if (void* address = lookup(candidate)) {
        call = reinterpret_cast<Signature*>(address);
        name = candidate;
        return;
      }
    }
  }
};

}  // namespace gpuscout::vendor
