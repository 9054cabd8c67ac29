"""Checks the fake torch against every scenario in DIR: python3 selftest.py DIR (PYTHONPATH = this folder)."""
import json
import os
import subprocess
import sys

PROBE = r"""
import json, warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import torch
    out = {"version": torch.__version__, "cuda": torch.version.cuda, "hip": torch.version.hip,
           "available": torch.cuda.is_available(), "count": torch.cuda.device_count(),
           "arch": torch.cuda.get_arch_list(), "cudnn": torch.backends.cudnn.version(),
           "mps": torch.backends.mps.is_available(), "devices": []}
    for i in range(torch.cuda.device_count() if out["available"] else 0):
        p = torch.cuda.get_device_properties(i)
        out["devices"].append([torch.cuda.get_device_name(i), list(torch.cuda.get_device_capability(i)),
                               p.total_memory, p.multi_processor_count])
    try:
        torch.cuda.current_device()
        out["current"] = "ok"
    except (AssertionError, RuntimeError) as e:
        out["current"] = type(e).__name__
out["warnings"] = [str(w.message) for w in caught if issubclass(w.category, UserWarning)]
print(json.dumps(out))
"""


def run(scenario, timeout=20):
    env = dict(os.environ)
    env.pop("GPUSCOUT_FAKE_TORCH", None)
    if scenario:
        env["GPUSCOUT_FAKE_TORCH"] = scenario
    return subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=timeout)


def main(directory):
    failures = []

    def check(name, cond, detail=""):
        if not cond:
            failures.append(f"{name}: {detail}")

    default = json.loads(run(None).stdout)
    check("unset", default["version"] == "2.5.1+cpu" and default["cuda"] is None and not default["available"],
          default)
    check("unset", default["current"] == "AssertionError", default)
    for file in sorted(os.listdir(directory)):
        if not file.endswith(".json"):
            continue
        name = file[:-5]
        path = os.path.join(directory, file)
        spec = json.load(open(path, encoding="utf-8"))
        if spec.get("hang_seconds"):
            try:
                run(path, timeout=1.5)
                check(name, False, "did not hang")
            except subprocess.TimeoutExpired:
                pass
            continue
        proc = run(path)
        if spec.get("import_error"):
            check(name, proc.returncode != 0 and "ImportError: " + spec["import_error"] in proc.stderr, proc.stderr)
            continue
        check(name, proc.returncode == 0, proc.stderr)
        if proc.returncode != 0:
            continue
        got = json.loads(proc.stdout)
        check(name, got["version"] == spec["version"], got["version"])
        check(name, got["cuda"] == spec["cuda"] and got["hip"] == spec["hip"], (got["cuda"], got["hip"]))
        check(name, got["available"] == spec["cuda_available"], got["available"])
        check(name, got["count"] == spec["device_count"], got["count"])
        check(name, got["arch"] == (spec["arch_list"] if spec["cuda_available"] else []), got["arch"])
        check(name, got["cudnn"] == spec["cudnn"], got["cudnn"])
        check(name, got["mps"] is False, got["mps"])
        want = [[d["name"], d["capability"], d["total_memory"], d["multi_processor_count"]] for d in spec["devices"]]
        check(name, got["devices"] == (want if spec["cuda_available"] else []), got["devices"])
        check(name, got["warnings"] == spec["warnings"], got["warnings"])
        check(name, got["current"] == ("ok" if spec["cuda_available"] and want else
                                        "AssertionError" if spec["cuda"] is None and spec["hip"] is None
                                        else "RuntimeError"), got["current"])
    for f in failures:
        print("FAIL", f)
    print("PASS" if not failures else f"FAIL: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
