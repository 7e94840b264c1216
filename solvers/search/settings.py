"""Setting names every learned solver shares, and one dispatch from settings to a search."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Annotated, ClassVar

import numpy as np

from ...harness import (
    NUM_SYMMETRIES,
    Attempt,
    Budget,
    Metric,
    Range,
    SettingsError,
    SolverSettings,
    move_set,
    puzzle,
    symmetric_values,
)
from ..patterns.bounds import corner_bound, prepare_corner_bound
from .astar import AStarOptions
from .beam import BeamOptions
from .greedy import GreedyOptions
from .kinds import BATCH, DEPTH, searches_of
from .meet import MAX_RADIUS, meet_table
from .models import (
    CheckedModel,
    Model,
    ModelClock,
    SearchLimits,
    SearchResult,
)
from .starts import (
    MAX_STARTS,
    STARTS,
    SYMMETRY_ORDER,
    map_back,
    start_state,
)

BOUND_WEIGHT = Range(min=0, max=100)
# what only the 3×3×3 has: its 48 symmetries, its corner table and meet-in-the-middle oracle
CUBE3_ONLY = ("mitm_radius", "starts", "value_symmetries", "value_bound")


# The searches every learned solver may run: one options class each, from its own module.
# A new search is its module and its options class here (kinds.py).
@dataclass(frozen=True)
class SearchSettings(BeamOptions, GreedyOptions, AStarOptions, SolverSettings):
    """Common names. A solver offers the searches whose model kind is its ``MODEL``
    (:meth:`supported_searches`) and any of its own (``OWN_SEARCHES``); ``search``'s
    default is the one it runs unasked."""

    search: str = "beam"
    metric: Metric = "htm"
    batch_size: Annotated[int, BATCH] = 8192
    max_depth: Annotated[int, DEPTH] = 40
    mitm_radius: Annotated[int, Range(min=0, max=max(MAX_RADIUS.values()))] = 0
    starts: Annotated[int, Range(min=1, max=MAX_STARTS)] = 1
    value_symmetries: Annotated[int, Range(min=1, max=NUM_SYMMETRIES)] = 1
    value_bound: Annotated[float, BOUND_WEIGHT] = 0.0
    device: str = "cpu"
    threads: Annotated[int, Range(min=1, max=1024)] = 1

    MODEL: ClassVar[str] = "value"  # what the solver searches with: "value" or "policy"
    PUZZLE: ClassVar[str] = "cube3"  # the puzzle its models know
    OWN_SEARCHES: ClassVar[tuple[str, ...]] = ()  # searches a solver runs itself (decoding)

    OPTION_HELP: ClassVar = {
        "search": "how the solver searches: one of the choices listed",
        "metric": "htm (18 face turns) or qtm (12 quarter turns): the move set searched, and "
        "the checkpoint trained for it",
        "batch_size": "states per model call (larger batches are chunked)",
        "max_depth": "longest path searched",
        "mitm_radius": "meet in the middle: the search ends at the first state within this "
        "many moves of solved and finishes optimally by table (0: off; up to 6 htm, 7 qtm)",
        "starts": "searches from this many equivalent starts (the cube, its inverse, their "
        "images under symmetries), each on an equal share of the time left and each for a "
        "path shorter than the best so far; the shortest answer is kept",
        "value_symmetries": "a value model's estimate averaged over this many symmetric "
        "images of each state (1: the state alone), at that many evaluations a state",
        "value_bound": "weight of the corner table's distance (of a state or its inverse, "
        "whichever is larger: a lower bound) added to a value model's estimate (0: off)",
        "device": "cpu or cuda",
        "threads": "torch/tf intra-op threads per worker",
        "precision": "auto (bf16 where the hardware has it natively), fp32, bf16 or int8",
    }

    @classmethod
    def supported_searches(cls) -> tuple[str, ...]:
        """The choices of this solver's ``search`` setting: its own, then every search
        that works with its model kind."""
        derived = [name for name, (kind, _) in searches_of(cls).items() if cls.MODEL in kind.models]
        return (*cls.OWN_SEARCHES, *derived)

    @classmethod
    def field_order(cls) -> list[str]:
        """``seed``, ``search``, then each search's own settings, then the rest."""
        own = [name for _, names in searches_of(cls).values() for name in names]
        rest = [n for n in super().field_order() if n not in own and n not in ("seed", "search")]
        return ["seed", "search", *own, *rest]

    @classmethod
    def choices(cls) -> dict[str, tuple[str, ...]]:
        return {**super().choices(), "search": cls.supported_searches()}

    @classmethod
    def inert(cls) -> frozenset[str]:
        """Settings that act on nothing for this solver: those of the searches it does not
        run, and averaging over symmetries for a policy."""
        kinds = searches_of(cls)
        every = {name for _, names in kinds.values() for name in names}
        used = {name for s in cls.supported_searches() if s in kinds for name in kinds[s][1]}
        idle = every - used
        if cls.MODEL != "value":
            idle.update(("value_symmetries", "value_bound"))
        if cls.PUZZLE != "cube3":  # symmetries, the tables and meet in the middle are 3×3×3's
            idle.update(CUBE3_ONLY)
        return frozenset(idle)

    def __post_init__(self) -> None:
        super().__post_init__()
        offered = self.supported_searches()
        if self.search not in offered:
            raise SettingsError(
                f"setting search={self.search!r}: choose one of {', '.join(offered)}"
            )
        if self.value_symmetries > 1 and self.MODEL != "value":
            raise SettingsError(
                f"setting value_symmetries={self.value_symmetries}: this solver searches "
                f"with a {self.MODEL}, and only a value is averaged over symmetries"
            )
        if self.value_bound > 0 and self.MODEL != "value":
            raise SettingsError(
                f"setting value_bound={self.value_bound}: this solver searches with a "
                f"{self.MODEL}, and only a value takes a bound"
            )
        largest = MAX_RADIUS.get(self.metric, min(MAX_RADIUS.values()))
        if self.mitm_radius > largest:
            raise SettingsError(
                f"setting mitm_radius={self.mitm_radius} exceeds {largest}, the largest "
                f"{self.metric} table"
            )


