"""torch.__config__: show() returns the build summary the scenario gives ("config_show")."""
from ._fake_config import CONFIG as _CONFIG


def show():
    return str(_CONFIG["config_show"])
