"""``optimal``: the shortest solution by proof, in face turns or quarter turns.

Iterative-deepening A* (:mod:`.ida`) raises its cost bound one step at a time (two in quarter
turns, where every state's distance has the parity of its corner permutation) and walks every
canonical sequence of that length the lower bounds allow. The first bound with a solution is
the optimum: every shorter bound was walked to its end. A search stopped by its budget
answers nothing and reports the largest bound it exhausted, so no answer claims more than
was proved.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, ClassVar, Literal

import numpy as np

from ...harness import (
    CANONICAL_FOLLOW,
    SOLVED,
    Attempt,
    Budget,
    Range,
    SettingsError,
    SolverSettings,
    apply_sequence,
    conjugate,
    format_moves,
    invert_states,
    is_solved,
    length_qtm,
    reduce_moves,
)
from ..patterns import dense
from ..patterns.coords import (
    AXIS_MOVES,
    AXIS_SYMMETRIES,
    axis_coordinates,
    corner_index,
    corner_parity,
    cperm_parity,
    inverse_cubies,
    move_tables,
    premove_table,
    sorted_lookup,
)
from ..patterns.flipslice import conjugation_tables, packed
from ..patterns.tables import Progress, ensure, load, metric_moves, verify
from . import ida, lookups
from .tasks import DEPTH, Tasks, search_tasks

CHUNK_NODES = 1 << 21
"""Nodes between two looks at the clock, at most (a quarter to half a second)."""
FIRST_CHUNK_NODES = 1 << 15
"""A timed search's first chunk: the walk's speed is not known before it."""
LAST_CHUNK_NODES = 1 << 12
"""The fewest nodes a chunk walks (a millisecond or so)."""

TASK_NODES = 1 << 17
"""A bound after one of at least this many nodes is walked as tasks (:mod:`.tasks`): below
it, a bound costs too little for the order to matter, and a task's fixed prefix is walked
again for each task."""


def next_chunk(rate: float, left: float) -> int:
    """Nodes to walk before the next look at the clock: at most half of those the walk
    does in the ``left`` seconds to the deadline at the ``rate`` (nodes a second) of its
    chunks so far, so a search stops within a few milliseconds of its deadline, however
    slow its tables or busy its core, where a fixed chunk of the large tables' size would
    overrun a short budget by the half second it takes on the small ones."""
    if left == float("inf"):
        return CHUNK_NODES
    if rate <= 0.0:
        return FIRST_CHUNK_NODES
    return int(min(CHUNK_NODES, max(LAST_CHUNK_NODES, rate * max(left, 0.0) / 2)))


@dataclass(frozen=True)
class OptimalSettings(SolverSettings):
    metric: Literal["htm", "qtm"] = "htm"
    tables: Literal["small", "large", "xlarge", "dense"] = "large"
    max_length: Annotated[int, Range(min=1, max=30)] = 26

    OPTION_HELP: ClassVar = {
        "metric": "the metric the answer is shortest in: face turns (htm) or quarter turns (qtm)",
        "tables": "lower-bound tables: small (2 MB, for shallow cubes), large (1.75 GB a "
        "metric), xlarge (3.4 GB, face turns only) or dense (2.6 GB a metric, fastest), "
        "built once into $CUBEBENCH_HOME/cache/optimal",
        "max_length": "give up rather than search bounds longer than this (in the metric)",
    }

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.tables == "xlarge" and self.metric == "qtm":
            # every quarter turn changes the parity, so a quarter-turn search knows it already
            raise SettingsError(
                "setting tables='xlarge' is for metric='htm': in quarter turns a state's "
                "distance already has its corner parity; use tables='large'"
            )


class OptimalSolver:
    """IDA* with pattern-database lower bounds; every answer is optimal by proof."""

    Settings = OptimalSettings

    def __init__(
        self,
        settings: OptimalSettings | None = None,
        progress: Progress | None = None,
        folder: Path | None = None,
    ) -> None:
        """Load (building the first time) the tables; ``folder`` overrides where they live."""
        self.settings = settings or OptimalSettings()
        self.name = "optimal"
        self.version = "1"
        s = self.settings
        mv = move_tables()
        # 16-bit move and conjugation tables: every value fits, and half the bytes keep more
        # of them in the cache beside the walk's other reads
        moving = (
            *(mv[k].astype(np.uint16) for k in ("twist", "flip", "sorted", "cperm")),
            AXIS_MOVES,
        )
        loaded = tuple(np.asarray(t) for t in load(s.tables, s.metric, folder, progress))
        empty = np.zeros(1, np.uint8)
        edge = dense.edges()
        conj = (
            *(t.astype(np.uint16) for t in (edge.flip_conj, edge.slice_conj, edge.mask)),
            _csep_moves(),
            dense.BASE[s.metric],
        )
        if s.tables == "small":
            none = (empty, np.zeros(1, np.uint32), np.zeros((1, 16), np.int32))
            reads = (lookups.SMALL, *loaded, empty, *none)  # no corner table
        elif s.tables == "dense":
            table, corners, twist_slice, flip_slice = loaded
            words = dense.corners().words
            twist = conjugation_tables().twist
            reads = (lookups.DENSE, twist_slice, flip_slice, corners, table, words, twist)
        else:
            x24, corners = loaded
            mode = lookups.XLARGE if s.tables == "xlarge" else lookups.LARGE
            reads = (mode, empty, empty, corners, x24, packed(), conjugation_tables().twist)
        self._tables = (*moving, *reads, cperm_parity(), _move_axis(), *conj)
        self._inverse = (premove_table(), *sorted_lookup(), dense.csep_lookup())
        self._moves = metric_moves(s.metric).astype(np.int64)
        self._qtm = s.metric == "qtm"
        self._follow = np.ascontiguousarray(CANONICAL_FOLLOW)
        self._tasks = Tasks(self._moves, self._qtm, self._follow)
        self.solve(np.asarray(apply_sequence(SOLVED, [0]), np.uint8), Budget())  # compile

    @classmethod
    def prepare(cls, settings: OptimalSettings) -> None:
        """Build the tables the first time, before any worker loads: a large build takes
        minutes, which a load should not (the runner gives a load 5 minutes)."""
        ensure(settings.tables, settings.metric)
        verify(settings.tables, settings.metric)  # a damaged file: one line, here

    def _walk(
        self,
        bound: int,
        budget: int,
        root: tuple[np.ndarray, ...],
        walk: tuple,
        tasks: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
    ) -> tuple[int, int]:
        """Continue the walk of ``bound``, as :mod:`.tasks` has it with ``tasks`` (the
        order, each task's nodes so far and the cursor)."""
        args = (self._moves, self._qtm, self._follow, self._tables, self._inverse)
        if tasks is None:
            return ida.search(bound, budget, *root, *walk, *args)
        prefixes = self._tasks.prefixes
        return search_tasks(bound, budget, tasks[0], prefixes, *tasks[1:], *root, *walk, *args)

    def lower_bound(self, cube: np.ndarray, inverse: bool = True) -> int:
        """The tables' bound on ``cube``'s distance, with ``inverse`` the larger of the cube's
        own and its inverse's (0 only for states the tables call solved)."""
        cubes = [cube]
        if inverse:
            cubes.append(invert_states(np.asarray(cube).reshape(54, 1))[:, 0])
        return max(int(lookups.heuristic(self._root(c)[0], self._tables)) for c in cubes)

    def _root(self, cube: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The walk's root: the cube's coordinates row (:mod:`.ida`), its inverse's (3, 40)
        cubie rows and the (3,) table values of those (:func:`.lookups.inverse_pairs`)."""
        row = np.empty(ida.ROW, np.int64)
        row[:9] = axis_coordinates(cube).ravel()
        row[9] = corner_index(cube) // 2187
        images = [conjugate(cube, k).reshape(54, 1) for k in AXIS_SYMMETRIES]
        row[10:] = [dense.corner_of(image)[0] // 2187 for image in images]  # csep
        rows = inverse_cubies(np.asarray(cube))
        return row, rows, lookups.inverse_pairs(rows, self._inverse, self._tables)

    def solve(
        self,
        cube: np.ndarray,
        budget: Budget,
        known: Sequence[int] | None = None,
        proved: int = 0,
    ) -> Attempt:
        """The optimum of ``cube``, proved within ``budget``.

        Args:
            cube: (54,) the state.
            budget: wall clock, nodes and length.
            known: a solution of ``cube`` already at hand (a suite's scramble, inverted),
                which bounds the optimum from above: once every shorter bound is searched to
                its end without a solution, it is the optimum, and the search of its own
                length (most of a solve when it is optimal) is skipped.
            proved: a lower bound an earlier search of ``cube`` proved (every shorter bound
                walked to its end; a suite's ``optimal_<metric>_min``): the search starts
                there instead of walking those bounds again. The answer's proof then rests
                on that earlier search as well, and says so.

        Raises:
            ValueError: ``known`` does not solve ``cube``.
        """
        metric = self.settings.metric
        if is_solved(cube):
            return Attempt(
                moves=(), info={"metric": metric, "optimal": True, f"optimal_{metric}": 0}
            )
        start = budget.now()
        deadline = budget.deadline(start)
        limit = self.settings.max_length
        if budget.max_length is not None and not self._qtm:
            limit = min(limit, budget.max_length)
        shortest: list[int] | None = None
        if known is not None:
            if not is_solved(apply_sequence(cube, list(known))):
                raise ValueError(f"known={format_moves(known)!r}: does not solve the cube")
            shortest = reduce_moves(known)
            length = length_qtm(shortest) if self._qtm else len(shortest)
            if length <= limit:
                limit = length - (2 if self._qtm else 1)  # its parity is the optimum's
            else:
                shortest = None
        bound = max(self.lower_bound(cube), proved)
        if self._qtm and bound % 2 != corner_parity(cube):
            bound += 1
        walk, root = ida.new_walk(limit + 1), self._root(cube)
        nodes, step = 0, 2 if self._qtm else 1
        last, counts = 0, None  # the bound before: its nodes, and its tasks' (when tasks)
        rate = 0.0  # nodes a second of the budget's clock, over the chunks walked so far
        while bound <= limit:
            walk[3][0] = -1
            plan = None
            if last >= TASK_NODES and bound > DEPTH:
                order = self._tasks.order(counts)
                counts = np.zeros(len(order), np.int64)
                plan = (order, counts, np.zeros(1, np.int64))
            else:
                counts = None
            before = nodes
            while True:
                chunk = next_chunk(rate, deadline - budget.now())
                if budget.max_nodes is not None:
                    chunk = min(chunk, budget.max_nodes - nodes)
                if plan is None:
                    status, spent = self._walk(bound, chunk, root, walk)
                else:
                    status, spent = self._walk(bound, chunk, root, walk, plan)
                nodes += spent
                elapsed = budget.now() - start
                if elapsed > 0:
                    rate = nodes / elapsed
                if status == ida.EXHAUSTED:
                    break
                if status == ida.CANDIDATE:
                    path = [int(m) for m in walk[2][:bound]]
                    if is_solved(apply_sequence(cube, path)):
                        took = budget.now() - start
                        return self._answer(path, nodes, bound, took, _proof(proved))
                # a chunk's end or a false candidate (the tables do not see every piece):
                # the budget is checked either way, or a run of candidates would outlast it
                if budget.max_nodes is not None and nodes >= budget.max_nodes:
                    return self._gave_up(nodes, bound, "nodes")
                if budget.now() > deadline:  # "time": the record says timeout
                    return self._gave_up(nodes, bound, "time")
            last = nodes - before
            bound += step
        if shortest is not None:
            proof = f"{_proof(proved)}; a known solution is this long"
            return self._answer(shortest, nodes, limit + step, budget.now() - start, proof)
        return self._gave_up(nodes, bound, f"max_length={limit}")

    def _answer(
        self,
        path: list[int],
        nodes: int,
        length: int,
        seconds: float,
        proof: str,
    ) -> Attempt:
        return Attempt(
            moves=tuple(_merge_quarter_pairs(path)),
            nodes_expanded=nodes,
            info={
                "metric": self.settings.metric,
                "optimal": True,
                f"optimal_{self.settings.metric}": length,
                "proof": proof,
                "tables": self.settings.tables,
                "search_s": round(seconds, 3),
            },
        )

    def _gave_up(self, nodes: int, bound: int, why: str) -> Attempt:
        return Attempt(
            moves=(),
            nodes_expanded=nodes,
            info={
                "gave_up": f"{why}: no solution shorter than {bound} {self.settings.metric}",
                "metric": self.settings.metric,
                f"optimal_{self.settings.metric}_min": bound,
            },
        )


def _move_axis() -> np.ndarray:
    """(18,) int64: the axis (0 U-D, 1 R-L, 2 F-B of :data:`AXIS_MOVES`) a move turns: the
    axis on whose image it is a U or D turn, so it keeps that axis's subgroup."""
    return np.argmax(np.isin(AXIS_MOVES // 3, (0, 3)), axis=0).astype(np.int64)


def _csep_moves() -> np.ndarray:
    """(70, 18) int32: the move table of ``csep`` (:mod:`..patterns.dense`), read off the
    corner coordinate's (``csep * 2187 + twist``)."""
    move = dense.corners().move
    return np.ascontiguousarray(move[np.arange(dense.N_CSEP) * 2187] // 2187).astype(np.int32)


def _proof(proved: int) -> str:
    """Why the answer is optimal, naming an earlier search's share of the proof."""
    if proved:
        return f"bounds below {proved} searched by an earlier attempt, every later one to its end"
    return "every shorter bound searched to its end"


def _merge_quarter_pairs(path: list[int]) -> list[int]:
    """``U U`` (two quarter turns, as a quarter-turn search spells a half turn) -> ``U2``."""
    out: list[int] = []
    for m in path:
        if out and out[-1] == m and m % 3 != 1:
            out[-1] = 3 * (m // 3) + 1
        else:
            out.append(m)
    return out
