"""The 4×4×4's built-in suites. No exact optimum is known for a deep 4×4×4, so these suites
carry scrambles (an upper bound on the distance) and no optima.

- ``cube4-depth-01-v1`` … ``cube4-depth-10-v1``, ``-15-``, ``-20-``, ``-30-``, ``-40-``: 1000
  scrambles of exactly k turns of the face-and-wide metric (the 36 outer and wide turns),
  never two turns of one axis in a row (turns of one axis commute, so such a pair is one
  block), uniform over all such sequences, from ``default_rng([SUITE_SEED, 400 + k])``.
- ``cube4-random-state-v1``: 1000 states drawn uniformly from the whole 4×4×4, from
  ``default_rng([SUITE_SEED, 400])``: corners in a uniform arrangement with twists summing to
  0 mod 3, the 24 wings in a uniform arrangement (each in the only orientation its place
  allows), the 24 centre stickers (four of each colour) in a uniform arrangement. Every such
  state is reachable: the 4×4×4 has 8! 3^7 24! 24!/(4!)^6 states counted with its 24
  orientations, which is every arrangement these rules allow.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from ..cube.layers import corner_stickers, sticker_geometry
from ..cube.pieces import wing_slots
from ..cube.puzzle import puzzle
from .generate import SUITE_SEED, SUITE_SIZE
from .model import Instance

CUBE4_SEED_OFFSET: Final = 400
CUBE4_DEPTHS: Final = (*range(1, 11), 15, 20, 30, 40)
CUBE4_RANDOM_STATE_SUITE: Final = "cube4-random-state-v1"


def cube4_depth_suite_name(depth: int, version: int = 1) -> str:
    return f"cube4-depth-{depth:02d}-v{version}"


def _facelets(state: np.ndarray) -> str:
    return "".join("URFDLB"[c] for c in state)


def _scrambles(count: int, depth: int, rng: np.random.Generator) -> np.ndarray:
    """(count, depth) ids of outer and wide turns, never two of one axis in a row."""
    axes = np.empty((count, depth), dtype=np.int64)
    axes[:, 0] = rng.integers(0, 3, size=count)
    for step in range(1, depth):
        axes[:, step] = (axes[:, step - 1] + rng.integers(1, 3, size=count)) % 3
    side = rng.integers(0, 2, size=(count, depth))  # U R F, or D L B
    wide = rng.integers(0, 2, size=(count, depth))  # outer (ids 0..17) or wide (18..35)
    amount = rng.integers(0, 3, size=(count, depth))
    return 18 * wide + 3 * (axes + 3 * side) + amount


def cube4_depth_instances(
    depth: int, count: int = SUITE_SIZE, seed: int = SUITE_SEED
) -> list[Instance]:
    """``seed`` other than ``SUITE_SEED``: development scrambles, none from a suite's stream."""
    cube = puzzle("cube4")
    rng = np.random.default_rng([seed, CUBE4_SEED_OFFSET + depth])
    rows = _scrambles(count, depth, rng).tolist()
    return [
        Instance(
            id=i,
            facelets=_facelets(cube.apply(cube.solved, row)),
            scramble=cube.format_moves(row),
            depth=depth,
        )
        for i, row in enumerate(rows)
    ]


def _centre_stickers() -> np.ndarray:
    """(24,) the stickers of the 4×4×4's centres (one coordinate at ±3, the others ±1)."""
    positions, _ = sticker_geometry(4)
    return np.flatnonzero((np.abs(positions) == 3).sum(axis=1) == 1)


def random_cube4_state(rng: np.random.Generator) -> np.ndarray:
    """One uniform 4×4×4 state (module doc), (96,) uint8."""
    cube = puzzle("cube4")
    solved = cube.solved
    state = solved.copy()
    corners = corner_stickers(4)  # (8, 3), U/D sticker first, clockwise
    twists = rng.integers(0, 3, size=8)
    twists[-1] = -twists[:-1].sum() % 3
    for slot, (piece, twist) in enumerate(zip(rng.permutation(8), twists, strict=True)):
        state[corners[slot]] = np.roll(solved[corners[piece]], -int(twist))
    wings = wing_slots(cube)  # (24, 2)
    for slot, piece in enumerate(rng.permutation(len(wings))):
        state[wings[slot]] = solved[wings[piece]]
    centres = _centre_stickers()
    state[centres] = solved[centres][rng.permutation(centres.size)]
    return state


def cube4_random_state_instances(count: int = SUITE_SIZE, seed: int = SUITE_SEED) -> list[Instance]:
    rng = np.random.default_rng([seed, CUBE4_SEED_OFFSET])
    return [Instance(id=i, facelets=_facelets(random_cube4_state(rng))) for i in range(count)]


def cube4_jobs() -> list[tuple[str, Any, dict[str, Any]]]:
    """(name, instances, registry meta) of every 4×4×4 suite."""
    jobs: list[tuple[str, Any, dict[str, Any]]] = [
        (
            cube4_depth_suite_name(d),
            lambda d=d: cube4_depth_instances(d),
            {"kind": "depth", "depth": d, "seed": [SUITE_SEED, CUBE4_SEED_OFFSET + d],
             "puzzle": "cube4"},
        )
        for d in CUBE4_DEPTHS
    ]  # fmt: skip
    meta = {"kind": "random-state", "seed": [SUITE_SEED, CUBE4_SEED_OFFSET], "puzzle": "cube4"}
    jobs.append((CUBE4_RANDOM_STATE_SUITE, cube4_random_state_instances, meta))
    return jobs
