"""Where solver workers run: local worker processes (the default) or a Ray cluster.

The runner hands an executor one solver entry at a time (:class:`Job`) and a :class:`Sink`;
the executor starts workers that load the solver once, hands them instances, enforces the
per-instance wall limit from outside, and passes every outcome to the sink. The runner's
sink verifies and writes the records, so both executors give the same records, resume and
no-loss guarantees. Ray is imported only when asked for (``cubebench[ray]``).
"""

from __future__ import annotations

from typing import Any

from ..solver import ArgumentError
from .base import Executor, Job, Sink

EXECUTORS = ("local", "ray")


def make_executor(name: str = "local", address: str | None = None) -> Executor[Any]:
    """The executor ``name``; ``address`` is a Ray cluster's (``auto``, ``HOST:PORT``)."""
    if name == "local":
        if address:
            raise ArgumentError(f"--address {address!r}: only the ray executor takes an address")
        from .local import LocalExecutor

        return LocalExecutor()
    if name == "ray":
        from .ray_cluster import RayExecutor

        return RayExecutor(address)
    raise ArgumentError(f"executor {name!r}: choose one of {', '.join(EXECUTORS)}")


__all__ = ["EXECUTORS", "Executor", "Job", "Sink", "make_executor"]
