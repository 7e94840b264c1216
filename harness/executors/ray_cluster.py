"""The Ray executor: solver workers as actors on a Ray cluster (``cubebench[ray]``).

One actor per worker loads the solver once, with the CPUs and GPUs the solver declares
(:func:`cubebench.harness.registry.solver_resources`). Each actor is handed a chunk of
instances at a time (its queue stays ``CHUNK`` deep, so no round trip is waited for between
instances); an actor runs them in order, so the driver knows when each one started and kills
an actor whose instance overruns its wall limit, recording ``timeout`` and handing the rest of its
chunk to a fresh actor. An actor or node that dies loses its queue: those instances are
retried, the one it was running at most ``RETRIES`` times before it is recorded as
``error``. Outcomes come back to the driver, whose sink alone writes records, so resume and
no-loss guarantees are those of the local executor. The memory limit is Ray's own (its
memory monitor), not ``--memory-limit-gb``.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import asdict, dataclass, field
from typing import Any

from ..records.provenance import machine_info
from ..records.schema import Status
from ..registry import Resolved, entry_resources, prepare
from ..solver import ArgumentError, Budget, SolverLoadError, kill_after
from .base import Job, Sink
from .messages import (
    LoadReport,
    Outcome,
    Ready,
    Started,
    Task,
    load_solver,
    reload_solver,
    solve_task,
)
from .workers import LOAD_TIMEOUT_S

try:
    import ray
    from ray.exceptions import RayActorError, RayError
except ImportError as exc:  # pragma: no cover - exercised by a test that hides ray
    raise ArgumentError(
        "executor 'ray' needs Ray, which is not installed: pip install 'cubebench[ray]'"
    ) from exc

CHUNK = 4
RETRIES = 2
LOST_BACKOFF_S = 5.0


class ActorLostError(SolverLoadError):
    """A worker's actor died before it reported whether its solver loaded."""


class SolverActor:
    """One worker: the solver, loaded once, and the node it runs on."""

    def __init__(self, entry: Resolved, budget: dict) -> None:
        self.instance, self.message = load_solver(entry)
        self.limits = Budget(**budget)

    def ready(self) -> tuple[Started, str, dict[str, Any]]:
        node = ray.get_runtime_context().get_node_id()
        return self.message, node, machine_info()

    def solve(self, task: Task) -> Outcome:
        outcome = solve_task(self.instance, task, self.limits)
        # a solver that asks for a reload (a program solver's program, restarted) does it
        # before its next cube; under Ray it is part of this call, after the cube's time
        # (one that fails leaves it asking, and its next cube is an error)
        reload_solver(self.instance)
        return outcome


@dataclass
class Worker:
    """The driver's handle on one actor."""

    actor: Any
    ready_ref: Any
    report: LoadReport | None = None
    ready: bool = False
    queue: deque = field(default_factory=deque)  # (task, ref), in the order it runs them
    head_since: float = 0.0  # when the first queued instance started
    started: float = field(default_factory=time.monotonic)

    def kill(self) -> None:
        ray.kill(self.actor, no_restart=True)


