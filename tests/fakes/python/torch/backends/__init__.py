"""torch.backends: cuDNN and MPS switches as the probe reads them."""
from . import cudnn, mps  # noqa: F401
