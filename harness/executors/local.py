"""The default executor: worker processes on this machine (:mod:`.workers`).

A worker past its instance's wall limit, over its memory limit, or dead is killed and
replaced, and only that instance is lost (recorded as ``timeout`` or ``error``).
"""

from __future__ import annotations

import time
from multiprocessing.connection import wait
from typing import Any

from ..registry import prepare
from ..solver import WALL_CAP, SolverLoadError, kill_after
from .base import Job, Sink
from .messages import Crashed, Died, LoadFailed, Ready, Solved, Task
from .workers import Worker, describe_exit, start_solvers, stop_all

MAX_LOAD_DEATHS = 3


def over_time(job: Job, worker: Worker, elapsed: float) -> str | None:
    """Why a busy worker is killed now, or None: past its limit and the grace on the
    budget's clock (its CPU seconds since the cube was sent, or the wall's), or past the
    wall clock's cap of a CPU budget and the grace."""
    budget, limit = job.budget, job.budget.wall_seconds
    if limit is None:
        return None
    if budget.clock == "cpu":
        spent = worker.cpu_seconds() - worker.cpu_at_send
        if spent > kill_after(limit):
            return f"killed after {spent:.1f} CPU s (limit {limit} CPU s)"
    cap = budget.wall_cap()
    if cap is not None and elapsed > kill_after(cap):
        unit = "s" if budget.clock == "wall" else f"s, {WALL_CAP:g}x the CPU limit"
        return f"killed after {elapsed:.1f} s (limit {cap:g} {unit})"
    return None


class LocalExecutor:
    name = "local"

    def preload(self, jobs: list[Job]) -> dict[str, Worker]:
        if not jobs:
            return {}
        for job in jobs:  # a first table build takes longer than a load may
            prepare(job.entry)
        entries = {j.key: j.entry for j in jobs}
        return start_solvers(entries, jobs[0].budget, jobs[0].log)

    def stop(self, handles: dict[str, Worker]) -> None:
        stop_all(handles)

    def nodes(self) -> dict[str, dict[str, Any]]:
        return {}

    def close(self) -> None:
        pass

    def run(self, job: Job, tasks: list[Task], sink: Sink, first: Worker | None = None) -> None:
        """Feed ``tasks`` to ``job.workers`` processes (``first``: one already loaded)."""
        memory_limit = (job.memory_limit_gb or 0) * 2**30
        pending = list(reversed(tasks))
        count = min(job.workers, len(tasks))
        workers = [first] if first is not None else []
        workers += [Worker(job.entry, job.budget, job.log) for _ in range(count - len(workers))]
        if first is not None and first.report is not None:  # loaded before: pinned likewise
            sink.ready(first.report)
        load_deaths = 0

        def replace(worker: Worker) -> Worker:
            worker.kill()
            return Worker(job.entry, job.budget, job.log)

        try:
            while pending or any(w.task for w in workers):
                for w in workers:
                    if w.ready and w.task is None and pending:
                        w.send(pending.pop())
                ready_conns = wait([w.conn for w in workers], timeout=0.05)
                for i, w in enumerate(workers):
                    if w.conn in ready_conns:
                        try:
                            message = w.receive()
                        except (EOFError, OSError):
                            message = Died()
                        if isinstance(message, Ready):
                            w.ready, w.report = True, message.report
                            sink.ready(message.report)
                        elif isinstance(message, LoadFailed):
                            raise SolverLoadError(
                                f"solver {job.key} failed to load in a new worker: {message.reason}"
                            )
                        elif isinstance(message, Solved | Crashed):
                            task, w.task = w.task, None
                            assert task is not None, f"{message} with no task out"
                            sink.result(task, message)
                            if message.reloading:  # no cube until it says Ready again
                                w.ready = False
                        elif isinstance(message, Died):
                            if w.task is not None:
                                sink.failure(w.task, "error", describe_exit(w), None)
                                w.task = None
                            elif not w.ready:
                                load_deaths += 1
                                if load_deaths >= MAX_LOAD_DEATHS:
                                    raise SolverLoadError(
                                        f"solver {job.key} failed to load in a new worker: "
                                        f"{describe_exit(w)}"
                                    )
                            workers[i] = replace(w)
                        continue
                    if w.task is not None:
                        if w.conn.poll():  # its answer came while we verified another's:
                            continue  # it is judged on the time the worker measured
                        elapsed = time.monotonic() - w.sent_at
                        why = over_time(job, w, elapsed)
                        if why is not None:
                            sink.failure(w.task, "timeout", why, elapsed)
                            workers[i] = replace(w)
                        elif memory_limit and w.rss_bytes() > memory_limit:
                            why = f"killed: memory above {job.memory_limit_gb} GB"
                            sink.failure(w.task, "error", why, elapsed)
                            workers[i] = replace(w)
        except BaseException:
            stop_all(workers)
            raise
        stop_all(workers, graceful=True)
