#!/usr/bin/env python3
"""How long `gpuscout doctor --no-python` takes beside its peers, each a fresh process, in one run.

Peers: `nvidia-smi` and `nvidia-smi -q` (what a user runs instead), and the floors every GPU probe pays: loading
NVML with nvmlInit_v2 + nvmlDeviceGetCount_v2, and loading libcuda with cuInit + cuDeviceGetCount, each timed inside
a fresh Python (the library load included, the interpreter's start not). Issue 31's goal: doctor --no-python within
1.3 x the cuInit floor. Prints one line per command (median of RUNS, min, max, in ms) and the ratios; --json FILE
writes them too. Runs without a GPU as well: a floor whose library is missing is reported as such.

Usage: bench/doctor_time.py [--runs 7] [--json FILE] GPUSCOUT
"""
import argparse
import ctypes
import json
import shutil
import statistics
import subprocess
import sys
import time


def floor(which):
    """The child's side: load the library and ask for the device count; print milliseconds or an error."""
    t = time.perf_counter()
    try:
        if which == "nvml":
            lib = ctypes.CDLL("libnvidia-ml.so.1")
            rc = lib.nvmlInit_v2()
            n = ctypes.c_uint()
            rc = rc or lib.nvmlDeviceGetCount_v2(ctypes.byref(n))
        else:
            lib = ctypes.CDLL("libcuda.so.1")
            rc = lib.cuInit(0)
            n = ctypes.c_int()
            rc = rc or lib.cuDeviceGetCount(ctypes.byref(n))
    except OSError as e:
        print("error: %s" % e)
        return
    print("error: status %d" % rc if rc else (time.perf_counter() - t) * 1000)


def wall_ms(argv, timeout=60):
    t = time.perf_counter()
    try:
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, str(e)
    return (time.perf_counter() - t) * 1000, None


def floor_ms(which):
    out = subprocess.run([sys.executable, __file__, "--floor", which], capture_output=True, text=True, timeout=60)
    text = out.stdout.strip()
    try:
        return float(text), None
    except ValueError:
        return None, text or out.stderr.strip()[-200:]


def series(measure, runs):
    times, error = [], None
    for _ in range(runs):
        ms, error = measure()
        if ms is None:
            break
        times.append(ms)
    if not times:
        return {"error": error}
    return {"median_ms": statistics.median(times), "min_ms": min(times), "max_ms": max(times), "runs": len(times)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--floor", choices=["nvml", "cuda"], help=argparse.SUPPRESS)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--json")
    ap.add_argument("gpuscout", nargs="?")
    a = ap.parse_args()
    if a.floor:
        return floor(a.floor)
    if not a.gpuscout:
        ap.error("give the gpuscout binary to time")
    results = {}
    wall_ms([a.gpuscout, "doctor", "--no-python"])  # page cache and driver warm, as for every later run
    results["gpuscout doctor --no-python"] = series(lambda: wall_ms([a.gpuscout, "doctor", "--no-python"]), a.runs)
    smi = shutil.which("nvidia-smi")
    if smi:
        results["nvidia-smi"] = series(lambda: wall_ms([smi]), a.runs)
        results["nvidia-smi -q"] = series(lambda: wall_ms([smi, "-q"]), a.runs)
    results["floor: NVML init + count"] = series(lambda: floor_ms("nvml"), a.runs)
    results["floor: cuInit + count"] = series(lambda: floor_ms("cuda"), a.runs)
    for name, r in results.items():
        if "error" in r:
            print("%-30s %s" % (name, r["error"]))
        else:
            print("%-30s median %7.1f ms  (min %.1f, max %.1f, %d runs)" % (name, r["median_ms"], r["min_ms"],
                                                                           r["max_ms"], r["runs"]))
    doctor = results["gpuscout doctor --no-python"].get("median_ms")
    ratios = {}
    for peer in ("floor: cuInit + count", "nvidia-smi", "nvidia-smi -q"):
        peer_ms = results.get(peer, {}).get("median_ms")
        if doctor and peer_ms:
            ratios["doctor / " + peer] = doctor / peer_ms
            print("doctor --no-python / %-22s %.2f x" % (peer, doctor / peer_ms))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"results": results, "ratios": ratios}, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
