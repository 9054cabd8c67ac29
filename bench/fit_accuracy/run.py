#!/usr/bin/env python3
"""Prints gpuscout's estimate beside each published memory figure in cases.csv, with the error.

Usage: bench/fit_accuracy/run.py [path/to/gpuscout]   (default: build/dev/src/gpuscout)
Cases with "{configs}" in their arguments use the config.json files beside this script (configs/); their figures
are device memory measured by measure.py on a real GPU.
Targets (issue 4): weights and KV cache within 2%, whole-run peaks within 10%. Not run in CI.
Each case names the JSON terms it compares: a sum of fields of `breakdown` or the top level, with + and -.
"""
import csv
import json
import os
import re
import shlex
import subprocess
import sys

UNITS = {"B": 1, "KiB": 1024, "MiB": 1024**2, "GiB": 1024**3, "KB": 1e3, "MB": 1e6, "GB": 1e9}
TARGET = {"weights": 2.0, "kv": 2.0, "states": 2.0, "peak": 10.0}


def value(doc, terms):
    total = 0
    for sign, name in re.findall(r"([+-]?)\s*([a-z_]+)", terms):
        v = doc["breakdown"].get(name, doc.get(name))
        if v is None:
            raise KeyError(name)
        total += -v if sign == "-" else v
    return total


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build", "dev", "src", "gpuscout")
    rows = list(csv.DictReader(open(os.path.join(here, "cases.csv"), newline="")))
    print(f"{'case':28} {'published':>14} {'gpuscout':>14} {'error':>8}  target")
    worst_fail = 0
    for r in rows:
        args = [binary, "fit", *shlex.split(r["args"].replace("{configs}", os.path.join(here, "configs"))), "--json"]
        if "--vram" not in r["args"] and "--gpu" not in r["args"]:
            args += ["--vram", "1T"]
        p = subprocess.run(args, capture_output=True, text=True)
        if p.returncode != 0:
            print(f"{r['id']:28} gpuscout failed: {p.stderr.strip()}")
            worst_fail += 1
            continue
        unit = UNITS[r["unit"]]
        ours = value(json.loads(p.stdout), r["terms"]) / unit
        published = float(r["published"])
        err = 100.0 * (ours - published) / published
        target = TARGET[r["kind"]]
        ok = abs(err) <= target
        worst_fail += 0 if ok else 1
        print(f"{r['id']:28} {published:>10.4g} {r['unit']:<3} {ours:>10.4g} {r['unit']:<3} {err:>+7.2f}%  "
              f"{'ok' if ok else 'MISS'} (±{target:g}%)")
    print(f"{len(rows) - worst_fail} of {len(rows)} cases within target")
    return 1 if worst_fail else 0


if __name__ == "__main__":
    sys.exit(main())
