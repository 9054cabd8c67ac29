// Linux: the OpenBLAS (or another CBLAS behind libblas.so.3) gpuscout is linked with.
#include <cblas.h>
#include <dlfcn.h>

#include "bench/blas_library.hpp"

namespace gpuscout::bench {
namespace {

void* lookup_linked(const char* name) { return ::dlsym(RTLD_DEFAULT, name); }

void sgemm(int order, int ta, int tb, int m, int n, int k, float alpha, const float* a, int lda, const float* b,
           int ldb, float beta, float* c, int ldc) {
  cblas_sgemm(static_cast<CBLAS_ORDER>(order), static_cast<CBLAS_TRANSPOSE>(ta), static_cast<CBLAS_TRANSPOSE>(tb), m,
              n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
void dgemm(int order, int ta, int tb, int m, int n, int k, double alpha, const double* a, int lda, const double* b,
           int ldb, double beta, double* c, int ldc) {
  cblas_dgemm(static_cast<CBLAS_ORDER>(order), static_cast<CBLAS_TRANSPOSE>(ta), static_cast<CBLAS_TRANSPOSE>(tb), m,
              n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

}  // namespace

const BlasLibrary& blas_library() {
  static const BlasLibrary linked{sgemm, dgemm, "linked", "", lookup_linked};
  return linked;
}

}  // namespace gpuscout::bench
