"""What defines a run: its entries (:class:`SolverSpec`) and its :class:`RunConfig`.

Both are stored in the run's manifest, so that ``bench run --resume`` rebuilds the run
exactly; :mod:`cubebench.harness.runner` executes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .executors import EXECUTORS, Job
from .registry import Resolved, resolve
from .solver import CLOCKS, DEFAULT_TIME_LIMIT_S, ArgumentError, Budget, check_limits
from .verify import MAX_ANSWER_MOVES


@dataclass(frozen=True)
class SolverSpec:
    """A solver and its settings; ``label`` tells apart two entries of one solver (a sweep).
    Records and the manifest key the entry by ``key``: the label, else the name.

    ``limit``: this entry attempts only the first ``limit`` instances of each suite (the
    run's own limit still applies), so one slow solver can share a broad run with fast ones;
    it is stored with the run, and reports count each entry's cubes.
    """

    name: str
    settings: dict[str, Any] = field(default_factory=dict)
    label: str = ""
    limit: int | None = None

    def __post_init__(self) -> None:
        limit = self.limit
        if limit is not None and (
            isinstance(limit, bool) or not isinstance(limit, int) or limit < 1
        ):
            raise ArgumentError(f"solver {self.key}: limit={limit!r}: must be a whole number ≥ 1")

    @property
    def key(self) -> str:
        return self.label or self.name


TIMINGS = ("shared", "alone")
"""How a run's times are taken: see :attr:`RunConfig.timing`."""


@dataclass(frozen=True)
class RunConfig:
    """Everything that defines a run; stored in the manifest so a run can be resumed.

    Attributes:
        time_limit: seconds per instance on ``clock``, enforced from outside the solver too.
        memory_limit_gb: a worker above this resident size is killed (``error``).
    """

    solvers: tuple[SolverSpec, ...]
    suites: tuple[str, ...]
    limit: int | None = None
    time_limit: float = DEFAULT_TIME_LIMIT_S
    # suite -> the first N instances of that suite (``--suite random-state-v1:20``), under
    # the run's ``limit``: equal budgets for a slow suite beside fast ones in one run
    suite_limits: dict[str, int] = field(default_factory=dict)
    # "shared": each entry's ``workers`` processes solve at once (on a machine's cores they
    # share); "alone": one worker at a time, the only process solving, for times to compare
    timing: str = "shared"
    max_nodes: int | None = None
    max_model_calls: int | None = None
    max_length: int | None = None
    workers: int = 1
    memory_limit_gb: float | None = 8.0
    out: str = ""  # the folder that holds the run folder; "": the user's (paths.runs_dir)
    seed: int = 0
    executor: str = "local"  # or "ray" (cubebench.harness.executors)
    address: str | None = None  # the Ray cluster's: "auto", "HOST:PORT"; none starts one
    # what time_limit counts: "cpu", the solver's CPU seconds (a loaded machine does not
    # change the answers), or "wall" (a GPU solver's work is not on the CPU); runs recorded
    # before the choice existed ran on the wall clock (from_dict)
    clock: str = "cpu"

    def __post_init__(self) -> None:
        if self.executor not in EXECUTORS:
            raise ArgumentError(f"executor {self.executor!r}: choose one of {', '.join(EXECUTORS)}")
        check_limits(
            self,
            positive=("time_limit", "memory_limit_gb"),
            counts=("limit", "workers", "max_nodes", "max_model_calls", "max_length"),
            flags=True,
        )
        if self.clock not in CLOCKS:
            raise ArgumentError(f"--budget {self.clock!r}: choose {' or '.join(CLOCKS)}")
        if self.timing not in TIMINGS:
            raise ArgumentError(f"--timing {self.timing!r}: choose one of {', '.join(TIMINGS)}")
        if self.timing == "alone" and self.workers != 1:
            raise ArgumentError(
                f"--timing alone --workers {self.workers}: alone means one worker solving"
            )
        for suite, n in self.suite_limits.items():
            if suite not in self.suites:
                raise ArgumentError(f"--suite {suite}:{n}: {suite} is not a suite of the run")
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                raise ArgumentError(f"--suite {suite}:{n!r}: give a whole number of cubes ≥ 1")
        if self.max_length is not None and self.max_length > MAX_ANSWER_MOVES:
            raise ArgumentError(
                f"--max-length {self.max_length}: at most {MAX_ANSWER_MOVES} moves (no cube "
                "needs more than 26; longer answers are not replayed)"
            )

    def limit_for(self, spec: SolverSpec | None, suite: str | None = None) -> int | None:
        """How many instances of ``suite`` the entry attempts (None: every one): the least
        of the run's limit, the entry's and the suite's."""
        own = spec.limit if spec is not None else None
        per_suite = self.suite_limits.get(suite) if suite is not None else None
        limits = [n for n in (self.limit, own, per_suite) if n is not None]
        return min(limits, default=None)

    @property
    def budget(self) -> Budget:
        return Budget(
            self.time_limit, self.max_nodes, self.max_model_calls, self.max_length, self.clock
        )

    def job(self, spec: SolverSpec, entry: Resolved, log: str = "") -> Job:
        """The entry's job: ``entry`` is its solver resolved once (:func:`resolve`);
        ``log``: where its workers' output goes (the run folder's)."""
        return Job(spec.key, entry, self.budget, self.memory_limit_gb, self.workers, log)

    def resolved(self) -> dict[str, Resolved]:
        """Every entry's solver looked up and its settings parsed, once, by key."""
        return {spec.key: resolve(spec.name, spec.settings) for spec in self.solvers}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunConfig:
        data = dict(data)
        data.setdefault("clock", "wall")  # a run from before CPU-time budgets
        data["solvers"] = tuple(SolverSpec(**s) for s in data["solvers"])
        data["suites"] = tuple(data["suites"])
        return cls(**data)
