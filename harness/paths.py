"""Where cubebench keeps a user's data: ``$CUBEBENCH_HOME``, by default ``~/.cubebench``.

``suites/`` holds imported suites; ``runs/`` the runs a user makes (``bench run`` without
``--out``: the project's own cited runs live in a checkout's ``results/``, written there
with ``--out results``); ``solvers/`` program solvers kept by name; ``cache/NAME/`` data that
is costly to make and safe to delete (the optimum oracle's table, a trainer's labels).
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


def runs_dir() -> Path:
    """``$CUBEBENCH_HOME/runs``: where runs go unless ``--out`` names a folder."""
    return home_dir() / "runs"
