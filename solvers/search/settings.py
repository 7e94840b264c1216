"""Setting names every learned solver shares, and one dispatch from settings to a search."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

import numpy as np

from cubebench.harness import (
    Attempt,
    Budget,
    Metric,
    Range,
    SettingsError,
    SolverSettings,
    move_set,
)
from cubebench.solvers.search.astar import astar
from cubebench.solvers.search.beam import beam_search
from cubebench.solvers.search.greedy import greedy_rollout
from cubebench.solvers.search.meet import MAX_RADIUS, meet_table
from cubebench.solvers.search.models import CheckedModel, Model, ModelClock, SearchLimits

# upper bounds: the widest beam the field reports (2^24, CayleyPy), batches a model call can
# hold, and paths no longer than the answers the harness replays
BEAM_WIDTH = Range(min=1, max=2**24)
BATCH = Range(min=1, max=2**22)
DEPTH = Range(min=1, max=1000)
WEIGHT = Range(min=0, max=100, open_min=True)


@dataclass(frozen=True)
class SearchSettings(SolverSettings):
    """Common names: subclasses narrow ``search`` to the ways their model can solve."""

    search: str = "beam"
    metric: Metric = "htm"
    beam_width: Annotated[int, BEAM_WIDTH] = 1024
    batch_size: Annotated[int, BATCH] = 8192
    weight: Annotated[float, WEIGHT] = 0.6
    astar_batch: Annotated[int, BATCH] = 1000
    max_depth: Annotated[int, DEPTH] = 40
    mitm_radius: Annotated[int, Range(min=0, max=max(MAX_RADIUS.values()))] = 0
    avoid_revisits: bool = True
    device: str = "cpu"
    threads: Annotated[int, Range(min=1, max=1024)] = 1

    OPTION_HELP: ClassVar = {
        "search": "greedy, beam or astar (what the model supports)",
        "metric": "htm (18 face turns) or qtm (12 quarter turns): the move set searched, and "
        "the checkpoint trained for it",
        "beam_width": "states kept per step of beam search",
        "batch_size": "states per model call (larger batches are chunked)",
        "weight": "lambda of batch-weighted A*: f = lambda * g + h",
        "astar_batch": "nodes expanded per A* iteration",
        "max_depth": "longest path searched",
        "mitm_radius": "meet in the middle: the search ends at the first state within this "
        "many moves of solved and finishes optimally by table (0: off; up to 6 htm, 7 qtm)",
        "avoid_revisits": "greedy rollout skips states it has visited",
        "device": "cpu or cuda",
        "threads": "torch/tf intra-op threads per worker",
        "precision": "auto (bf16 where the hardware has it natively), fp32, bf16 or int8",
    }

    def __post_init__(self) -> None:
        super().__post_init__()
        largest = MAX_RADIUS.get(self.metric, min(MAX_RADIUS.values()))
        if self.mitm_radius > largest:
            raise SettingsError(
                f"setting mitm_radius={self.mitm_radius} exceeds {largest}, the largest "
                f"{self.metric} table"
            )


def prepare_search(settings: SearchSettings) -> None:
    """What a search needs beyond the model, made at solver load: the meet-in-the-middle
    table (building it takes up to a minute, which must not count against a cube)."""
    if settings.mitm_radius:
        meet_table(settings.metric, settings.mitm_radius)


def run_search(
    state: np.ndarray,
    budget: Budget,
    settings: SearchSettings,
    policy: Model | None = None,
    value: Model | None = None,
    clock: ModelClock | None = None,
) -> Attempt:
    """Solve ``state`` with the search ``settings.search`` names, within ``budget``.

    ``clock``: the solver's :class:`ModelClock`, kept across instances so that even the
    first model call of a search is checked against the time left.
    """
    limits = SearchLimits.from_budget(budget, settings.max_depth)
    kind, fn = ("policy", policy) if policy is not None else ("value", value)
    if fn is None:
        raise ValueError("run_search needs a policy or a value model")
    model = CheckedModel(fn, kind, settings.batch_size, limits, clock)
    moves = move_set(settings.metric)
    meet = meet_table(settings.metric, settings.mitm_radius) if settings.mitm_radius else None
    if settings.search == "beam":
        result = beam_search(state, model, settings.beam_width, kind, moves, meet)
    elif settings.search == "greedy":
        result = greedy_rollout(state, model, kind, settings.avoid_revisits, moves, meet)
    elif settings.search == "astar":
        if kind != "value":
            raise ValueError("A* needs a value model")
        result = astar(state, model, settings.astar_batch, settings.weight, moves, meet)
    else:
        raise ValueError(f"unknown search {settings.search!r}")
    return Attempt(
        moves=result.moves or (),
        nodes_expanded=result.nodes_expanded,
        model_calls=result.model_calls,
        info={"search": settings.search, "metric": settings.metric, **result.info},
    )
