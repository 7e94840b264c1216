"""A* bookkeeping in compiled code: the closed set and the node store, whole batches at a time.

A* reaches a million nodes in a minute on a CPU; kept in Python objects (a dict keyed by
state hash, a list of per-node copies) their bookkeeping cost more than the network that
scores them. Here the closed set is an open-addressing table of state hash -> (best g, node
id) compiled with numba, and nodes live in growing arrays: admitting a batch of children is
one call, and a node superseded by a cheaper path to the same state is marked dead in place,
so the heap needs no second lookup when it pops it.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True, nogil=True)
def _admit(keys, best_g, best_node, hashes, g, first_id, alive):  # pragma: no cover - compiled
    """Insert children in order; returns (ids of the admitted, their count, table size)."""
    mask = np.uint64(keys.size - 1)
    one = np.uint64(1)
    admitted = np.empty(hashes.size, np.int64)
    count = 0
    for i in range(hashes.size):
        h = hashes[i]
        slot = h & mask
        while best_node[slot] >= 0 and keys[slot] != h:  # a node id < 0 marks an empty slot
            slot = (slot + one) & mask
        if best_node[slot] >= 0:
            if best_g[slot] <= g[i]:
                continue
            alive[best_node[slot]] = False
        keys[slot] = h
        best_g[slot] = g[i]
        best_node[slot] = first_id + count
        admitted[count] = i
        count += 1
    return admitted[:count]


@numba.njit(cache=True, nogil=True)
def _rehash(keys, best_g, best_node, new_keys, new_g, new_node):  # pragma: no cover
    mask = np.uint64(new_keys.size - 1)
    one = np.uint64(1)
    for slot in range(keys.size):
        if best_node[slot] < 0:
            continue
        h = keys[slot]
        s = h & mask
        while new_node[s] >= 0:
            s = (s + one) & mask
        new_keys[s], new_g[s], new_node[s] = h, best_g[slot], best_node[slot]


class NodeStore:
    """Nodes of one search: (54, N) states, g, parent, the move in, and whether each is
    still the cheapest known path to its state; plus the closed set over their hashes."""

    def __init__(self, start: np.ndarray, start_hash: int, capacity: int = 1 << 12) -> None:
        self.size = 0
        self.states = np.empty((start.shape[0], capacity), np.uint8)  # (54, capacity)
        self.g = np.empty(capacity, np.int32)
        self.parent = np.empty(capacity, np.int64)
        self.move_in = np.empty(capacity, np.int16)  # local move into the node, -1 at the root
        self.alive = np.empty(capacity, np.bool_)
        slots = 1 << (2 * capacity - 1).bit_length()  # a power of two: probing masks with it
        self._keys = np.zeros(slots, np.uint64)
        self._best_g = np.zeros(slots, np.int32)
        self._best_node = np.full(slots, -1, np.int64)
        self._used = 0
        self.admit(start[:, None], np.array([start_hash], np.uint64), np.zeros(1, np.int32),
                   np.full(1, -1), np.full(1, -1))  # fmt: skip

    def admit(
        self,
        states: np.ndarray,
        hashes: np.ndarray,
        g: np.ndarray,
        parent: np.ndarray,
        move_in: np.ndarray,
    ) -> np.ndarray:
        """Store the children (columns of ``states`` (54, K)) that reach their state more
        cheaply than any node so far; returns their node ids."""
        self._reserve(hashes.size)
        first = self.size
        self.alive[first : first + hashes.size] = True  # before a later child supersedes one
        picked = _admit(self._keys, self._best_g, self._best_node, hashes.astype(np.uint64),
                        g.astype(np.int32), first, self.alive)  # fmt: skip
        end = first + picked.size
        self.states[:, first:end] = states[:, picked]
        self.g[first:end] = g[picked]
        self.parent[first:end] = parent[picked]
        self.move_in[first:end] = move_in[picked]
        self.size = end
        self._used += picked.size  # an upper bound: improvements reuse their slot
        return np.arange(first, end)

    def path(self, node: int) -> tuple[int, ...]:
        """Local moves from the root to ``node``."""
        path = []
        while self.parent[node] != -1:
            path.append(int(self.move_in[node]))
            node = int(self.parent[node])
        return tuple(reversed(path))

    def _reserve(self, extra: int) -> None:
        capacity = self.g.size
        if self.size + extra > capacity:
            grown = max(2 * capacity, self.size + extra)
            self.states = _grow(self.states, grown, axis=1)
            for name in ("g", "parent", "move_in", "alive"):
                setattr(self, name, _grow(getattr(self, name), grown))
        if 2 * (self._used + extra) > self._keys.size:  # keep the table at most half full
            size = self._keys.size
            while 2 * (self._used + extra) > size:
                size *= 2
            keys, best_g, best_node = (np.zeros(size, np.uint64), np.zeros(size, np.int32),
                                       np.full(size, -1, np.int64))  # fmt: skip
            _rehash(self._keys, self._best_g, self._best_node, keys, best_g, best_node)
            self._keys, self._best_g, self._best_node = keys, best_g, best_node


def _grow(array: np.ndarray, size: int, axis: int = 0) -> np.ndarray:
    shape = list(array.shape)
    shape[axis] = size
    out = np.empty(shape, array.dtype)
    index = [slice(None)] * array.ndim
    index[axis] = slice(0, array.shape[axis])
    out[tuple(index)] = array
    return out
