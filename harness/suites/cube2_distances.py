"""Every 2×2×2 state's exact distance from solved, in both metrics, from one breadth-first search.

The 2×2×2 has no centres, so a state and its 24 whole-cube rotations are one position: each
is turned so the corner with the D, L and B colours sits at DBL with D down, and from there
only U, R and F turns are needed (an L turn is an R turn of the rotated cube). That leaves
3,674,160 positions (7! corner places × 3^6 twists), few enough to search all of them in
seconds and keep both metrics' distances in memory: 3.7M sorted keys and two bytes each
(40 MB, cached on disk after the first build).
The counts per distance are the published ones (God's number 11 face turns, 14 quarter
turns), which the tests check.
"""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

import numpy as np

from ..cube.layers import NORMALS, sticker_geometry, turn_permutation
from ..cube.puzzle import Puzzle, puzzle
from ..paths import cache_dir

NUM_POSITIONS: Final = 3_674_160
_DBL_FIXED: Final = ("D", "L", "B")


def _rotations() -> np.ndarray:
    """(24, 24) sticker gathers of the 24 whole-cube rotations of the 2×2×2."""
    gens = [turn_permutation(2, face, (1, 2)) for face in "URF"]
    found = {tuple(range(24))}
    frontier = list(found)
    while frontier:
        frontier = [
            t for p in frontier for g in gens if (t := tuple(np.asarray(p)[g])) not in found
        ]
        found.update(frontier)
    return np.array(sorted(found), dtype=np.intp)


def _dbl_stickers() -> np.ndarray:
    """(3,) the DBL corner's stickers, facing D, L, B."""
    positions, normals = sticker_geometry(2)
    return np.array([
        int(np.flatnonzero((positions == (-1, -1, -1)).all(1) & (normals == NORMALS[f]).all(1))[0])
        for f in _DBL_FIXED
    ])  # fmt: skip


_KEY_STICKERS: Final = np.array([i for i in range(24) if i not in set(_dbl_stickers())])


def keys(states: np.ndarray) -> np.ndarray:
    """(24, N) states with DBL in place -> (N,) uint64 keys (3 bits a sticker)."""
    out = np.zeros(states.shape[1], dtype=np.uint64)
    for shift, sticker in enumerate(_KEY_STICKERS):  # a row at a time: no (21, N) temporary
        out |= states[sticker].astype(np.uint64) << np.uint64(3 * shift)
    return out


def decode(found: np.ndarray) -> np.ndarray:
    """(N,) keys -> (24, N) states: the inverse of :func:`keys`, DBL in its solved place."""
    states = np.empty((24, found.size), dtype=np.uint8)
    states[_dbl_stickers()] = np.array([3, 4, 5], dtype=np.uint8)[:, None]  # D, L, B
    for shift, sticker in enumerate(_KEY_STICKERS):
        states[sticker] = (found >> np.uint64(3 * shift)) & np.uint64(7)
    return states


def normalise(states: np.ndarray) -> np.ndarray:
    """(24, N) -> (24, N): each state turned whole so its D-L-B corner is at DBL, D down.

    A state whose DBL corner is in none of the 24 rotations' places (an invalid cube) comes
    back as it was; its key is then in no table.
    """
    states = np.asarray(states)
    out = states.copy()
    target = np.array([3, 4, 5], dtype=states.dtype)[:, None]  # colours D, L, B
    dbl = _dbl_stickers()
    for rotation in _rotations():
        turned = states[rotation]
        hit = (turned[dbl] == target).all(axis=0)
        out[:, hit] = turned[:, hit]
    return out


