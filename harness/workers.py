"""Worker processes: each loads one solver once and solves the instances it is sent.

The parent enforces the limits from outside: a worker past its instance's wall limit, over
its memory limit, or dead is killed and replaced, and only that instance is lost. Workers
are started with ``spawn`` so no state (or framework thread pool) leaks in from the parent.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import signal
import time
from dataclasses import asdict, dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from cubebench.harness.cube import facelets_to_state
from cubebench.harness.solver import Budget, SolverLoadError
from cubebench.harness.verify import to_raw

_CONTEXT = mp.get_context("spawn")
LOAD_TIMEOUT_S = 300.0
"""A solver that has not loaded after this long (a hang, a dead network mount) stops the run."""


@dataclass(frozen=True)
class Task:
    key: tuple[str, str, int]  # solver, suite, instance id
    facelets: str


def load_solver(solver: str, settings: dict[str, Any]) -> tuple[Any, tuple]:
    """Make the solver; returns it (or None) and the ``ready``/``load_error`` message."""
    from cubebench.harness.registry import make_solver  # imported where solvers run only

    try:
        instance = make_solver(solver, settings)
    except BaseException as exc:  # report any load failure
        return None, ("load_error", f"{type(exc).__name__}: {exc}")
    meta = {
        "name": instance.name,
        "checkpoint_sha256": getattr(instance, "checkpoint_sha256", None),
        # how the solver runs here (precision, threads), where it says
        **dict(getattr(instance, "runtime_info", {}) or {}),
    }
    return instance, ("ready", meta)


def solve_task(instance: Any, task: Task, limits: Budget) -> tuple:
    """One instance: a ``result`` message with the raw attempt, or an ``error`` message."""
    state = facelets_to_state(task.facelets, validate=False)
    state.setflags(write=False)
    start = time.perf_counter()
    try:
        attempt = instance.solve(state, limits)
        return ("result", task.key, to_raw(attempt, time.perf_counter() - start))
    except Exception as exc:  # a crashing solver costs one instance, never the run
        return ("error", task.key, f"{type(exc).__name__}: {exc}", time.perf_counter() - start)


def _worker_main(conn: Connection, solver: str, settings: dict[str, Any], budget: dict) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    instance, message = load_solver(solver, settings)
    conn.send(message)
    if instance is None:
        return
    limits = Budget(**budget)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if task is None:
            return
        conn.send(solve_task(instance, task, limits))


class Worker:
    """The parent's handle on one worker process."""

    def __init__(self, solver: str, settings: dict[str, Any], budget: Budget) -> None:
        self.conn, child = _CONTEXT.Pipe()
        self.process = _CONTEXT.Process(
            target=_worker_main, args=(child, solver, settings, asdict(budget)), daemon=True
        )
        self.process.start()
        child.close()
        self.ready = False
        self.meta: dict[str, Any] = {}
        self.task: Task | None = None
        self.sent_at = 0.0

    def send(self, task: Task) -> None:
        self.task, self.sent_at = task, time.monotonic()
        self.conn.send(task)

    def receive(self) -> tuple:
        return self.conn.recv()

    def rss_bytes(self) -> int:
        try:
            with open(f"/proc/{self.process.pid}/statm") as fh:
                return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError):
            return 0

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.conn.send(None)
        self.process.join(timeout=5)
        self.kill()


def describe_exit(worker: Worker) -> str:
    # the pipe closes a moment before the process is reaped: wait for its exit code
    worker.process.join(timeout=5)
    code = worker.process.exitcode
    if code is not None and code < 0:
        return f"worker died from signal {signal.Signals(-code).name}"
    return f"worker exited with code {code}"


def start_solvers(
    specs: dict[str, tuple[str, dict[str, Any]]], budget: Budget
) -> dict[str, Worker]:
    """One worker per solver, each loaded and ready, or :class:`SolverLoadError`.

    Runs before a run writes anything, so a solver that cannot load (a missing or tampered
    checkpoint, an import error, a crash or hang while loading) stops it with one line and
    leaves nothing a ``--resume`` would trip over. The workers then serve the run.
    """
    workers = {key: Worker(name, settings, budget) for key, (name, settings) in specs.items()}
    waiting = dict(workers)
    deadline = time.monotonic() + LOAD_TIMEOUT_S
    try:
        while waiting:
            left = deadline - time.monotonic()
            if left <= 0:
                names = ", ".join(waiting)
                raise SolverLoadError(f"solver {names} did not load within {LOAD_TIMEOUT_S:g} s")
            for conn in wait([w.conn for w in waiting.values()], timeout=left):
                name = next(n for n, w in waiting.items() if w.conn is conn)
                worker = waiting.pop(name)
                try:
                    message = worker.receive()
                except (EOFError, OSError):
                    message = ("load_error", describe_exit(worker))
                if message[0] != "ready":
                    raise SolverLoadError(f"solver {name} failed to load: {message[1]}")
                worker.ready, worker.meta = True, message[1]
    except BaseException:
        stop_all(workers)
        raise
    return workers


def stop_all(workers: dict[str, Worker]) -> None:
    for worker in workers.values():
        worker.kill()
