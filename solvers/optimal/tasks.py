"""The deep bounds walked in an order learned from the bound before.

Iterative deepening spends most of a deep solve in its last bound, and that bound stops at
its first solution: the sooner the walk reaches the part of the tree that holds one, the less
of the bound it walks. The tree's top is cut into tasks, one per canonical sequence of
``DEPTH`` moves (43,254 in face turns, 10,011 in quarter turns), each walked on its own with
its prefix fixed (``only`` in :mod:`.ida`). A bound walked this way counts each task's nodes;
the next bound walks the tasks densest first, the nodes a task took divided by the canonical
sequences that go on from its prefix (a prefix ending in U has more than one ending in D).
A task whose subtree the bounds let the walk go deep into is one whose positions the tables
call near solved, so the solution is likelier there. nissy's H48 and vcube order their tasks
the same way.

Every task is walked to its end before a bound is called exhausted, so the tasks together
walk exactly the sequences the plain walk does: only the order within a bound changes, and
with it which of several optimal solutions comes first, never the length.
"""

from __future__ import annotations

from typing import Final

import numba
import numpy as np

from .ida import EXHAUSTED, PAUSED, _allowed, search

DEPTH: Final = 4
"""Moves a task's prefix fixes."""
AHEAD: Final = 3
"""Moves ahead counted for a prefix's weight: the canonical sequences of this length that
may follow it."""


@numba.njit(cache=True)
def _sequences(depth, moves, qtm, follow):  # pragma: no cover
    """(n, depth) int64: every canonical sequence of ``depth`` moves, in the walk's order."""
    path = np.zeros(depth + 1, np.int64)
    out = np.zeros((1, depth), np.int64)
    for level in range(depth):
        rows = np.zeros((out.shape[0] * moves.shape[0], depth), np.int64)
        n = 0
        for r in range(out.shape[0]):
            path[:level] = out[r, :level]
            for m in moves:
                if _allowed(path, level, m, qtm, follow):
                    rows[n, :level] = out[r, :level]
                    rows[n, level] = m
                    n += 1
        out = rows[:n].copy()
    return out


@numba.njit(cache=True)
def _follow_on(prefix, moves, qtm, follow, ahead):  # pragma: no cover
    """The canonical sequences of ``ahead`` moves that may follow ``prefix``."""
    depth = prefix.shape[0]
    path = np.zeros(depth + ahead + 1, np.int64)
    path[:depth] = prefix
    at = np.zeros(ahead + 1, np.int64)  # the next move's index at each level
    total = 0
    level = 0
    while level >= 0:
        if level == ahead:
            total += 1
            level -= 1
            continue
        if at[level] >= moves.shape[0]:
            at[level] = 0
            level -= 1
            continue
        m = moves[at[level]]
        at[level] += 1
        if _allowed(path, depth + level, m, qtm, follow):
            path[depth + level] = m
            level += 1
    return total


@numba.njit(cache=True)
def _weights(prefixes, moves, qtm, follow, ahead):  # pragma: no cover
    out = np.zeros(prefixes.shape[0], np.float64)
    for r in range(prefixes.shape[0]):
        out[r] = _follow_on(prefixes[r], moves, qtm, follow, ahead)
    return out


class Tasks:
    """A metric's tasks: their prefixes (n, depth) and weights (n,); the solver cuts at
    ``DEPTH``, a measurement may cut elsewhere."""

    def __init__(
        self, moves: np.ndarray, qtm: bool, follow: np.ndarray, depth: int = DEPTH
    ) -> None:
        self.prefixes = _sequences(depth, moves, qtm, follow)  # (n, depth)
        self.weights = _weights(self.prefixes, moves, qtm, follow, AHEAD)  # (n,)

    def order(self, nodes: np.ndarray | None) -> np.ndarray:
        """(n,) the tasks' order for a bound: densest first by ``nodes`` (n,), each task's
        nodes in the bound before, or the walk's own order without them."""
        if nodes is None:
            return np.arange(len(self.prefixes), dtype=np.int64)
        return np.argsort(-(nodes / self.weights), kind="stable").astype(np.int64)


# Without numba's reference counting, as the walk it calls (:func:`.ida.search`).
@numba.njit(cache=True, _nrt=False)
def search_tasks(
    bound,
    budget,
    order,
    prefixes,
    task_nodes,
    cursor,
    root,
    root_inv,
    root_pair,
    walk,
    next_kid,
    path,
    ptr,
    moves,
    qtm,
    follow,
    tables,
    inverse,
):  # pragma: no cover
    """Continue the walk of ``bound`` over the tasks ``prefixes[order]``; returns
    ``(status, nodes)`` as :func:`.ida.search` does, adding each task's nodes to
    ``task_nodes``. Start a bound with ``cursor[0] = 0`` and ``ptr[0] = -1``."""
    only = walk[11]
    depth = prefixes.shape[1]
    nodes = 0
    while cursor[0] < order.shape[0]:
        task = order[cursor[0]]
        if ptr[0] < 0:
            for d in range(depth):
                only[d] = prefixes[task, d]
        status, spent = search(
            bound,
            budget - nodes,
            root,
            root_inv,
            root_pair,
            walk,
            next_kid,
            path,
            ptr,
            moves,
            qtm,
            follow,
            tables,
            inverse,
        )
        nodes += spent
        task_nodes[task] += spent
        if status != EXHAUSTED:
            return status, nodes
        cursor[0] += 1
        ptr[0] = -1
        if nodes >= budget:
            return PAUSED, nodes
    for d in range(depth):
        only[d] = -1
    return EXHAUSTED, nodes