@dataclass(frozen=True, eq=False)
class Cube2Distances:
    """The table: ``keys`` sorted, ``htm[i]`` and ``qtm[i]`` the distances of ``keys[i]``."""

    keys: np.ndarray  # (3674160,) uint64
    htm: np.ndarray  # (3674160,) uint8
    qtm: np.ndarray  # (3674160,) uint8

    def distances(self, states: np.ndarray, metric: str) -> np.ndarray:
        """(24, N) states (any orientation) -> (N,) exact distances in ``metric``.

        Raises:
            ValueError: naming the first state that is no 2×2×2 position.
        """
        found = keys(normalise(np.asarray(states).reshape(24, -1)))
        where = np.searchsorted(self.keys, found).clip(0, self.keys.size - 1)
        bad = self.keys[where] != found
        if bad.any():
            raise ValueError(f"state {int(np.flatnonzero(bad)[0])} is not a 2×2×2 position")
        return (self.htm if metric == "htm" else self.qtm)[where]

    def counts(self, metric: str) -> list[int]:
        """Positions at each distance 0, 1, 2, …"""
        return np.bincount(self.htm if metric == "htm" else self.qtm).tolist()


def _search(cube: Puzzle, moves: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Breadth-first from solved over ``moves`` (which keep DBL in place): keys, distances."""
    frontier = cube.solved[:, None]
    seen, depths = [keys(frontier)], [np.zeros(1, dtype=np.uint8)]
    for depth in itertools.count(1):
        n = frontier.shape[1]
        child_keys = np.concatenate([keys(frontier[cube.tables[m]]) for m in moves])
        child_keys, first = np.unique(child_keys, return_index=True)
        # a child is one move from its parent, so it is new unless at the last two depths
        recent = np.concatenate(seen[-2:])
        new = ~np.isin(child_keys, recent)
        if not new.any():
            break
        chosen = first[new]
        frontier = np.concatenate(
            [
                frontier[cube.tables[m]][:, chosen[chosen // n == k] % n]
                for k, m in enumerate(moves)
            ],
            axis=1,
        )
        seen.append(keys(frontier))
        depths.append(np.full(frontier.shape[1], depth, dtype=np.uint8))
    all_keys, all_depths = np.concatenate(seen), np.concatenate(depths)
    order = np.argsort(all_keys)
    return all_keys[order], all_depths[order]


CACHE_FILE: Final = "distances-v1.npz"


@cache
def cube2_distances() -> Cube2Distances:
    """The table: read from the cache (``$CUBEBENCH_HOME/cache/cube2``), else built (half a
    minute) and cached; a cached file that fails its checks is built again."""
    path = cache_dir("cube2") / CACHE_FILE
    try:
        with np.load(path, allow_pickle=False) as data:
            table = Cube2Distances(data["keys"], data["htm"], data["qtm"])
        _check(table)
    except (OSError, ValueError, KeyError):
        table = _built()
        _write(path, table)
    for array in (table.keys, table.htm, table.qtm):
        array.setflags(write=False)
    return table


def _built() -> Cube2Distances:
    cube = puzzle("cube2")
    urf = [m for m, name in enumerate(cube.move_names) if name[0] in "URF"]
    htm_keys, htm = _search(cube, urf)
    qtm_keys, qtm = _search(cube, [m for m in urf if m in cube.metrics["qtm"]])
    if not np.array_equal(htm_keys, qtm_keys):
        raise RuntimeError("the 2×2×2 searches disagree on the positions")  # a bug, not input
    table = Cube2Distances(htm_keys, htm, qtm)
    _check(table)
    return table


def _check(table: Cube2Distances) -> None:
    """Every position once, sorted, at most the diameters (11, 14) away.

    Raises:
        ValueError: what is wrong (a damaged cache file is then built again).
    """
    shapes = {table.keys.shape, table.htm.shape, table.qtm.shape}
    if shapes != {(NUM_POSITIONS,)} or table.keys.dtype != np.uint64:
        raise ValueError(f"the 2×2×2 table has shapes {shapes}, not ({NUM_POSITIONS},)")
    if not (np.diff(table.keys.astype(np.int64)) > 0).all():  # keys are below 2^63
        raise ValueError("the 2×2×2 table's keys are not sorted and distinct")
    if int(table.htm.max()) != 11 or int(table.qtm.max()) != 14:
        raise ValueError("the 2×2×2 table's distances are not those of the 2×2×2")


def _write(path: Path, table: Cube2Distances) -> None:
    """Write beside, then rename: a reader never sees half a file; a cache that cannot be
    written is only slower next time."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp.npz")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(tmp, keys=table.keys, htm=table.htm, qtm=table.qtm)
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
