"""Exact optimal distances for shallow states, by meeting in the middle, in either metric.

A table holds every state within ``radius`` moves of solved with its distance (built once by
breadth-first search, cached on disk). For a query state ``s`` the oracle walks canonical
sequences outward from ``s`` level by level; the first level ``k`` at which some state lies
in the table gives the exact distance ``k + t`` (``t`` = that state's table distance, which
is then ``radius`` unless ``s`` itself is in the table). If no level up to ``max_levels``
meets the table, the distance exceeds ``radius + max_levels``, which becomes a lower bound.

Proof sketch of exactness: if ``d(s) = D > radius``, the state ``D - radius`` moves along an
optimal path is in the table, so level ``D - radius`` meets it; any earlier meeting at level
``k`` would give a path of length ``k + t <= k + radius < D``.

The table is indexed by a 64-bit hash for speed, and every hit is confirmed against the
exact two-word key, so a match is never a hash collision (the build refuses a table in which
two states share a hash, which keeps the index unambiguous). The same holds in the
quarter-turn metric, over its 12 moves and its own canonical pruning (``metric="qtm"``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..cube import state_keys
from ..cube.engine import SOLVED, mix_keys
from ..cube.movesets import MoveSet, move_set

# Number of states at each exact distance from solved, known results (HTM: OEIS A080601,
# QTM: A080602); the table build checks itself against them.
STATES_AT_DISTANCE = (1, 18, 243, 3240, 43239, 574908, 7618438)
QTM_STATES_AT_DISTANCE = (1, 12, 114, 1068, 10011, 93840, 878880, 8221632)
_COUNTS = {"htm": STATES_AT_DISTANCE, "qtm": QTM_STATES_AT_DISTANCE}


_BIT = (1 << np.arange(8)).astype(np.uint8)


def _bitmap_bits(entries: int) -> int:
    """log2 of the bitmap's size: about 32 bits an entry (a false pass in 32 for an absent
    state), 2^16 to 2^28 bits (8 KB to 32 MB)."""
    return min(max(int(entries * 32).bit_length(), 16), 28)


def _combined(keys: np.ndarray) -> np.ndarray:
    """(N, 2) uint64 keys -> (N,) structured view usable by sort/searchsorted/unique."""
    return np.ascontiguousarray(keys).view([("a", np.uint64), ("b", np.uint64)]).ravel()


class DistanceOracle:
    """Exact distances in ``metric`` up to ``radius + max_levels`` moves."""

    def __init__(
        self, keys: np.ndarray, distances: np.ndarray, radius: int, metric: str = "htm"
    ) -> None:
        hashes = mix_keys(keys)
        order = np.argsort(hashes)
        self._hashes = hashes[order]  # (M,) sorted uint64
        if (self._hashes[1:] == self._hashes[:-1]).any():
            raise RuntimeError("two table states share a 64-bit hash; change the mixing")
        self._keys = np.ascontiguousarray(keys[order])  # (M, 2) exact keys
        self._distances = distances[order]  # (M,) uint8
        self.radius = radius
        self.moves: MoveSet = move_set(metric)
        # a bitmap over the top bits of the hashes: most queries (a search's children, far
        # from solved) are absent, and one bit read rules them out before a binary search
        self._shift = np.uint64(64 - _bitmap_bits(self._hashes.size))
        self._bitmap = np.zeros(1 << (64 - int(self._shift) - 3), np.uint8)
        top = self._hashes >> self._shift
        np.bitwise_or.at(self._bitmap, top >> np.uint64(3), _BIT[top & np.uint64(7)])

    @classmethod
    def build(
        cls, radius: int, progress: Callable[[str], None] | None = None, metric: str = "htm"
    ) -> DistanceOracle:
        """Breadth-first search of every state within ``radius`` moves of solved."""
        moves, counts = move_set(metric), _COUNTS[metric]
        if not 0 <= radius < len(counts):
            raise ValueError(f"radius must be 0..{len(counts) - 1}, got {radius}")
        frontier = SOLVED[:, None].copy()
        last_move = np.full(1, -1)
        seen = _combined(state_keys(frontier))
        all_keys = [state_keys(frontier)]
        all_dist = [np.zeros(1, np.uint8)]
        for depth in range(1, radius + 1):
            start = time.perf_counter()
            children, child_last = _canonical_children(frontier, last_move, moves)
            keys = state_keys(children)
            combined = _combined(keys)
            _, first = np.unique(combined, return_index=True)
            first = first[~_member(combined[first], seen)]
            frontier, last_move = children[:, first], child_last[first]
            all_keys.append(keys[first])
            all_dist.append(np.full(first.size, depth, np.uint8))
            seen = np.sort(np.concatenate([seen, combined[first]]))
            if first.size != counts[depth]:
                raise RuntimeError(
                    f"{metric} distance {depth}: found {first.size} states, expected "
                    f"{counts[depth]}; the move tables are wrong"
                )
            if progress:
                progress(
                    f"distance {depth}: {first.size:,} states ({time.perf_counter() - start:.1f} s)"
                )
        return cls(np.concatenate(all_keys), np.concatenate(all_dist), radius, metric)

    @classmethod
    def cached(
        cls,
        radius: int,
        cache_dir: Path,
        progress: Callable[[str], None] | None = None,
        metric: str = "htm",
    ):
        """Load the table from ``cache_dir`` or build and save it there."""
        stem = (
            f"distance-table-r{radius}" if metric == "htm" else f"distance-table-{metric}-r{radius}"
        )
        path = cache_dir / f"{stem}.npz"
        if path.exists():
            with np.load(path, allow_pickle=False) as data:
                keys, dist = data["keys"], data["distances"]
            if dist.size == sum(_COUNTS[metric][: radius + 1]):
                return cls(keys, dist, radius, metric)
        oracle = cls.build(radius, progress, metric)
        cache_dir.mkdir(parents=True, exist_ok=True)
        np.savez(path, keys=oracle._keys, distances=oracle._distances)
        return oracle

    def __len__(self) -> int:
        return self._hashes.size

    def _lookup(self, keys: np.ndarray) -> np.ndarray:
        """(N, 2) keys -> (N,) table distance, 255 where absent."""
        hashes = mix_keys(keys)
        top = hashes >> self._shift
        maybe = np.flatnonzero(self._bitmap[top >> np.uint64(3)] & _BIT[top & np.uint64(7)])
        result = np.full(hashes.size, 255, np.uint8)
        if not maybe.size:
            return result
        hashes, keys = hashes[maybe], keys[maybe]
        order = np.argsort(hashes)  # sorted queries make the binary searches cache-friendly
        pos = np.empty_like(order)
        pos[order] = np.searchsorted(self._hashes, hashes[order])
        pos = pos.clip(max=self._hashes.size - 1)
        found = (self._keys[pos] == keys).all(axis=1)
        result[maybe] = np.where(found, self._distances[pos], 255)
        return result

    def table_distance(self, states: np.ndarray) -> np.ndarray:
        """(54, N) -> (N,) exact distance for states in the table, ``radius + 1`` otherwise.

        An admissible heuristic (never above the true distance), vectorized: search tests use
        it as a perfect value model for shallow cubes.
        """
        found = self._lookup(state_keys(states.reshape(states.shape[0], -1))).astype(np.int64)
        return np.where(found == 255, self.radius + 1, found)

    def path_to_solved(self, state: np.ndarray) -> tuple[int, ...]:
        """An optimal solution of a state in the table, as move ids into the 18.

        Each step takes a move to a neighbour one closer by the table, which exists because
        the table holds every state within ``radius``: the path is as long as the distance.
        Meet-in-the-middle searches finish with it once their frontier touches the table.
        """
        current = np.asarray(state, np.uint8).reshape(-1, 1)  # (54, 1)
        left = int(self.table_distance(current)[0])
        if left > self.radius:
            raise ValueError(f"state is {left} or more moves from solved, beyond the table")
        path: list[int] = []
        while left:
            children = self.moves.expand(current)  # (54, k): child m is local move m
            closer = int(np.flatnonzero(self.table_distance(children) == left - 1)[0])
            path.append(int(self.moves.moves[closer]))
            current, left = children[:, closer : closer + 1], left - 1
        return tuple(path)

    def distances(self, states: np.ndarray, max_levels: int) -> tuple[np.ndarray, np.ndarray]:
        """Exact distance of each state, or a lower bound where it is too far.

        Args:
            states: (54, N) batch.
            max_levels: how many levels to search outward from each state.

        Returns:
            ``(distance, exact)``: (N,) int arrays; where ``exact`` is False, ``distance`` is
            the lower bound ``radius + max_levels + 1``.
        """
        n = states.shape[1]
        result = np.full(n, self.radius + max_levels + 1, dtype=np.int64)
        exact = np.zeros(n, dtype=bool)
        for j in range(n):  # one state at a time keeps memory at one search's frontier
            found = self._distance_one(states[:, j : j + 1], max_levels)
            if found is not None:
                result[j], exact[j] = found, True
        return result, exact

    def _distance_one(self, state: np.ndarray, max_levels: int) -> int | None:
        frontier, last_move = state, np.full(1, -1)
        for level in range(max_levels + 1):
            if level:
                frontier, last_move = _canonical_children(frontier, last_move, self.moves)
            table = self._lookup(state_keys(frontier))
            hit = table != 255
            if hit.any():
                return level + int(table[hit].min())
        return None


def _canonical_children(
    states: np.ndarray, last_move: np.ndarray, moves: MoveSet
) -> tuple[np.ndarray, np.ndarray]:
    """Children along the move set's canonical sequences only; moves are local indices."""
    n = states.shape[1]
    children = moves.expand(states)  # (54, k n); child m * n + j
    local = np.repeat(np.arange(moves.size), n)
    parents_last = np.tile(last_move, moves.size)
    keep = (parents_last < 0) | moves.follow[parents_last.clip(min=0), local]
    return children[:, keep], local[keep]


def _member(values: np.ndarray, sorted_values: np.ndarray) -> np.ndarray:
    pos = np.searchsorted(sorted_values, values).clip(max=max(sorted_values.size - 1, 0))
    return sorted_values[pos] == values
