"""torch.backends.cpu (torch 2.0 on): the SIMD kernels torch dispatches to ("cpu_capability")."""
from .._fake_config import CONFIG as _CONFIG


def get_cpu_capability():
    return str(_CONFIG["cpu_capability"])
