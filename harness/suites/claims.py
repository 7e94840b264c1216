"""Which instances of a suite an annotation is proving now, so that two share the work.

Two ``bench suites annotate`` of one suite and metric (two terminals, two sittings that
overlap) would otherwise each prove every instance. Before it starts on an instance, an
annotation claims it here, under the user registry's lock; another takes the next one no
live process has claimed. A claim names its process, so one left by a process that died
is void, and the instance is taken again.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..paths import home_dir
from .model import write_whole


def claims_path(suite: str, metric: str) -> Path:
    return home_dir() / "suites" / "claims" / f"{suite}.{metric}.json"


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's live process
        return True
    try:  # a zombie holds its pid but proves nothing
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat.rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return True


def live_claims(suite: str, metric: str) -> dict[int, int]:
    """instance id -> pid of the live process proving it (the caller holds the lock)."""
    try:
        data = json.loads(claims_path(suite, metric).read_text())
        held = {int(k): int(v) for k, v in data.items()}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}
    return {k: v for k, v in held.items() if _alive(v)}


def write_claims(suite: str, metric: str, claims: dict[int, int]) -> None:
    text = json.dumps({str(k): v for k, v in sorted(claims.items())}) + "\n"
    write_whole(claims_path(suite, metric), text.encode())
