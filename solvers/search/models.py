"""The two model kinds searches call, and what every search returns.

A **policy** maps an (S, N) uint8 batch (S stickers: 54 on the 3×3×3) to (N, P)
log-probabilities of the puzzle's P moves (18 on the 3×3×3); a **value** maps it to (N,)
estimated distances to solved. Either may run torch or tensorflow
inside. :class:`CheckedModel` wraps one: it chunks batches, counts calls, and turns a wrong
shape or a NaN into a clear :class:`SearchError` instead of a silently broken search.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from ...harness import Budget

Model = Callable[[np.ndarray], np.ndarray]


class SearchError(RuntimeError):
    """A model that broke its contract (shape, NaN) during a search."""


class BudgetExhaustedError(Exception):
    """Raised inside a search when a limit is reached; the search returns what it has."""


@dataclass(frozen=True)
class SearchLimits:
    """Limits of one search; from a harness :class:`Budget` plus a depth cap."""

    deadline: float = math.inf  # a now() value
    max_nodes: int | None = None
    max_model_calls: int | None = None
    max_depth: int = 40
    now: Callable[[], float] = time.monotonic  # the budget's clock: CPU seconds, or wall

    @classmethod
    def from_budget(cls, budget: Budget, max_depth: int, margin: float = 0.05) -> SearchLimits:
        # stop a little before the budget so the answer arrives in time, on its clock
        limit = budget.wall_seconds
        deadline = math.inf if limit is None else budget.now() + limit * (1 - margin)
        depth = max_depth if budget.max_length is None else min(max_depth, budget.max_length)
        return cls(deadline, budget.max_nodes, budget.max_model_calls, depth, budget.now)


@dataclass
class ModelClock:
    """How long the model takes per state, learnt from its own calls.

    A solver keeps one across instances so that, on any CPU, a chunk that would end past
    the deadline is never started: the search stops with what it has instead of
    overrunning its wall budget by a whole model call (seconds on a slow machine).

    Predicting too long would be worse than a small overrun (a search would give up early
    depending on the machine's load), so the estimate is the best recent rate, learnt only
    from calls big enough to measure throughput (``min_states``), skipping the first call
    (it pays for tracing and kernel selection). Until then nothing is predicted.
    """

    min_states: int = 256
    safety: float = 1.5  # predictions are this much pessimistic
    window: int = 8  # recent rates kept
    calls_seen: int = 0
    rates: list[float] = field(default_factory=list)

    def observe(self, states: int, seconds: float) -> None:
        self.calls_seen += 1
        if self.calls_seen == 1 or states < self.min_states:
            return
        self.rates = [*self.rates[-(self.window - 1) :], seconds / states]

    def predict(self, states: int) -> float:
        """Pessimistic seconds for a call on ``states`` states (0 while unknown)."""
        return self.safety * states * min(self.rates) if self.rates else 0.0


@dataclass
class SearchResult:
    moves: tuple[int, ...] | None  # None: not found
    nodes_expanded: int = 0
    model_calls: int = 0
    info: dict[str, Any] = field(default_factory=dict)


class CheckedModel:
    """Chunking, counting, contract-checking wrapper around a policy or value model."""

    def __init__(
        self,
        fn: Model,
        kind: Literal["policy", "value"],
        batch_size: int = 8192,
        limits: SearchLimits | None = None,
        clock: ModelClock | None = None,
        width: int = 18,
    ) -> None:
        self.fn, self.kind, self.batch_size, self.width = fn, kind, batch_size, width
        self.limits = limits or SearchLimits()
        self.clock = clock or ModelClock()
        self.calls = 0
        self.nodes = 0

    def spend_nodes(self, count: int) -> None:
        self.nodes += count
        if self.limits.max_nodes is not None and self.nodes > self.limits.max_nodes:
            raise BudgetExhaustedError("nodes")
        if self.limits.now() > self.limits.deadline:
            raise BudgetExhaustedError("time")

    def __call__(self, states: np.ndarray) -> np.ndarray:
        n = states.shape[1]
        outs = []
        for start in range(0, n, self.batch_size):
            if (
                self.limits.max_model_calls is not None
                and self.calls >= self.limits.max_model_calls
            ):
                raise BudgetExhaustedError("model calls")
            chunk = states[:, start : start + self.batch_size]
            began = self.limits.now()
            # per chunk, before it starts: a chunk predicted to end past the deadline is
            # never begun (a slow model's step can take several chunks)
            if began + self.clock.predict(chunk.shape[1]) > self.limits.deadline:
                raise BudgetExhaustedError("time")
            out = np.asarray(self.fn(chunk), dtype=np.float32)
            self.clock.observe(chunk.shape[1], self.limits.now() - began)
            self.calls += 1
            expected = (chunk.shape[1], self.width) if self.kind == "policy" else (chunk.shape[1],)
            if out.shape != expected:
                raise SearchError(
                    f"{self.kind} model returned shape {out.shape} for "
                    f"{chunk.shape[1]} states; expected {expected}"
                )
            if not np.isfinite(out).all() and (self.kind == "value" or np.isnan(out).any()):
                bad = int((~np.isfinite(out)).reshape(len(out), -1).any(axis=1).sum())
                raise SearchError(f"{self.kind} model returned NaN or inf for {bad} states")
            outs.append(out)
        if self.limits.now() > self.limits.deadline:
            raise BudgetExhaustedError("time")
        return (
            np.concatenate(outs)
            if outs
            else np.zeros((0, self.width) if self.kind == "policy" else 0, np.float32)
        )
