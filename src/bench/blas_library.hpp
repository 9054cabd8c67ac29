#pragma once
/// The BLAS bench measures: on Linux the OpenBLAS gpuscout links; on Windows a libopenblas.dll the machine has
/// (GPUSCOUT_BLAS_LIBRARY, or beside gpuscout.exe), loaded at run time, or none.
#include <string>

#include "vendor/cblas_abi.hpp"

namespace gpuscout::bench {

struct BlasLibrary {
  vendor::cblas::Sgemm sgemm = nullptr;
  vendor::cblas::Dgemm dgemm = nullptr;
  std::string origin;  ///< "linked" or the DLL's path; "" when there is none
  std::string missing; ///< why there is none, for the user
  /// An optional symbol (openblas_get_config, cblas_sbgemm), or nullptr.
  void* (*lookup)(const char* name) = nullptr;
};

/// Found once per process.
const BlasLibrary& blas_library();

}  // namespace gpuscout::bench
