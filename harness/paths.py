"""Where cubebench keeps a user's data: ``$CUBEBENCH_HOME``, by default ``~/.cubebench``.

``suites/`` holds imported suites; ``cache/NAME/`` data that is costly to make and safe to
delete (the optimum oracle's table, a trainer's labels).
"""

from __future__ import annotations

import os
from pathlib import Path


def home_dir() -> Path:
    home = os.environ.get("CUBEBENCH_HOME")
    return Path(home) if home else Path.home() / ".cubebench"


def cache_dir(name: str) -> Path:
    """``$CUBEBENCH_HOME/cache/NAME`` (not created here)."""
    if not name or "/" in name or name in (".", ".."):
        raise ValueError(f"cache name {name!r}: one plain folder name")
    return home_dir() / "cache" / name
