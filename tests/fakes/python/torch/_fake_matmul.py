"""The tensor calls `gpuscout bench --torch` makes, for scenarios with a "matmul" entry (../../scenarios/README.md).

No numbers are computed: a tensor knows its shape, dtype and device. A product "takes" 2 m n k / rate seconds: on
the CPU it sleeps that long (the script times it with perf_counter), on a CUDA device it advances that device's
clock, which CUDA events read. Its error against the fp64 reference is the scenario's figure for its precision.
"""
import time as _time

from ._fake_config import CONFIG as _CONFIG

_SPEC = _CONFIG.get("matmul") or {}


class dtype:  # noqa: N801 (torch's own spelling)
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "torch." + self.name


float32, float16, bfloat16, float64 = dtype("float32"), dtype("float16"), dtype("bfloat16"), dtype("float64")
_NAMES = {"float32": "fp32", "float16": "fp16", "bfloat16": "bf16", "float64": "fp64"}

# CUDA device clocks in seconds, advanced by each product; what Event.record() reads.
clocks = {}


def _precision(t):
    from .backends import cuda as _cuda  # torch.backends.cuda.matmul.allow_tf32 decides fp32 vs tf32 on a GPU
    name = _NAMES[t.dtype.name]
    if name == "fp32" and t.device != "cpu" and _cuda.matmul.allow_tf32:
        return "tf32"
    return name


def _kind(device):
    return "cpu" if device == "cpu" else "cuda"


class Tensor:
    def __init__(self, shape, dtype_, device, error=0.0):
        self.shape, self.dtype, self.device, self._error = tuple(shape), dtype_, device, error

    def to(self, dtype_):
        return Tensor(self.shape, dtype_, self.device, self._error)

    def double(self):
        return self.to(float64)

    def abs(self):
        return self

    def clamp_min(self, _value):
        return self

    def max(self):
        return self

    def item(self):
        return self._error

    def __getitem__(self, rows):
        return Tensor((len(range(*rows.indices(self.shape[0]))), self.shape[1]), self.dtype, self.device, self._error)

    def __sub__(self, other):
        return Tensor(self.shape, self.dtype, self.device, max(self._error, other._error))

    def __truediv__(self, other):
        return Tensor(self.shape, self.dtype, self.device, self._error)

    def __matmul__(self, other):
        if self.device != other.device:
            raise RuntimeError("Expected all tensors to be on the same device")
        precision = _precision(self)
        flops = 2.0 * self.shape[0] * self.shape[1] * other.shape[1]
        rates = _SPEC.get(_kind(self.device), {})
        if precision != "fp64":
            if precision not in rates:
                raise RuntimeError('"addmm_impl" not implemented for \'%s\'' % self.dtype.name)
            seconds = flops / (float(rates[precision]) * 1e9)
            if self.device == "cpu":
                _time.sleep(seconds)
            else:
                clocks[self.device] = clocks.get(self.device, 0.0) + seconds
        error = 0.0 if precision == "fp64" else float((_SPEC.get("rel_error") or {}).get(precision, 1e-7))
        return Tensor((self.shape[0], other.shape[1]), self.dtype, self.device, error)


def manual_seed(_seed):
    return None


def randn(*shape, device="cpu"):
    device = str(device)
    if device != "cpu":
        from . import cuda as _cuda
        _cuda._index(device)
        if shape[0] > int(_SPEC.get("cuda_max_n", 1 << 20)):
            raise RuntimeError("CUDA out of memory. Tried to allocate %.2f GiB" % (shape[0] * shape[1] * 4 / 2 ** 30))
        device = "cuda:%d" % _cuda._index(device)
    return Tensor(shape, float32, device)
