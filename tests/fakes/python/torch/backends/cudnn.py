"""torch.backends.cudnn."""
from .._fake_config import CONFIG as _CONFIG

enabled = True
benchmark = False
deterministic = False


def version():
    value = _CONFIG.get("cudnn")
    return None if value is None else int(value)


def is_available():
    return _CONFIG.get("cudnn") is not None