def prepare_search(settings: SearchSettings) -> None:
    """What a search needs beyond the model, made at solver load: the meet-in-the-middle
    table and the corner table (building them takes up to a minute, which must not count
    against a cube)."""
    if settings.mitm_radius:
        meet_table(settings.metric, settings.mitm_radius)
    if settings.value_bound > 0:
        prepare_corner_bound(settings.metric)


def run_search(
    state: np.ndarray,
    budget: Budget,
    settings: SearchSettings,
    policy: Model | None = None,
    value: Model | None = None,
    clock: ModelClock | None = None,
    ensemble: Sequence[Model] = (),
) -> Attempt:
    """Solve ``state`` with the search ``settings.search`` names, within ``budget``.

    ``clock``: the solver's :class:`ModelClock`, kept across instances so that even the
    first model call of a search is checked against the time left. With ``settings.starts``
    above 1 the search runs from that many starts (:mod:`cubebench.solvers.search.starts`)
    one after another, the time left split evenly over the starts still to run.
    ``ensemble``: further models of the same kind (CayleyPy's "multi-agent" search); each
    searches from every start after the first model has, on the same terms.
    """
    limits = SearchLimits.from_budget(budget, settings.max_depth)
    kind, fn = ("policy", policy) if policy is not None else ("value", value)
    if fn is None:
        raise ValueError("run_search needs a policy or a value model")
    offered = searches_of(type(settings))
    if settings.search not in offered:
        raise ValueError(f"unknown search {settings.search!r}; searches: {', '.join(offered)}")
    search = offered[settings.search][0]
    if settings.PUZZLE != "cube3":
        return _puzzle_search(state, kind, fn, limits, clock, settings)
    if kind not in search.models:
        raise ValueError(f"search {search.name} needs a {' or '.join(search.models)} model")
    if settings.value_symmetries > 1 and kind != "value":
        raise SettingsError(
            f"setting value_symmetries={settings.value_symmetries} needs a value model; "
            "this search runs a policy"
        )
    if settings.value_bound > 0 and kind != "value":
        raise SettingsError(
            f"setting value_bound={settings.value_bound} needs a value model; "
            "this search runs a policy"
        )
    fn = _bounded(_symmetrised(fn, settings), settings)
    fns = [fn, *(_bounded(_symmetrised(f, settings), settings) for f in ensemble)]
    if settings.starts == 1 and len(fns) == 1:
        model = CheckedModel(fn, kind, settings.batch_size, limits, clock)
        result = _search(state, model, kind, settings)
        return _attempt(result, settings, result.nodes_expanded, result.model_calls)
    agents = [(f, start) for f in fns for start in STARTS[: settings.starts]]
    best: SearchResult | None = None
    first: SearchResult | None = None
    nodes = calls = 0
    lengths: list[int | None] = []
    # what each search cost: how a run's time splits over its starts and members
    seconds: list[float] = []
    expanded: list[int] = []
    for i, (fn, start) in enumerate(agents):
        now = limits.now()
        share = dataclasses.replace(
            limits,
            deadline=now + (limits.deadline - now) / (len(agents) - i),
            max_nodes=_left(limits.max_nodes, nodes),
            max_model_calls=_left(limits.max_model_calls, calls),
            # a later start looks only for a shorter path
            max_depth=limits.max_depth if best is None else _shorter(best, settings.metric),
        )
        if share.max_depth < 1 or 0 in (share.max_nodes, share.max_model_calls):
            break
        model = CheckedModel(fn, kind, settings.batch_size, share, clock)
        result = _search(start_state(state, start), model, kind, settings)
        first = first or result
        nodes, calls = nodes + result.nodes_expanded, calls + result.model_calls
        lengths.append(None if result.moves is None else len(result.moves))
        seconds.append(round(limits.now() - now, 3))
        expanded.append(result.nodes_expanded)
        if result.moves is not None and (best is None or len(result.moves) < len(best.moves)):
            where = {"start": i % settings.starts, "member": i // settings.starts}
            best = SearchResult(map_back(result.moves, start), info={**result.info, **where})
    final = best or first or SearchResult(None)
    # per agent in search order: each model's starts, the first model's first
    per_start = {"start_lengths": lengths, "start_seconds": seconds, "start_nodes": expanded}
    return _attempt(final, settings, nodes, calls, per_start)


def _puzzle_search(
    state: np.ndarray,
    kind: str,
    fn: Model,
    limits: SearchLimits,
    clock: ModelClock | None,
    settings: SearchSettings,
) -> Attempt:
    """One search on another puzzle, from the cube turned whole so that the corner its move
    set never moves is home (the 2×2×2's DBL) and the model sees the states it trained on;
    the path found is read back in the cube's own frame, move for move, so its length and
    the budget's count are the search's."""
    moves = move_set(settings.metric, settings.PUZZLE)
    relabel, oriented = moves.orient(np.asarray(state, np.uint8))
    width = puzzle(settings.PUZZLE).num_moves
    model = CheckedModel(fn, kind, settings.batch_size, limits, clock, width)
    search = searches_of(type(settings))[settings.search][0]
    result = search.run(oriented, model, kind, settings, moves, None)
    if result.moves is not None and relabel is not None:
        result.moves = tuple(int(relabel[m]) for m in result.moves)
        result.info["turned"] = True
    return _attempt(result, settings, result.nodes_expanded, result.model_calls)


def _symmetrised(fn: Model, settings: SearchSettings) -> Model:
    """``fn`` averaged over ``settings.value_symmetries`` images of each state (a value)."""
    if settings.value_symmetries == 1:
        return fn
    return partial(symmetric_values, value=fn, ks=SYMMETRY_ORDER[: settings.value_symmetries])


def _bounded(fn: Model, settings: SearchSettings) -> Model:
    """``fn`` plus ``settings.value_bound`` times the corner table's bound of each state."""
    if settings.value_bound == 0:
        return fn
    weight, metric = np.float32(settings.value_bound), settings.metric

    def bounded(states: np.ndarray) -> np.ndarray:  # (54, N) -> (N,)
        return fn(states) + weight * corner_bound(states, metric)

    return bounded


def _shorter(best: SearchResult, metric: str) -> int:
    """The longest path shorter than ``best``'s that can solve the same cube. Every quarter
    turn is an odd permutation of the corners, so all of a cube's quarter-turn solutions
    share the parity of its corner permutation, and a shorter one is two moves shorter."""
    return len(best.moves or ()) - (2 if metric == "qtm" else 1)


def _left(limit: int | None, used: int) -> int | None:
    return None if limit is None else max(0, limit - used)


def _search(
    state: np.ndarray, model: CheckedModel, kind: str, settings: SearchSettings
) -> SearchResult:
    moves = move_set(settings.metric)
    meet = meet_table(settings.metric, settings.mitm_radius) if settings.mitm_radius else None
    search = searches_of(type(settings))[settings.search][0]
    return search.run(state, model, kind, settings, moves, meet)


def _attempt(
    result: SearchResult,
    settings: SearchSettings,
    nodes: int,
    calls: int,
    extra: dict | None = None,
) -> Attempt:
    return Attempt(
        moves=result.moves or (),
        nodes_expanded=nodes,
        model_calls=calls,
        info={"search": settings.search, "metric": settings.metric, **result.info, **(extra or {})},
    )
