#pragma once
/// The CBLAS calls bench makes, declared once (the reference CBLAS interface, as OpenBLAS's cblas.h has it), so that
/// the Windows build, which has no BLAS to link, can resolve them from a DLL at run time.
#include <cstdint>

namespace gpuscout::vendor::cblas {

// Values of CBLAS_ORDER and CBLAS_TRANSPOSE in every CBLAS (cblas.h).
inline constexpr int kRowMajor = 101;
inline constexpr int kNoTrans = 111;

using Dgemm = void (*)(int order, int trans_a, int trans_b, int m, int n, int k, double alpha, const double* a,
                       int lda, const double* b, int ldb, double beta, double* c, int ldc);
using Sgemm = void (*)(int order, int trans_a, int trans_b, int m, int n, int k, float alpha, const float* a, int lda,
                       const float* b, int ldb, float beta, float* c, int ldc);
/// OpenBLAS only (not in Debian's 0.3.21): bf16 inputs, fp32 output.
using Sbgemm = void (*)(int order, int trans_a, int trans_b, int m, int n, int k, float alpha, const uint16_t* a,
                        int lda, const uint16_t* b, int ldb, float beta, float* c, int ldc);
using SetThreads = void (*)(int);
using GetString = char* (*)();

}  // namespace gpuscout::vendor::cblas
