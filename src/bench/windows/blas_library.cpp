// Windows: no BLAS is linked into gpuscout.exe (Debian has no OpenBLAS for mingw). A libopenblas.dll the user has
// (OpenBLAS's own Windows release) is loaded from GPUSCOUT_BLAS_LIBRARY or from gpuscout.exe's folder, never from
// the current folder or PATH.
#include <filesystem>

#include "bench/blas_library.hpp"
#include "core/i18n.hpp"
#include "core/path.hpp"
#include "os/library.hpp"
#include "os/system.hpp"

namespace gpuscout::bench {
namespace {

os::SharedLibrary& loaded() {
  static os::SharedLibrary library;
  return library;
}

void* lookup_loaded(const char* name) { return loaded().raw_symbol(name); }

BlasLibrary find_blas() {
  BlasLibrary blas;
  blas.lookup = lookup_loaded;
  std::string path = os::getenv("GPUSCOUT_BLAS_LIBRARY").value_or("");
  if (path.empty()) {
    const std::string exe = core::self_executable();
    if (!exe.empty()) path = core::from_path(core::to_path(exe).parent_path() / "libopenblas.dll");
  }
  auto library = os::SharedLibrary::open(path);
  if (!library) {
    blas.missing = tr("no BLAS library here: put OpenBLAS's libopenblas.dll beside gpuscout.exe, or name it in "
                      "GPUSCOUT_BLAS_LIBRARY");
    return blas;
  }
  loaded() = std::move(*library);
  blas.sgemm = loaded().symbol<vendor::cblas::Sgemm>("cblas_sgemm");
  blas.dgemm = loaded().symbol<vendor::cblas::Dgemm>("cblas_dgemm");
  blas.origin = loaded().path();
  if (!blas.sgemm || !blas.dgemm) blas.missing = trf("{} has no cblas_sgemm and cblas_dgemm", path);
  return blas;
}

}  // namespace

const BlasLibrary& blas_library() {
  static const BlasLibrary blas = find_blas();
  return blas;
}

}  // namespace gpuscout::bench
