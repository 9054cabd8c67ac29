#!/usr/bin/env bash
# Self-test of tests/slurm/slurm-cluster: two nodes start, each gives its tasks its own environment (over srun's
# --export), and stop leaves no process behind. Exits 77 (skipped) without root or without Slurm and munge.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cluster=$here/slurm-cluster

[[ $(id -u) == 0 ]] || { echo "skipped: needs root (SlurmUser=root)"; exit 77; }
for tool in munged slurmctld slurmd srun sinfo scancel squeue; do
  command -v "$tool" >/dev/null || { echo "skipped: $tool not installed"; exit 77; }
done

dir=$(mktemp -d "${TMPDIR:-/tmp}/slurm-selftest.XXXXXX")
trap '"$cluster" stop "$dir"; rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

eval "$("$cluster" start "$dir" sa sb)"
printf 'SELFTEST_VAR=from-a\n' >"$dir/node-env/sa"
printf 'SELFTEST_VAR=from b\n' >"$dir/node-env/sb"
out=$(SELFTEST_VAR=caller srun -N2 --ntasks-per-node=1 --label printenv SELFTEST_VAR | sort)
[[ $out == $'0: from-a\n1: from b' ]] || fail "per-node environment: got [$out]"

"$cluster" stop "$dir"
left=$(find /proc/[0-9]*/fd -maxdepth 1 -lname "$dir/*" 2>/dev/null || true)
[[ -z $left ]] || fail "processes left after stop: $left"
"$cluster" stop "$dir"  # a second stop is harmless
echo "ok"
