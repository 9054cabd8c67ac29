#!/usr/bin/env python3
"""The install command gpuscout prints really replaces an installed PyTorch build, with real pip, offline.

A GTX 1060 (sm_61) machine whose venv has torch and torchvision built for CUDA 13.0 (no sm_61 code, and a driver too
old for it): gpuscout names the build that fits. The test makes tiny local wheels of the versions that command pins,
in the variant installed (+cu130) and the variant named (+cuNNN from its --index-url), installs the first set into a
fresh venv, and runs the command as printed (bash for the terminal line; the %pip line through the venv's pip for the
notebook form), with the index URL pointed at the local folder. Passes when every package named is then the new
variant. It also checks the trap the command's --force-reinstall exists for: a plain `pip install "torch==R.*"` leaves +cu130 in
place, since PEP 440 ignores the local label.

Four machines: a venv with pip (the terminal line), a hosted notebook (%pip), a distribution's own Python that PEP 668
closes (the line makes ~/venvs/torch and installs there; HOME is a temporary folder), and a venv made without pip
and without torch (ensurepip first). A fifth, a uv venv (no pip; `uv pip install --reinstall-package`), runs where uv
is installed and is reported as skipped where it is not.

Usage: check_replace.py GPUSCOUT_BINARY    (exit 0 passed, 1 failed, 77 skipped: no venv module)
"""
import base64
import hashlib
import json
import os
import re
import shutil
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


def inventory(python, kind):
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
    if kind == "notebook":
        inv["platform"] = {"notebook": "colab"}
    if kind == "system":  # Debian's /usr/bin/python3: PEP 668, no venv
        inv["python"].update(selected_by="PATH", in_venv=False, externally_managed=True, has_pip=True, has_ensurepip=True)
    if kind == "uv":
        inv["python"].update(has_pip=False, environment_tool="uv")
    if kind == "no-pip":  # a venv made --without-pip, nothing in it yet
        inv["python"].update(has_pip=False, has_ensurepip=True, torch_installed=False, packages=[])
        del inv["torch"]
    return inv


def run(argv, **kw):
    return subprocess.run(argv, capture_output=True, text=True, timeout=300, **kw)


def make_env(kind, venv):
    """The interpreter the machine's inventory names, with `pip` its installer (None where it has none)."""
    if kind == "uv":
        made = run(["uv", "venv", "--python", sys.executable, venv])
    else:
        made = run([sys.executable, "-m", "venv", venv] + (["--without-pip"] if kind == "no-pip" else []))
    if made.returncode != 0:
        print(f"skipped: making the {kind} environment failed: {made.stderr.strip()}")
        sys.exit(77)
    return os.path.join(venv, "bin", "python")


def installed(python, kind):
    if kind == "uv":
        out = run(["uv", "pip", "list", "--python", python, "--format=json"])
    else:
        out = run([python, "-m", "pip", "list", "--format=json", "--disable-pip-version-check"])
    return {p["name"]: p["version"] for p in json.loads(out.stdout or "[]")}


def check(gpuscout, work, kind):
    python = make_env(kind, os.path.join(work, "env-" + kind))
    path = os.path.join(work, kind + ".json")
    with open(path, "w") as f:
        json.dump(inventory(python, kind), f)
    doctor = run([gpuscout, "--lang", "en", "doctor", "--json", "--from", path])
    steps = json.loads(doctor.stdout)["verdict"]["plan"]["steps"]
    command = next((s["command"] for s in steps if s["kind"] == "torch"), None)
    if not command:
        return f"{kind}: no install command: {doctor.stdout[:2000]}"
    pins = dict(re.findall(r'"(torch|torchvision|torchaudio)==([0-9.]+)\.\*"', command))
    index = re.search(r"--index-url https://download\.pytorch\.org/whl/(\S+)", command)
    if "torch" not in pins or not index:
        return f"{kind}: cannot read the pins and index of: {command}"
    if "\n" in command or "(" in command.replace('"', ""):
        return f"{kind}: the command is one line of shell, no prose: {command!r}"
    new = index.group(1)
    old_dir, new_dir = os.path.join(work, "old"), os.path.join(work, new)
    for name, release in pins.items():
        wheel(old_dir, name, f"{release}.0+{OLD}")
        wheel(new_dir, name, f"{release}.0+{new}")
    home = os.path.join(work, "home-" + kind)
    os.makedirs(home)
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1", HOME=home, UV_OFFLINE="1",
               UV_CACHE_DIR=os.path.join(work, "uv-cache"))
    if kind != "no-pip":
        before = [f"{name}=={release}.0+{OLD}" for name, release in pins.items() if name != "torchaudio"]
        pip = ["uv", "pip", "install", "--python", python] if kind == "uv" else [python, "-m", "pip", "install"]
        setup = run(pip + ["--no-index", "--find-links", old_dir] + before, env=env)
        if setup.returncode != 0:
            return f"{kind}: could not install the old set: {setup.stderr}"
        # The trap: the pins alone keep the installed variant.
        plain = run(pip + ["--no-index", "--find-links", new_dir, f"torch=={pins['torch']}.*"], env=env)
        if plain.returncode != 0 or not installed(python, kind)["torch"].endswith("+" + OLD):
            return f"{kind}: expected a plain install of the pins to keep the installed build (the trap this test is about)"
    local = command.replace(index.group(0), f"--no-index --find-links {new_dir}")
    if kind == "notebook":
        if not local.startswith("%pip "):
            return f"a notebook command is a %pip line: {command!r}"
        done = run([python, "-m", "pip"] + local[len("%pip "):].replace('"', "").split(), env=env)
    else:
        done = run(["bash", "-c", local], env=env)
    if done.returncode != 0:
        return f"{kind}: the command failed: {local}\n{done.stdout}\n{done.stderr}"
    target = os.path.join(home, "venvs", "torch", "bin", "python") if kind == "system" else python
    if kind == "system" and not os.path.exists(target):
        return f"system: the command made no ~/venvs/torch: {command}"
    now = installed(target, kind)
    wrong = {name: now.get(name) for name, release in pins.items() if now.get(name) != f"{release}.0+{new}"}
    if wrong:
        return f"{kind}: after `{command}` these are not the {new} build: {wrong}"
    print(f"ok ({kind}): {command}")
    return None


def main():
    gpuscout = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as work:
        kinds = ["terminal", "notebook", "system", "no-pip"]
        if shutil.which("uv"):
            kinds.append("uv")
        else:
            print("skipped (uv): uv is not installed here")
        for kind in kinds:
            problem = check(gpuscout, work, kind)
            if problem:
                failures.append(problem)
    for problem in failures:
        print("FAILED:", problem)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
