"""Reads the fake-torch scenario named by GPUSCOUT_FAKE_TORCH (format: ../../scenarios/README.md).

Without the variable the package behaves like a CPU-only wheel, 2.5.1+cpu.
"""
import json
import os

CPU_BUILD = {
    "version": "2.5.1+cpu",
    "cuda": None,
    "hip": None,
    "cuda_available": False,
    "device_count": 0,
    "arch_list": [],
    "cudnn": None,
    "devices": [],
    "warnings": [],
    "cuda_init_error": None,
}


def load():
    path = os.environ.get("GPUSCOUT_FAKE_TORCH")
    config = dict(CPU_BUILD)
    if path:
        with open(path, encoding="utf-8") as f:
            config.update(json.load(f))
    return config


CONFIG = load()
