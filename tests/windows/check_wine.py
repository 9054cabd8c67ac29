#!/usr/bin/env python3
"""gpuscout.exe under Wine (issue 14): this machine as Wine shows it, and every recorded Windows machine.

1. `doctor --json --no-python` on this machine exits 0 and reports the CPUs and memory Wine shows (Wine passes the
   host's through: os.cpu_count() and /proc/meminfo's MemTotal).
2. Each machine of tests/windows/machines.json (a recorded Windows machine under tests/fakes/sysroots, with the
   fake nvml.dll / nvcuda.dll answering from a scenario): `info --json` equals the machine's golden
   expected-info.json, the same file the Linux build is checked against, and `doctor --json` gives the expected
   verdict and findings. The doctor text of each is printed (the issue's note shows it).
3. Chinese from the catalogue embedded in the .exe, and a hung driver killed at the deadline.
Exit 0 when all pass; each failure is printed.
"""
import argparse
import json
import os
import subprocess
import sys
import time

FAILURES = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        FAILURES.append(what)


def winpath(path):
    """A Unix path as the Windows program sees it: Wine maps / to Z:."""
    return "Z:" + os.path.abspath(path).replace("/", "\\")


def run(args, exe, wine, env=None, timeout=120):
    full = dict(os.environ, WINEDEBUG="-all", **(env or {}))
    start = time.monotonic()
    p = subprocess.run([wine, exe] + args, env=full, capture_output=True, timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), time.monotonic() - start


def mem_total_bytes():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) * 1024
    return 0


def check_this_machine(a):
    rc, out, err, _ = run(["doctor", "--json", "--no-python"], a.exe, a.wine)
    check(rc == 0, f"this machine: doctor --json --no-python exits 0 (got {rc}; {err.strip()[:300]})")
    if rc != 0:
        return
    doc = json.loads(out)
    cpus = doc["cpu"].get("logical_cpus")
    check(cpus == os.cpu_count(), f"this machine: {cpus} logical CPUs, as Wine shows {os.cpu_count()}")
    total = doc["memory"].get("total_bytes") or 0
    want = mem_total_bytes()
    check(abs(total - want) <= want * 0.05, f"this machine: memory {total} bytes, /proc/meminfo says {want}")
    check(doc["os"].get("family") == "windows", f"this machine: os.family is windows ({doc['os'].get('family')})")
    check("status" in doc.get("verdict", {}), "this machine: a verdict")


def normalised(doc):
    for key in ("collected_at", "gpuscout_version", "hostname", "probe_ms"):
        if doc.get(key) is not None:
            doc[key] = 0 if isinstance(doc[key], (int, float)) else "(varies)"
    for key, value in (doc.get("probe_timings_ms") or {}).items():
        if isinstance(value, (int, float)):
            doc["probe_timings_ms"][key] = 0
    # The driver libraries' file names differ by system (libnvidia-ml.so.1 / nvml.dll): compared without them.
    for section in ("nvidia", "cuda"):
        if isinstance(doc.get(section), dict):
            doc[section]["library_path"] = None
            error = doc[section].get("error")
            if isinstance(error, dict) and error.get("what") == "dlopen":  # names the missing file
                error["message"] = "(the library file named, which differs by system)"
    return doc


def machine_env(a, machine):
    env = {"GPUSCOUT_SYSROOT": winpath(os.path.join(a.sysroots, machine["sysroot"])),
           "GPUSCOUT_PYTHON": "Z:\\nonexistent\\python.exe"}
    if machine.get("scenario"):
        env["GPUSCOUT_FAKE_SCENARIO"] = winpath(os.path.join(a.scenarios, machine["scenario"] + ".json"))
        env["GPUSCOUT_NVML_LIBRARY"] = winpath(os.path.join(a.fakes, "nvml.dll"))
        env["GPUSCOUT_CUDA_LIBRARY"] = winpath(os.path.join(a.fakes, "nvcuda.dll"))
    else:  # no NVIDIA driver installed: nothing to load
        env["GPUSCOUT_NVML_LIBRARY"] = "Z:\\nonexistent\\nvml.dll"
        env["GPUSCOUT_CUDA_LIBRARY"] = "Z:\\nonexistent\\nvcuda.dll"
    return env


def check_machine(a, machine):
    name = machine["sysroot"]
    env = machine_env(a, machine)
    rc, out, err, _ = run(["info", "--json", "--no-python"], a.exe, a.wine, env)
    check(rc == 0, f"{name}: info --json exits 0 ({err.strip()[:300]})")
    if rc == 0:
        golden_path = os.path.join(a.sysroots, name, "expected-info.json")
        with open(golden_path) as f:
            want = normalised(json.load(f))
        got = normalised(json.loads(out))
        diffs = [k for k in sorted(set(want) | set(got)) if want.get(k) != got.get(k)]
        check(not diffs, f"{name}: info --json under Wine equals {os.path.relpath(golden_path, a.sysroots)}"
                         + (f" (differs in {', '.join(diffs)})" if diffs else ""))
        for k in diffs[:3]:
            print(f"     {k}: want {json.dumps(want.get(k))[:600]}\n     {k}: got  {json.dumps(got.get(k))[:600]}")
    rc, out, err, _ = run(["doctor", "--json", "--no-python"], a.exe, a.wine, env)
    if rc == 0:
        verdict = json.loads(out)["verdict"]
        codes = [f["code"] for f in verdict.get("findings", [])]
        check(verdict["status"] == machine["status"], f"{name}: verdict {verdict['status']} (want {machine['status']})")
        for code in machine.get("findings", []):
            check(code in codes, f"{name}: finding {code} (got {', '.join(codes)})")
    else:
        check(False, f"{name}: doctor --json exits 0 ({err.strip()[:300]})")
    rc, out, err, _ = run(["doctor", "--no-python"], a.exe, a.wine, env)
    print(f"----- gpuscout.exe doctor on {name} (exit {rc}) -----\n{out}{err}-----", flush=True)


def check_chinese_and_hang(a, machines):
    machine = next(m for m in machines if m.get("scenario"))
    rc, out, err, _ = run(["doctor", "--no-python", "--lang", "zh"], a.exe, a.wine, machine_env(a, machine))
    check(rc == 0 and any("\u4e00" <= ch <= "\u9fff" for ch in out),
          f"--lang zh: Chinese from the catalogue inside gpuscout.exe (exit {rc})")
    env = dict(machine_env(a, machine), GPUSCOUT_FAKE_SCENARIO=winpath(os.path.join(a.scenarios, "hang.json")))
    rc, out, err, took = run(["doctor", "--json", "--no-python", "--timeout", "2"], a.exe, a.wine, env, timeout=60)
    codes = [f["code"] for f in json.loads(out)["verdict"]["findings"]] if rc == 0 else []
    check(rc == 0 and "driver-probe-timeout" in codes and took < 20,
          f"a hung nvml.dll: driver-probe-timeout after {took:.1f} s, exit {rc} ({', '.join(codes)})")


def main():
    p = argparse.ArgumentParser(description=__doc__)
    for flag in ("--wine", "--exe", "--fakes", "--sysroots", "--scenarios"):
        p.add_argument(flag, required=True)
    a = p.parse_args()
    with open(os.path.join(os.path.dirname(__file__), "machines.json")) as f:
        machines = json.load(f)
    check_this_machine(a)
    for machine in machines:
        check_machine(a, machine)
    check_chinese_and_hang(a, machines)
    print(f"{len(FAILURES)} failure(s)" if FAILURES else "all passed")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
