"""Batch-weighted A* (DeepCubeA, seed 002): expand the ``batch`` best nodes by f = w*g + h.

Nodes are goal-tested when popped, so with ``weight = 1``, ``batch = 1`` and an admissible
value model the first solution is optimal. A closed set (state hash -> best g) drops
children already reached at equal or lower cost; stale heap entries are skipped. Every move
of the move set costs 1 (a quarter turn in QTM, any face turn in HTM). The bookkeeping runs
a batch at a time in compiled code (:mod:`cubebench.solvers.search.closed`).

With a meet-in-the-middle table (:mod:`cubebench.solvers.search.meet`) every child is looked
up as it is made, and the first batch that reaches the table ends the search at its child of
least ``g + table distance``, finished by the table's optimal path: the search then only has
to come within ``r`` moves of solved, where the value model is least needed and the table
exact. Only a child whose ``g + table distance`` fits ``max_depth`` ends it. The answer is no
longer guaranteed optimal for ``weight = 1`` (a shorter path through an unexpanded node may
exist); with DeepCubeA's weights it never was.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Annotated, ClassVar

import numpy as np

from ...harness import MOVE_SETS, DistanceOracle, MoveSet
from .closed import NodeStore
from .kinds import BATCH, WEIGHT, SearchKind, SearchOptions
from .meet import finish_from
from .models import BudgetExhaustedError, CheckedModel, SearchResult


def astar(
    state: np.ndarray,
    model: CheckedModel,
    batch: int = 1000,
    weight: float = 0.6,
    moves: MoveSet = MOVE_SETS["htm"],
    meet: DistanceOracle | None = None,
) -> SearchResult:
    """Search from ``state`` (S,) with a value ``model`` under ``model.limits``, ending where
    it touches ``meet``'s table when one is given."""
    start = np.asarray(state, np.uint8)
    if moves.is_solved(start):
        return SearchResult(moves=())
    info: dict = {"batch": batch, "weight": weight}
    if meet is not None:
        info["mitm_radius"] = meet.radius
        if (tail := finish_from(meet, start)) is not None:
            if len(tail) > model.limits.max_depth:  # the table is exact: none is as short
                return SearchResult(None, 0, 0, {**info, "gave_up": "max depth"})
            return SearchResult(tail, 0, 0, {**info, "met_at_depth": 0})
    nodes = NodeStore(start, int(moves.hash(start[:, None])[0]))
    heap = [(float(model(start[:, None])[0]), 0)]  # (f, node id): ties go to the older node
    try:
        while heap:
            popped = []
            while heap and len(popped) < batch:
                _, node = heapq.heappop(heap)
                if nodes.alive[node]:  # else a cheaper path to its state came later
                    popped.append(node)
            if not popped:
                break
            ids = np.array(popped)
            block = nodes.states[:, ids]  # (S, B)
            done = np.flatnonzero(moves.is_solved(block))
            if done.size:
                goal = int(ids[done[np.argmin(nodes.g[ids[done]])]])
                path = tuple(int(moves.moves[m]) for m in nodes.path(goal))
                return SearchResult(path, model.nodes, model.calls, info)
            ids = ids[nodes.g[ids] < model.limits.max_depth]
            if not ids.size:
                continue
            block = nodes.states[:, ids]
            model.spend_nodes(ids.size)
            n = ids.size
            children = moves.expand(block)  # (S, k n), child m * n + j
            allowed = np.flatnonzero(moves.allowed_after(nodes.move_in[ids]).T.reshape(-1))
            parents = ids[allowed % n]
            fresh = nodes.admit(
                children[:, allowed],
                moves.hash(children[:, allowed]),
                nodes.g[parents] + 1,
                parents,
                allowed // n,
            )
            if not fresh.size:
                continue
            longest = model.limits.max_depth
            if meet is not None and (met := _met(nodes, fresh, meet, moves, longest)) is not None:
                return SearchResult(met[0], model.nodes, model.calls, {**info, **met[1]})
            f = weight * nodes.g[fresh] + model(nodes.states[:, fresh[0] : fresh[-1] + 1])
            for item in zip(f.tolist(), fresh.tolist(), strict=True):
                heapq.heappush(heap, item)
    except BudgetExhaustedError as why:
        return SearchResult(None, model.nodes, model.calls, {**info, "gave_up": str(why)})
    gave_up = {**info, "gave_up": "search space exhausted"}
    return SearchResult(None, model.nodes, model.calls, gave_up)


def _met(
    nodes: NodeStore, fresh: np.ndarray, meet: DistanceOracle, moves: MoveSet, longest: int
) -> tuple[tuple[int, ...], dict] | None:
    """The whole answer through the child of ``fresh`` (node ids, ascending and contiguous)
    with the least ``g + table distance``, when any of them is in ``meet``'s table with a
    whole answer of at most ``longest`` moves."""
    table = meet.table_distance(nodes.states[:, fresh[0] : fresh[-1] + 1])  # (F,)
    inside = np.flatnonzero((table <= meet.radius) & (nodes.g[fresh] + table <= longest))
    if not inside.size:
        return None
    best = int(inside[np.argmin(nodes.g[fresh[inside]] + table[inside])])
    node = int(fresh[best])
    head = tuple(int(moves.moves[m]) for m in nodes.path(node))
    tail = meet.path_to_solved(nodes.states[:, node])
    return head + tuple(tail), {"met_at_depth": len(head)}


def _run(state, model, kind, settings, moves, meet) -> SearchResult:
    return astar(state, model, settings.astar_batch, settings.weight, moves, meet)


@dataclass(frozen=True)
class AStarOptions(SearchOptions):
    """Batch-weighted A*'s settings."""

    weight: Annotated[float, WEIGHT] = 0.6
    astar_batch: Annotated[int, BATCH] = 1000

    KIND: ClassVar[SearchKind] = SearchKind("astar", _run, ("value",))
    OPTION_HELP: ClassVar[dict[str, str]] = {
        "weight": "lambda of batch-weighted A*: f = lambda * g + h",
        "astar_batch": "nodes expanded per A* iteration",
    }
