"""torch.version, as generated into real wheels at build time."""
from ._fake_config import CONFIG as _CONFIG

__version__ = _CONFIG["version"]
cuda = _CONFIG.get("cuda")
hip = _CONFIG.get("hip")
debug = _CONFIG.get("debug", False)
git_version = "0000000000000000000000000000000000000000"
