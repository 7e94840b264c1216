"""The 2×2×2's built-in suites, every instance with its exact optimum in both metrics.

- ``cube2-depth-01-v1`` … ``cube2-depth-11-v1``: 1000 canonical scrambles of exactly k face
  turns each, drawn uniformly over all canonical sequences of that length (turns of U, R
  and F, never one face twice in a row: the 2×2×2 needs no other faces, an L turn being an
  R turn of the cube turned whole), from ``default_rng([SUITE_SEED, 300 + k])``. 11 is the
  2×2×2's diameter in face turns.
- ``cube2-random-state-v1``: 1000 positions drawn uniformly from all 3,674,160, from
  ``default_rng([SUITE_SEED, 300])``.

Optima come from the breadth-first table (:mod:`.cube2_distances`), so every instance is
exact in both metrics and every learned solver's gap is exact everywhere.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from ..cube.puzzle import puzzle
from .cube2_distances import cube2_distances, decode
from .generate import SUITE_SEED, SUITE_SIZE
from .model import Instance

CUBE2_SEED_OFFSET: Final = 300
CUBE2_MAX_DEPTH: Final = 11
CUBE2_RANDOM_STATE_SUITE: Final = "cube2-random-state-v1"


def cube2_depth_suite_name(depth: int, version: int = 1) -> str:
    return f"cube2-depth-{depth:02d}-v{version}"


def _canonical_urf(count: int, depth: int, rng: np.random.Generator) -> np.ndarray:
    """(count, depth) move ids: uniform canonical sequences of U, R and F turns."""
    faces = np.empty((count, depth), dtype=np.int64)
    faces[:, 0] = rng.integers(0, 3, size=count) if depth else 0
    for step in range(1, depth):  # one of the two other faces, uniformly
        faces[:, step] = (faces[:, step - 1] + rng.integers(1, 3, size=count)) % 3
    return 3 * faces + rng.integers(0, 3, size=(count, depth))  # U R F are faces 0 1 2


def _annotated(
    states: np.ndarray, scrambles: list[str | None], depth: int | None
) -> list[Instance]:
    table = cube2_distances()
    htm, qtm = table.distances(states, "htm"), table.distances(states, "qtm")
    facelets = ["".join("URFDLB"[c] for c in states[:, i]) for i in range(states.shape[1])]
    return [
        Instance(
            id=i,
            facelets=facelets[i],
            scramble=scrambles[i],
            depth=depth,
            optimal_htm=int(htm[i]),
            optimal_qtm=int(qtm[i]),
        )
        for i in range(states.shape[1])
    ]


def cube2_depth_instances(
    depth: int, count: int = SUITE_SIZE, seed: int = SUITE_SEED
) -> list[Instance]:
    """``seed`` other than ``SUITE_SEED``: development scrambles, none from a suite's stream."""
    cube = puzzle("cube2")
    moves = _canonical_urf(count, depth, np.random.default_rng([seed, CUBE2_SEED_OFFSET + depth]))
    states = np.stack([cube.apply(cube.solved, row) for row in moves.tolist()], axis=1)
    scrambles: list[str | None] = [cube.format_moves(row) for row in moves.tolist()]
    return _annotated(states, scrambles, depth)


def cube2_random_state_instances(count: int = SUITE_SIZE, seed: int = SUITE_SEED) -> list[Instance]:
    """Uniform positions: uniform indices into the table's keys, which hold each once."""
    table = cube2_distances()
    index = np.random.default_rng([seed, CUBE2_SEED_OFFSET]).integers(0, table.keys.size, count)
    return _annotated(decode(table.keys[index]), [None] * count, None)


def cube2_jobs() -> list[tuple[str, Any, dict[str, Any]]]:
    """(name, instances, registry meta) of every 2×2×2 suite."""
    # every distance is within the table's reach: the diameters, 11 and 14
    exact = {"puzzle": "cube2", "optimal_htm_exact_up_to": 11, "optimal_qtm_exact_up_to": 14}
    jobs: list[tuple[str, Any, dict[str, Any]]] = [
        (
            cube2_depth_suite_name(d),
            lambda d=d: cube2_depth_instances(d),
            {"kind": "depth", "depth": d, "seed": [SUITE_SEED, CUBE2_SEED_OFFSET + d], **exact},
        )
        for d in range(1, CUBE2_MAX_DEPTH + 1)
    ]
    jobs.append(
        (
            CUBE2_RANDOM_STATE_SUITE,
            cube2_random_state_instances,
            {"kind": "random-state", "seed": [SUITE_SEED, CUBE2_SEED_OFFSET], **exact},
        )
    )
    return jobs
