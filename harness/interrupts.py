"""SIGTERM and SIGHUP end a run the way Ctrl-C does; workers end with their parent.

``kill PID``, ``timeout`` and a CI that cancels a job send SIGTERM, whose default action ends
the process at once: no ``finally`` runs, the workers stay alive under PID 1 and the
manifest never says the run was interrupted. Inside :func:`terminate_as_interrupt` those
signals raise :class:`Terminated` (a ``KeyboardInterrupt``), so one code path cleans up.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
from collections.abc import Iterator

SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class Terminated(KeyboardInterrupt):
    """A run ended by a signal; ``signum`` gives the conventional exit status 128 + signum."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


class Interrupted(Exception):  # noqa: N818  (what the user sees: the command was interrupted)
    """A command other than a run ended by Ctrl-C or a signal, its clean-up done: ``bench``
    prints the message and exits with 128 + ``signum`` (a KeyboardInterrupt would be
    turned into an exit status of its own by the command-line library)."""

    def __init__(self, signum: int, message: str) -> None:
        super().__init__(message)
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


_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """In a worker process: on Linux, the kernel kills it when its parent dies, even by
    SIGKILL. A worker stuck in a search never reads a closed pipe, and would otherwise live
    on under PID 1 with its tables."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if os.getppid() == 1:  # the parent died before the call took effect
        os._exit(1)


def leave_signals_to_parent() -> None:
    """In a worker process: Ctrl-C, SIGTERM and SIGHUP sent to the whole process group are
    the parent's to handle; it ends its workers itself."""
    for sig in (signal.SIGINT, *SIGNALS):
        signal.signal(sig, signal.SIG_IGN)
