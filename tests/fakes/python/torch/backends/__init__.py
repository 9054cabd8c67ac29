"""torch.backends: cuDNN and MPS switches as the probe reads them."""
from . import cuda, cudnn, mps  # noqa: F401
from .._fake_config import CONFIG as _CONFIG

if "cpu_capability" in _CONFIG:  # torch.backends.cpu came with torch 2.0
    from . import cpu  # noqa: F401
