#!/usr/bin/env python3
"""The install command gpuscout prints really replaces an installed PyTorch build, with real pip, offline.

A GTX 1060 (sm_61) machine whose venv has torch and torchvision built for CUDA 13.0 (no sm_61 code, and a driver too
old for it): gpuscout names the build that fits. The test makes tiny local wheels of the versions that command pins,
in the variant installed (+cu130) and the variant named (+cuNNN from its --index-url), installs the first set into a
fresh venv, and runs the command as printed (bash for the terminal line; the %pip line through the venv's pip for the
notebook form), with the index URL pointed at the local folder. Passes when every package named is then the new
variant. It also checks the trap the command's --force-reinstall exists for: a plain `pip install "torch==R.*"` leaves +cu130 in
place, since PEP 440 ignores the local label.

Usage: check_replace.py GPUSCOUT_BINARY    (exit 0 passed, 1 failed, 77 skipped: no venv module)
"""
import base64
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import zipfile

OLD = "cu130"


def wheel(folder, name, version):
    """A minimal pure-Python wheel (PEP 427) of `name` at `version`: a module and its dist-info."""
    dist = f"{name}-{version}"
    files = {
        f"{name}/__init__.py": f"__version__ = {version!r}\n",
        f"{dist}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
        f"{dist}.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: gpuscout-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = []
    for path, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(text.encode())}")
    record.append(f"{dist}.dist-info/RECORD,,")
    files[f"{dist}.dist-info/RECORD"] = "\n".join(record) + "\n"
    os.makedirs(folder, exist_ok=True)
    with zipfile.ZipFile(os.path.join(folder, f"{name}-{version}-py3-none-any.whl"), "w") as z:
        for path, text in files.items():
            z.writestr(path, text)


def inventory(python, notebook):
    """A Linux machine with a GTX 1060 on a 550 driver, whose venv has a CUDA 13.0 torch and torchvision."""
    inv = {
        "schema": "gpuscout.inventory/1",
        "os": {"family": "linux", "id": "debian", "version_id": "12", "pretty_name": "Debian GNU/Linux 12 (bookworm)"},
        "gpus": [{"index": 0, "vendor": "nvidia", "name": "NVIDIA GeForce GTX 1060 6GB", "pci_bus_id": "0000:01:00.0",
                  "compute_capability": "6.1", "memory_total_bytes": 6442450944, "nvml_index": 0, "cuda_index": 0}],
        "nvidia": {"library_found": True, "driver_version": "550.163.01", "cuda_driver_version": "12.4"},
        "cuda": {"available": True, "device_count": 1},
        "python": {"probed": True, "executable": python, "version": "%d.%d.%d" % sys.version_info[:3],
                   "selected_by": "VIRTUAL_ENV", "in_venv": True, "externally_managed": False, "torch_installed": True,
                   "packages": [{"name": "torch", "version": "2.0.0+" + OLD},
                                {"name": "torchvision", "version": "0.1.0+" + OLD}]},
        "torch": {"version": "2.0.0+" + OLD, "cuda": "13.0", "cuda_available": False, "device_count": 0,
                  "arch_list": ["sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"]},
    }
    if notebook:
        inv["platform"] = {"notebook": "colab"}
    return inv


def run(argv, **kw):
    return subprocess.run(argv, capture_output=True, text=True, timeout=300, **kw)


def installed(python):
    out = run([python, "-m", "pip", "list", "--format=json", "--disable-pip-version-check"])
    return {p["name"]: p["version"] for p in json.loads(out.stdout)}


def check(gpuscout, work, notebook):
    venv = os.path.join(work, "venv-notebook" if notebook else "venv")
    made = run([sys.executable, "-m", "venv", venv])
    if made.returncode != 0:
        print(f"skipped: python3 -m venv failed: {made.stderr.strip()}")
        sys.exit(77)
    python = os.path.join(venv, "bin", "python")
    path = os.path.join(work, "notebook.json" if notebook else "machine.json")
    with open(path, "w") as f:
        json.dump(inventory(python, notebook), f)
    doctor = run([gpuscout, "--lang", "en", "doctor", "--json", "--from", path])
    steps = json.loads(doctor.stdout)["verdict"]["plan"]["steps"]
    command = next((s["command"] for s in steps if s["kind"] == "torch"), None)
    if not command:
        return f"no install command: {doctor.stdout[:2000]}"
    pins = dict(re.findall(r'"(torch|torchvision|torchaudio)==([0-9.]+)\.\*"', command))
    index = re.search(r"--index-url https://download\.pytorch\.org/whl/(\S+)", command)
    if "torch" not in pins or not index:
        return f"cannot read the pins and index of: {command}"
    new = index.group(1)
    old_dir, new_dir = os.path.join(work, "old"), os.path.join(work, new)
    for name, release in pins.items():
        wheel(old_dir, name, f"{release}.0+{OLD}")
        wheel(new_dir, name, f"{release}.0+{new}")
    before = [f"{name}=={release}.0+{OLD}" for name, release in pins.items() if name != "torchaudio"]
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
    setup = run([python, "-m", "pip", "install", "--no-index", "--find-links", old_dir] + before, env=env)
    if setup.returncode != 0:
        return f"could not install the old set: {setup.stderr}"
    # The trap: the pins alone keep the installed variant.
    plain = run([python, "-m", "pip", "install", "--no-index", "--find-links", new_dir, f"torch=={pins['torch']}.*"],
                env=env)
    if plain.returncode != 0 or not installed(python)["torch"].endswith("+" + OLD):
        return "expected a plain pip install of the pins to keep the installed build (the trap this test is about)"
    local = command.replace(index.group(0), f"--no-index --find-links {new_dir}")
    if "\n" in command:
        return f"the command is one line: {command!r}"
    if notebook:
        if not local.startswith("%pip "):
            return f"a notebook command is a %pip line: {command!r}"
        done = run([python, "-m", "pip"] + local[len("%pip "):].replace('"', "").split(), env=env)
    else:
        done = run(["bash", "-c", local], env=env)
    if done.returncode != 0:
        return f"the command failed: {local}\n{done.stdout}\n{done.stderr}"
    now = installed(python)
    wrong = {name: now.get(name) for name, release in pins.items() if now.get(name) != f"{release}.0+{new}"}
    if wrong:
        return f"after `{command}` these are not the {new} build: {wrong}"
    print(f"ok ({'notebook' if notebook else 'terminal'}): {command}")
    return None


def main():
    gpuscout = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as work:
        for notebook in (False, True):
            problem = check(gpuscout, work, notebook)
            if problem:
                failures.append(problem)
    for problem in failures:
        print("FAILED:", problem)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
