"""SIGTERM and SIGHUP end a run the way Ctrl-C does.

``kill PID``, ``timeout`` and a CI that cancels a job send SIGTERM, whose default action ends
the process at once: no ``finally`` runs, the workers stay alive under PID 1 and the
manifest never says the run was interrupted. Inside :func:`terminate_as_interrupt` those
signals raise :class:`Terminated` (a ``KeyboardInterrupt``), so one code path cleans up.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class Terminated(KeyboardInterrupt):
    """A run ended by a signal; ``signum`` gives the conventional exit status 128 + signum."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Within the block, the first SIGTERM/SIGHUP raises :class:`Terminated`; later ones
    are ignored so that cleanup is not itself interrupted. Only the main thread can handle
    signals; elsewhere the block runs unchanged."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: object) -> None:
        for sig in SIGNALS:
            signal.signal(sig, signal.SIG_IGN)
        raise Terminated(signum)

    previous = {sig: signal.signal(sig, handler) for sig in SIGNALS}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def exit_status(exc: BaseException) -> int:
    """128 + the signal number for a signal, 130 (SIGINT's) for Ctrl-C."""
    return 128 + getattr(exc, "signum", signal.SIGINT)
