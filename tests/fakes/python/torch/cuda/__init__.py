"""torch.cuda: the device queries gpuscout's probe makes, answered from the scenario."""
import warnings as _warnings

from .._fake_config import CONFIG as _CONFIG

_warned = False


def _emit_warnings():
    # Real torch warns once per process (is_available() for init failures, first use for arch checks).
    global _warned
    if _warned:
        return
    _warned = True
    for message in _CONFIG.get("warnings") or []:
        _warnings.warn(message, UserWarning, stacklevel=3)


def is_available():
    _emit_warnings()
    return bool(_CONFIG.get("cuda_available"))


def is_initialized():
    return False


def device_count():
    return int(_CONFIG.get("device_count") or 0)


def _lazy_init():
    _emit_warnings()
    if _CONFIG.get("cuda") is None and _CONFIG.get("hip") is None:
        raise AssertionError("Torch not compiled with CUDA enabled")
    if not _CONFIG.get("cuda_available"):
        raise RuntimeError(_CONFIG.get("cuda_init_error") or "No CUDA GPUs are available")


def _index(device):
    _lazy_init()
    if device is None:
        index = 0
    elif isinstance(device, str):
        index = int(device.split(":")[1]) if ":" in device else 0
    else:
        index = int(getattr(device, "index", device) or 0)
    if not 0 <= index < device_count():
        raise AssertionError("Invalid device id")
    return index


def current_device():
    return _index(None)


class _CudaDeviceProperties:
    def __init__(self, spec):
        self.name = spec["name"]
        self.major, self.minor = (int(x) for x in spec["capability"])
        self.total_memory = int(spec["total_memory"])
        self.multi_processor_count = int(spec["multi_processor_count"])
        self.is_integrated = int(spec.get("is_integrated", 0))
        self.is_multi_gpu_board = int(spec.get("is_multi_gpu_board", 0))
        self.uuid = spec.get("uuid", "")
        self.L2_cache_size = int(spec.get("l2_cache_size", 0))
        if "gcn_arch_name" in spec:
            self.gcnArchName = spec["gcn_arch_name"]

    def __repr__(self):
        return (f"_CudaDeviceProperties(name='{self.name}', major={self.major}, minor={self.minor}, "
                f"total_memory={self.total_memory // (1024 * 1024)}MB, "
                f"multi_processor_count={self.multi_processor_count}, uuid={self.uuid}, "
                f"L2_cache_size={self.L2_cache_size // (1024 * 1024)}MB)")


def get_device_properties(device=None):
    return _CudaDeviceProperties(_CONFIG["devices"][_index(device)])


def get_device_name(device=None):
    return get_device_properties(device).name


def get_device_capability(device=None):
    props = get_device_properties(device)
    return (props.major, props.minor)


def get_arch_list():
    if not is_available():
        return []
    return list(_CONFIG.get("arch_list") or [])


def mem_get_info(device=None):
    props = get_device_properties(device)
    spec = _CONFIG["devices"][_index(device)]
    return (int(spec.get("free_memory", props.total_memory)), props.total_memory)


# --- the calls of `gpuscout bench --torch` (scenarios with "matmul"; see ../_fake_matmul.py) ---

class device:  # noqa: N801 (torch's own spelling): `with torch.cuda.device(i):`
    def __init__(self, index):
        self.index = _index(index)

    def __enter__(self):
        global _current
        self._previous, _current = _current, self.index
        return self

    def __exit__(self, *exc):
        global _current
        _current = self._previous
        return False


_current = 0


def synchronize(device=None):
    _index(device)


def empty_cache():
    return None


class Event:
    def __init__(self, enable_timing=False):
        self.enable_timing, self._at = enable_timing, None

    def record(self):
        from .._fake_matmul import clocks
        self._at = clocks.get("cuda:%d" % _current, 0.0)

    def synchronize(self):
        return None

    def elapsed_time(self, end):
        if not (self.enable_timing and end.enable_timing) or self._at is None or end._at is None:
            raise RuntimeError("Events were not recorded with enable_timing=True")
        return (end._at - self._at) * 1000.0
