"""A fake `torch` for testing gpuscout's Python probe without PyTorch or a GPU.

It answers the handful of calls the probe makes (version, CUDA/HIP build, devices, arch list,
cuDNN) from the JSON file named by GPUSCOUT_FAKE_TORCH; see tests/fakes/scenarios/README.md.
"""
import time as _time

from ._fake_config import CONFIG as _CONFIG

_ESCAPE = __import__("os").environ.get("GPUSCOUT_FAKE_TORCH_ESCAPE")
if _ESCAPE:
    # A child that leaves the probe's process group (as a daemon or a launcher would), and this Python's pid
    # beside it, for the tests that check nothing outlives gpuscout.
    import os as _os
    import subprocess as _subprocess
    _escaped = _subprocess.Popen(["sleep", "300"], start_new_session=True, stdin=_subprocess.DEVNULL,
                                 stdout=_subprocess.DEVNULL, stderr=_subprocess.DEVNULL)
    with open(_ESCAPE + ".tmp", "w") as _f:
        _f.write(f"{_os.getpid()} {_escaped.pid}\n")
    _os.rename(_ESCAPE + ".tmp", _ESCAPE)
if _CONFIG.get("hang_seconds"):
    _time.sleep(float(_CONFIG["hang_seconds"]))  # a wedged import (driver probe stuck in cuInit)
if _CONFIG.get("import_error"):
    raise ImportError(_CONFIG["import_error"])

from . import version  # noqa: E402
from . import cuda  # noqa: E402
from . import backends  # noqa: E402

if "xpu_available" in _CONFIG:  # only XPU builds have torch.xpu's devices; the probe checks hasattr first
    from . import xpu  # noqa: E402,F401

__version__ = version.__version__

# The CPU-side calls exist only where the scenario names them, as in an old torch without the API.
if "num_threads" in _CONFIG:
    def get_num_threads():
        return int(_CONFIG["num_threads"])
if "num_interop_threads" in _CONFIG:
    def get_num_interop_threads():
        return int(_CONFIG["num_interop_threads"])
if "matmul" in _CONFIG:  # the tensor calls of `gpuscout bench --torch`
    from ._fake_matmul import (Tensor, bfloat16, float16, float32, float64, manual_seed,  # noqa: E402,F401
                               randn)
if "config_show" in _CONFIG:
    from . import __config__  # noqa: E402,F401

__all__ = ["__version__", "version", "cuda", "backends"]
