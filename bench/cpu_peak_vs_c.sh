#!/usr/bin/env bash
# CPU FMA peak: gpuscout's measured peak against a hand-unrolled FMA loop in C (AVX2+FMA and AVX-512, the
# widest this CPU runs), one thread per core, in the same run; prints the ratio (target: within 5%).
# Usage: bench/cpu_peak_vs_c.sh [GPUSCOUT_BINARY]
set -euo pipefail
BIN=${1:-build/bench/src/gpuscout}
THREADS=$(lscpu -p=CORE,SOCKET | grep -v '^#' | sort -u | wc -l)
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
cat > "$WORK/peak.c" <<'C'
#include <immintrin.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static long iters = 20000000; static int wide;
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
__attribute__((target("avx2,fma"))) static float k256(void) {
  __m256 m = _mm256_set1_ps(0.999999f), a = _mm256_set1_ps(1e-6f);
  /* Distinct starting values: identical chains would be merged by the compiler (common subexpressions),
     leaving fewer FMAs than counted. */
  __m256 x0 = _mm256_set1_ps(0.0f), x1 = _mm256_set1_ps(0.001f), x2 = _mm256_set1_ps(0.002f), x3 = _mm256_set1_ps(0.003f),
         x4 = _mm256_set1_ps(0.004f), x5 = _mm256_set1_ps(0.005f), x6 = _mm256_set1_ps(0.006f), x7 = _mm256_set1_ps(0.007f),
         x8 = _mm256_set1_ps(0.008f), x9 = _mm256_set1_ps(0.009f), x10 = _mm256_set1_ps(0.010f), x11 = _mm256_set1_ps(0.011f);
  for (long i = 0; i < iters; ++i) {
    x0 = _mm256_fmadd_ps(x0, m, a); x1 = _mm256_fmadd_ps(x1, m, a); x2 = _mm256_fmadd_ps(x2, m, a);
    x3 = _mm256_fmadd_ps(x3, m, a); x4 = _mm256_fmadd_ps(x4, m, a); x5 = _mm256_fmadd_ps(x5, m, a);
    x6 = _mm256_fmadd_ps(x6, m, a); x7 = _mm256_fmadd_ps(x7, m, a); x8 = _mm256_fmadd_ps(x8, m, a);
    x9 = _mm256_fmadd_ps(x9, m, a); x10 = _mm256_fmadd_ps(x10, m, a); x11 = _mm256_fmadd_ps(x11, m, a);
  }
  __m256 s = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(x0, x1), _mm256_add_ps(x2, x3)), _mm256_add_ps(_mm256_add_ps(x4, x5), _mm256_add_ps(x6, x7)));
  s = _mm256_add_ps(s, _mm256_add_ps(_mm256_add_ps(x8, x9), _mm256_add_ps(x10, x11)));
  return _mm256_cvtss_f32(s);
}
__attribute__((target("avx512f"))) static float k512(void) {
  __m512 m = _mm512_set1_ps(0.999999f), a = _mm512_set1_ps(1e-6f);
  __m512 x0 = _mm512_set1_ps(0.0f), x1 = _mm512_set1_ps(0.001f), x2 = _mm512_set1_ps(0.002f), x3 = _mm512_set1_ps(0.003f),
         x4 = _mm512_set1_ps(0.004f), x5 = _mm512_set1_ps(0.005f), x6 = _mm512_set1_ps(0.006f), x7 = _mm512_set1_ps(0.007f),
         x8 = _mm512_set1_ps(0.008f), x9 = _mm512_set1_ps(0.009f), x10 = _mm512_set1_ps(0.010f), x11 = _mm512_set1_ps(0.011f);
  for (long i = 0; i < iters; ++i) {
    x0 = _mm512_fmadd_ps(x0, m, a); x1 = _mm512_fmadd_ps(x1, m, a); x2 = _mm512_fmadd_ps(x2, m, a);
    x3 = _mm512_fmadd_ps(x3, m, a); x4 = _mm512_fmadd_ps(x4, m, a); x5 = _mm512_fmadd_ps(x5, m, a);
    x6 = _mm512_fmadd_ps(x6, m, a); x7 = _mm512_fmadd_ps(x7, m, a); x8 = _mm512_fmadd_ps(x8, m, a);
    x9 = _mm512_fmadd_ps(x9, m, a); x10 = _mm512_fmadd_ps(x10, m, a); x11 = _mm512_fmadd_ps(x11, m, a);
  }
  __m512 s = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(x0, x1), _mm512_add_ps(x2, x3)), _mm512_add_ps(_mm512_add_ps(x4, x5), _mm512_add_ps(x6, x7)));
  s = _mm512_add_ps(s, _mm512_add_ps(_mm512_add_ps(x8, x9), _mm512_add_ps(x10, x11)));
  float out[16]; _mm512_storeu_ps(out, s); return out[0];
}
static volatile float sink;
static void* run(void* p) { (void)p; sink = wide ? k512() : k256(); return NULL; }
int main(int argc, char** argv) {
  int threads = atoi(argv[1]); double best = 0;
  for (wide = 0; wide <= 1; ++wide) {
    if (wide && !__builtin_cpu_supports("avx512f")) break;
    double t[5];
    for (int r = 0; r < 5; ++r) {
      pthread_t th[256]; double t0 = now();
      for (int i = 0; i < threads; ++i) pthread_create(&th[i], NULL, run, NULL);
      for (int i = 0; i < threads; ++i) pthread_join(th[i], NULL);
      t[r] = now() - t0;
    }
    double m = t[0]; for (int r = 1; r < 5; ++r) if (t[r] < m) m = t[r];
    double g = (double)iters * 12 * (wide ? 16 : 8) * 2 * threads / m / 1e9;
    printf("%s %.1f\n", wide ? "avx512" : "avx2", g); if (g > best) best = g;
  }
  printf("best %.1f\n", best);
  return 0;
}
C
cc -O2 -o "$WORK/peak" "$WORK/peak.c" -lpthread
echo "machine: $(lscpu | sed -n 's/Model name: *//p'), $THREADS cores; $(date -u +%FT%TZ); shared machine: other jobs may run"
C_OUT=$("$WORK/peak" "$THREADS"); echo "$C_OUT" | sed 's/^/C hand-unrolled /'
C=$(echo "$C_OUT" | sed -n 's/^best //p')
GS=$("$BIN" bench --device cpu --full --size 256 --dtype fp32 --json | /usr/bin/python3 -c 'import json,sys; p=json.load(sys.stdin)["cpu"]["peak"]["fp32"]; print(p["all_cores_gflops"], p["isa"], p["computed_gflops"])')
set -- $GS
echo "gpuscout measured fp32 peak $1 GFLOP/s ($2), computed $3"
/usr/bin/python3 -c "print(f'ratio gpuscout / C = {$1/$C:.3f}')"
