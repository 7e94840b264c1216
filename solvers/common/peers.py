"""The peers' own libraries, imported only when asked for (``cubebench[peers]``)."""

from __future__ import annotations

import importlib
from functools import cache
from importlib import metadata
from types import ModuleType

from ...harness import SolverLoadError


def import_peer(package: str, solver: str) -> ModuleType:
    """``package`` imported, or one line saying which extra installs it.

    Raises:
        SolverLoadError: when the package is not installed.
    """
    try:
        return importlib.import_module(package)
    except ModuleNotFoundError as exc:
        if exc.name != package:
            raise
        raise SolverLoadError(
            f"solver {solver} needs the {package} package, which is not installed: "
            "pip install 'cubebench[peers]'"
        ) from exc


@cache
def peer_version(package: str) -> str:
    """The installed version: every record's ``info`` and the manifest name it, as the
    ``kociemba`` adapter names its package."""
    return metadata.version(package)


class OutOfTimeError(Exception):
    """Raised from inside a peer's search (through the model it calls) when the wall budget
    is spent: the peers' searches have no clock of their own."""
