"""torch.backends.cuda: the TF32 switch of matrix products, as `bench --torch` sets it."""
from .._fake_config import CONFIG as _CONFIG


class _Matmul:
    def __init__(self):
        # PyTorch 1.7 to 1.11 allowed TF32 by default, 1.12 and later do not.
        self.allow_tf32 = bool((_CONFIG.get("matmul") or {}).get("allow_tf32_default", False))


matmul = _Matmul()
