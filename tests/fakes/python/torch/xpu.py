"""torch.xpu of an Intel XPU build: available when the scenario says so ("xpu_available")."""
from ._fake_config import CONFIG as _CONFIG


def is_available():
    return bool(_CONFIG.get("xpu_available", False))


def device_count():
    return int(_CONFIG.get("xpu_device_count", 1 if is_available() else 0))