class RayExecutor:
    name = "ray"

    def __init__(self, address: str | None = None) -> None:
        self.address = address
        self.owns_ray = not ray.is_initialized()  # a caller's own ray.init is left running
        if self.owns_ray:
            try:
                ray.init(
                    address=address or None,
                    include_dashboard=False,
                    log_to_driver=False,
                    configure_logging=False,
                )
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise ArgumentError(f"--address {address!r}: cannot join Ray: {exc}") from exc
        self.actor_class = ray.remote(SolverActor)
        self._nodes: dict[str, dict[str, Any]] = {}

    def _start(self, job: Job) -> Worker:
        needs = entry_resources(job.entry)
        # SPREAD: workers on as many nodes as there are, so a run uses the whole cluster
        # and a lost node costs the fewest workers
        actor = self.actor_class.options(
            **needs, max_restarts=0, scheduling_strategy="SPREAD"
        ).remote(job.entry, asdict(job.budget))
        return Worker(actor, actor.ready.remote())  # type: ignore[attr-defined]  # Ray's

    def _loaded(self, worker: Worker, key: str) -> None:
        """Take a worker's ready message; :class:`SolverLoadError` when it did not load."""
        try:
            message, node, machine = ray.get(worker.ready_ref)
        except RayError as exc:
            raise ActorLostError(f"solver {key} failed to load: actor died ({exc})") from None
        if not isinstance(message, Ready):
            raise SolverLoadError(f"solver {key} failed to load: {message.reason}")
        worker.ready, worker.report = True, message.report
        self._nodes[node] = machine

    def preload(self, jobs: list[Job]) -> dict[str, Worker]:
        """One loaded worker per job. A worker whose actor dies while loading (its node
        went away, say) is started again, up to ``RETRIES`` times; a solver that reports it
        cannot load stops at once."""
        by_key = {job.key: job for job in jobs}
        for job in jobs:  # the driver's cache; a worker elsewhere builds its own as it loads
            prepare(job.entry)
        started = {key: self._start(job) for key, job in by_key.items()}
        try:
            for attempt in range(RETRIES + 1):
                waiting = {r.ready_ref: key for key, r in started.items() if not r.ready}
                if not waiting:
                    break
                done, _ = ray.wait(list(waiting), num_returns=len(waiting), timeout=LOAD_TIMEOUT_S)
                if len(done) < len(waiting):
                    late = ", ".join(waiting[r] for r in waiting if r not in done)
                    raise SolverLoadError(f"solver {late} did not load within {LOAD_TIMEOUT_S:g} s")
                for ref in done:
                    key = waiting[ref]
                    try:
                        self._loaded(started[key], key)
                    except ActorLostError:
                        if attempt == RETRIES:
                            raise
                        started[key].kill()
                        # a node that just died takes Ray some seconds to declare dead;
                        # until then it may be handed the replacement too
                        time.sleep(LOST_BACKOFF_S * (attempt + 1))
                        started[key] = self._start(by_key[key])
        except BaseException:
            self.stop(started)
            raise
        return started

    def stop(self, handles: dict[str, Worker]) -> None:
        for worker in handles.values():
            worker.kill()
        handles.clear()

    def nodes(self) -> dict[str, dict[str, Any]]:
        return dict(self._nodes)

    def close(self) -> None:
        if self.owns_ray and ray.is_initialized():
            ray.shutdown()

    def run(self, job: Job, tasks: list[Task], sink: Sink, first: Worker | None = None) -> None:
        pending = deque(tasks)
        tries: dict[tuple, int] = {}
        lost_loading = 0
        workers = [first] if first is not None else []
        workers += [self._start(job) for _ in range(min(job.workers, len(tasks)) - len(workers))]
        if first is not None and first.report is not None:
            sink.ready(first.report)

        def lose(i: int, head_status: Status | None, why: str, wall: float | None) -> None:
            """Replace worker ``i``; its running instance is recorded (``head_status``)
            or retried, and its queued ones go back to the front of the line."""
            worker = workers[i]
            queued = [task for task, _ in worker.queue]
            worker.kill()
            if queued:
                head, rest = queued[0], queued[1:]
                tries[head.key] = tries.get(head.key, 0) + 1
                if head_status is not None or tries[head.key] > RETRIES:
                    sink.failure(head, head_status or "error", why, wall)
                else:
                    rest = [head, *rest]
                pending.extendleft(reversed(rest))
            workers[i] = self._start(job)

        try:
            while pending or any(r.queue for r in workers):
                now = time.monotonic()
                for r in workers:
                    while r.ready and pending and len(r.queue) < CHUNK:
                        task = pending.popleft()
                        if not r.queue:
                            r.head_since = now
                        r.queue.append((task, r.actor.solve.remote(task)))
                watched = {r.ready_ref: i for i, r in enumerate(workers) if not r.ready}
                watched |= {r.queue[0][1]: i for i, r in enumerate(workers) if r.queue}
                done, _ = ray.wait(list(watched), num_returns=1, timeout=0.05)
                for ref in done:
                    i = watched[ref]
                    worker = workers[i]
                    if not worker.ready:
                        try:
                            self._loaded(worker, job.key)
                        except ActorLostError as exc:
                            lost_loading += 1  # its node died under it: start another
                            if lost_loading > RETRIES:
                                raise SolverLoadError(f"{exc} in a new worker") from None
                            worker.kill()
                            workers[i] = self._start(job)
                            continue
                        except SolverLoadError as exc:
                            raise SolverLoadError(f"{exc} in a new worker") from None
                        if worker.report is not None:
                            sink.ready(worker.report)
                        continue
                    try:
                        message = ray.get(ref)
                    except RayActorError as exc:
                        lose(i, None, f"actor died: {type(exc).__name__}", None)
                        continue
                    task, _ = worker.queue.popleft()
                    worker.head_since = time.monotonic()
                    sink.result(task, message)
                now = time.monotonic()
                for i, r in enumerate(workers):
                    if not r.ready and now - r.started > LOAD_TIMEOUT_S:
                        raise SolverLoadError(
                            f"solver {job.key} did not load in a new worker within "
                            f"{LOAD_TIMEOUT_S:g} s"
                        )
                    # under Ray the wall clock's cap acts here; a CPU limit, in the verdict
                    limit = job.budget.wall_cap()
                    if r.queue and limit is not None and now - r.head_since > kill_after(limit):
                        if ray.wait([r.queue[0][1]], timeout=0)[0]:
                            continue  # answered while another was verified: judged next
                        elapsed = now - r.head_since
                        why = f"killed after {elapsed:.1f} s (limit {limit} s)"
                        lose(i, "timeout", why, elapsed)
        finally:
            for r in workers:
                r.kill()
