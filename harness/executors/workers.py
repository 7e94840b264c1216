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
import threading
import time
from dataclasses import asdict
from multiprocessing.connection import Connection, wait

from .. import processes
from ..interrupts import SIGNALS, die_with_parent
from ..registry import Resolved
from ..solver import Budget, SolverLoadError
from .messages import LoadFailed, LoadReport, Ready, Task, load_solver, reload_solver, solve_task

_CONTEXT = mp.get_context("spawn")
STOP_WAIT_S = 5.0
"""How long workers get, together, to leave on their own at the end before they are killed."""
LOAD_TIMEOUT_S = 300.0
"""A solver that has not loaded after this long (a hang, a dead network mount) stops the run."""


MAX_LOG_BYTES = 1 << 20
"""What one worker may write into the run's log; the rest of its output is read and dropped."""


def capture_output(path: str, solver: str, cap: int = MAX_LOG_BYTES) -> None:
    """Send this process's standard output and error (its C libraries' too: the file
    descriptors themselves) through a pipe to a thread that appends the first ``cap`` bytes
    to ``path`` (made at the first byte) and drops the rest, so a solver that prints
    megabytes a cube neither floods the terminal nor fills the disk."""
    read, write = os.pipe()
    for fd in (1, 2):
        os.dup2(write, fd)
    os.close(write)

    def pump() -> None:
        log, kept = -1, 0
        while chunk := os.read(read, 1 << 16):
            if kept >= cap:
                continue
            if log < 0:
                log = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
                os.write(log, f"--- worker {os.getpid()} of {solver} ---\n".encode())
            part = chunk[: cap - kept]
            os.write(log, part)
            kept += len(part)
            if kept >= cap:
                note = f"\n[worker {os.getpid()}: output past {cap} bytes dropped]\n"
                os.write(log, note.encode())

    threading.Thread(target=pump, name="capture-output", daemon=True).start()


def _worker_main(conn: Connection, entry: Resolved, budget: dict, log: str = "") -> None:
    # Ctrl-C, SIGTERM and SIGHUP are the parent's to handle: it ends its workers itself, and
    # an instance cut short by a signal sent to the whole process group must be redone on
    # resume, not recorded as a crash
    for sig in (signal.SIGINT, *SIGNALS):
        signal.signal(sig, signal.SIG_IGN)
    die_with_parent()
    if log:
        with contextlib.suppress(OSError):  # no log where it cannot be written: inherited
            capture_output(log, entry.name)
    instance, message = load_solver(entry)
    try:
        conn.send(message)
    except OSError:  # the parent was stopped while this worker loaded: nothing to report to
        return
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
        try:
            conn.send(solve_task(instance, task, limits))
            reloaded = reload_solver(instance)  # after the answer: charged to no cube
            if reloaded is not None:
                conn.send(reloaded)
        except OSError:  # the parent is gone
            return
        if isinstance(reloaded, LoadFailed):
            return


class Worker:
    """The parent's handle on one worker process."""

    def __init__(self, entry: Resolved, budget: Budget, log: str = "") -> None:
        self.conn, child = _CONTEXT.Pipe()
        self.process = _CONTEXT.Process(
            target=_worker_main, args=(child, entry, asdict(budget), log), daemon=True
        )
        self.process.start()
        child.close()
        self.ready = False
        self.report: LoadReport | None = None
        self.task: Task | None = None
        self.sent_at = self.cpu_at_send = 0.0

    def send(self, task: Task) -> None:
        self.task, self.sent_at = task, time.monotonic()
        self.cpu_at_send = self.cpu_seconds()
        self.conn.send(task)

    def cpu_seconds(self) -> float:
        """CPU seconds the worker and every process below it have spent so far."""
        pid = self.process.pid
        return 0.0 if pid is None else processes.cpu_seconds(processes.tree(pid))

    def receive(self) -> object:
        """The worker's next message, one of :mod:`~cubebench.harness.executors.messages`."""
        return self.conn.recv()

    def rss_bytes(self) -> int:
        """The worker's resident memory and that of every process it started (a program
        solver's program): the run's memory limit is the whole tree's."""
        pid = self.process.pid
        return 0 if pid is None else processes.rss_bytes(processes.tree(pid))

    def kill(self) -> None:
        if self.process.is_alive() and self.process.pid is not None:
            processes.kill_tree(self.process.pid)  # a program solver's program with it
        self.process.join(timeout=5)
        self.conn.close()

    def ask_to_stop(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.conn.send(None)


def describe_exit(worker: Worker) -> str:
    # the pipe closes a moment before the process is reaped: wait for its exit code
    worker.process.join(timeout=5)
    code = worker.process.exitcode
    if code is not None and code < 0:
        return f"worker died from signal {signal.Signals(-code).name}"
    return f"worker exited with code {code}"


def start_solvers(entries: dict[str, Resolved], budget: Budget, log: str = "") -> dict[str, Worker]:
    """One worker per solver, each loaded and ready, or :class:`SolverLoadError`.

    Runs before a run writes anything, so a solver that cannot load (a missing or tampered
    checkpoint, an import error, a crash or hang while loading) stops it with one line and
    leaves nothing a ``--resume`` would trip over. The workers then serve the run.
    """
    workers = {key: Worker(entry, budget, log) for key, entry in entries.items()}
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
                    message = LoadFailed(describe_exit(worker))
                if not isinstance(message, Ready):
                    reason = message.reason if isinstance(message, LoadFailed) else message
                    raise SolverLoadError(f"solver {name} failed to load: {reason}")
                worker.ready, worker.report = True, message.report
    except BaseException:
        stop_all(workers)
        raise
    return workers


def stop_all(workers: dict[str, Worker] | list[Worker], *, graceful: bool = False) -> None:
    """End workers together: a hung one costs at most :data:`STOP_WAIT_S` in all, not each.

    ``graceful``: idle workers are asked to leave first (their solvers may clean up);
    otherwise (an interrupt, an error) every worker is killed at once.
    """
    group = list(workers.values()) if isinstance(workers, dict) else list(workers)
    if graceful:
        for worker in group:
            worker.ask_to_stop()
        deadline = time.monotonic() + STOP_WAIT_S
        for worker in group:
            worker.process.join(timeout=max(deadline - time.monotonic(), 0))
    for worker in group:
        worker.kill()
