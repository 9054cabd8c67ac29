#!/usr/bin/env bash
# CPU GEMM: gpuscout bench against a minimal C program calling the same OpenBLAS, and numpy where installed,
# in the same run, same sizes, same thread count; prints the ratios (target: within 5%).
# Usage: bench/cpu_gemm_vs_c.sh [GPUSCOUT_BINARY] [SIZES...]   (default build/bench/src/gpuscout, 4096 5000)
set -euo pipefail
BIN=${1:-build/bench/src/gpuscout}; shift || true
SIZES=${*:-4096 5000}
THREADS=$(lscpu -p=CORE,SOCKET | grep -v '^#' | sort -u | wc -l)
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
cat > "$WORK/gemm.c" <<'C'
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static int cmp(const void* a, const void* b) { double x = *(const double*)a, y = *(const double*)b; return x < y ? -1 : x > y; }
int main(int argc, char** argv) {
  int n = atoi(argv[1]), dbl = argv[2][0] == 'd', reps = 5; openblas_set_num_threads(atoi(argv[3]));
  size_t nn = (size_t)n * n, es = dbl ? 8 : 4;
  char *a = malloc(nn * es), *b = malloc(nn * es), *c = malloc(nn * es);
  for (size_t i = 0; i < nn; ++i) {
    double x = (double)rand() / RAND_MAX * 2 - 1, y = (double)rand() / RAND_MAX * 2 - 1;
    if (dbl) { ((double*)a)[i] = x; ((double*)b)[i] = y; } else { ((float*)a)[i] = (float)x; ((float*)b)[i] = (float)y; }
  }
  double t[8];
  for (int r = -1; r < reps; ++r) {
    double t0 = now();
    if (dbl) cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, (double*)a, n, (double*)b, n, 0, (double*)c, n);
    else cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, (float*)a, n, (float*)b, n, 0, (float*)c, n);
    if (r >= 0) t[r] = now() - t0;
  }
  qsort(t, reps, sizeof t[0], cmp);
  printf("%.3f\n", 2.0 * n * n * (double)n / t[reps / 2] / 1e9);
  return 0;
}
C
cc -O2 -o "$WORK/gemm" "$WORK/gemm.c" -I/usr/include/x86_64-linux-gnu -lopenblas
HAVE_NUMPY=0; /usr/bin/python3 -c 'import numpy' 2>/dev/null && HAVE_NUMPY=1
echo "machine: $(lscpu | sed -n 's/Model name: *//p'), $THREADS cores; $(date -u +%FT%TZ); shared machine: other jobs may run"
printf '%-6s %5s %10s %10s %10s %9s %9s\n' dtype n gpuscout C numpy "gs/C" "gs/numpy"
for n in $SIZES; do
  for dt in fp32 fp64; do
    [ "$dt" = fp64 ] && C=$("$WORK/gemm" "$n" d "$THREADS")
    [ "$dt" = fp32 ] && C=$("$WORK/gemm" "$n" s "$THREADS")
    GS=$("$BIN" bench --device cpu --size "$n" --dtype "$dt" --json | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["cpu"]["gemm"][0]["gflops"])')
    NP=-
    if [ $HAVE_NUMPY = 1 ]; then
      NP=$(OPENBLAS_NUM_THREADS=$THREADS /usr/bin/python3 - "$n" "$dt" <<'PY'
import sys, time, numpy as np
n, dt = int(sys.argv[1]), (np.float32 if sys.argv[2] == "fp32" else np.float64)
rng = np.random.default_rng(1); a = rng.uniform(-1, 1, (n, n)).astype(dt); b = rng.uniform(-1, 1, (n, n)).astype(dt)
a @ b; t = []
for _ in range(5):
    t0 = time.perf_counter(); a @ b; t.append(time.perf_counter() - t0)
print(f"{2 * n**3 / sorted(t)[2] / 1e9:.3f}")
PY
)
    fi
    R2=-; [ "$NP" != - ] && R2=$(/usr/bin/python3 -c "print(f'{$GS/$NP:.3f}')")
    printf '%-6s %5s %10.1f %10.1f %10s %9.3f %9s\n' "$dt" "$n" "$GS" "$C" "$NP" "$(/usr/bin/python3 -c "print($GS/$C)")" "$R2"
  done
done
PEAK=$("$BIN" bench --device cpu --size 256 --dtype fp32 --json | /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin)["cpu"]["peak_gflops"]; print(d["fp32"], d["fp64"])')
echo "measured FMA peak (fp32 fp64, GFLOP/s): $PEAK"
