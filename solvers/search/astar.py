"""Batch-weighted A* (DeepCubeA, seed 002): expand the ``batch`` best nodes by f = w*g + h.

Nodes are goal-tested when popped, so with ``weight = 1``, ``batch = 1`` and an admissible
value model the first solution is optimal. A closed set (state hash -> best g) drops
children already reached at equal or lower cost; stale heap entries are skipped. Every move
of the move set costs 1 (a quarter turn in QTM, any face turn in HTM).
"""

from __future__ import annotations

import heapq

import numpy as np

from cubebench.harness import MOVE_SETS, MoveSet, is_solved, state_hash
from cubebench.solvers.search.models import BudgetExhaustedError, CheckedModel, SearchResult


def astar(
    state: np.ndarray,
    model: CheckedModel,
    batch: int = 1000,
    weight: float = 0.6,
    moves: MoveSet = MOVE_SETS["htm"],
) -> SearchResult:
    """Search from ``state`` (54,) with a value ``model`` under ``model.limits``."""
    start = np.asarray(state, np.uint8)
    if is_solved(start):
        return SearchResult(moves=())
    states = [start]  # node id -> (54,) state
    g_cost = [0]
    parent = [-1]
    move_in = [-1]  # local move into each node
    node_hash = [int(state_hash(start[:, None])[0])]
    best_g = {node_hash[0]: 0}
    heap = [(float(model(start[:, None])[0]), 0, 0)]  # (f, tie-break, node id)
    counter = 1
    try:
        while heap:
            popped = []
            while heap and len(popped) < batch:
                _, _, node = heapq.heappop(heap)
                if best_g.get(node_hash[node], -1) == g_cost[node]:
                    popped.append(node)
            if not popped:
                break
            block = np.stack([states[i] for i in popped], axis=1)  # (54, B)
            done = np.flatnonzero(is_solved(block))
            if done.size:
                goal = min((popped[i] for i in done), key=lambda i: g_cost[i])
                return SearchResult(
                    tuple(int(moves.moves[m]) for m in _path(goal, parent, move_in)),
                    model.nodes,
                    model.calls,
                    {"batch": batch, "weight": weight},
                )
            if max(g_cost[i] for i in popped) >= model.limits.max_depth:
                popped = [i for i in popped if g_cost[i] < model.limits.max_depth]
                if not popped:
                    continue
                block = np.stack([states[i] for i in popped], axis=1)
            model.spend_nodes(len(popped))
            n = len(popped)
            children = moves.expand(block)  # (54, k n), child m * n + j
            allowed = moves.allowed_after(np.array([move_in[i] for i in popped])).T.reshape(-1)
            hashes = state_hash(children)
            fresh = []
            for c in np.flatnonzero(allowed):
                g = g_cost[popped[c % n]] + 1
                h = int(hashes[c])
                if best_g.get(h, g + 1) > g:
                    best_g[h] = g
                    fresh.append(c)
            if not fresh:
                continue
            fresh_arr = np.array(fresh)
            h_values = model(children[:, fresh_arr])
            for c, h_value in zip(fresh_arr.tolist(), h_values.tolist(), strict=True):
                node_parent = popped[c % n]
                states.append(children[:, c].copy())
                node_hash.append(int(hashes[c]))
                g_cost.append(g_cost[node_parent] + 1)
                parent.append(node_parent)
                move_in.append(c // n)
                heapq.heappush(heap, (weight * g_cost[-1] + h_value, counter, len(states) - 1))
                counter += 1
    except BudgetExhaustedError as why:
        return SearchResult(None, model.nodes, model.calls, {"gave_up": str(why)})
    return SearchResult(None, model.nodes, model.calls, {"gave_up": "search space exhausted"})


def _path(node: int, parent: list[int], move_in: list[int]) -> tuple[int, ...]:
    path = []
    while parent[node] != -1:
        path.append(move_in[node])
        node = parent[node]
    return tuple(reversed(path))
