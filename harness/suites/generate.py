"""Generation of the built-in suites from documented seeds.

Depth-k suites: ``count`` canonical scrambles of exactly k moves, drawn uniformly over all
canonical sequences of that length (with replacement, so depth 1 repeats its 18 states),
from ``numpy.random.default_rng([SUITE_SEED, k])``. Random-state suite: states drawn
uniformly from the whole cube group from ``default_rng([SUITE_SEED, 0])``.

Uniform-move suite: the scrambles seeds 003 and 004 evaluated on, k moves drawn independently
and uniformly from all 18, so moves may cancel or merge (``U U'``, ``R R``) and the state is
often much nearer solved than k; from ``default_rng([SUITE_SEED, 100 + k])``. It exists so a
seed's restore rate can be compared on its own kind of scramble; the depth-k suites are the
harder, canonical measure.

Quarter-turn depth suites (``qdepth-k``): canonical scrambles of exactly k quarter turns (no
move followed by its inverse, opposite faces in one order, never three equal quarter turns in
a row), uniform over all such sequences, from ``default_rng([SUITE_SEED, 200 + k])``: the
depth curve of a solver that works in the quarter-turn metric, in its own metric.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from ..cube import (
    NUM_MOVES,
    canonical_scrambles,
    facelets_to_state,
    format_moves,
    random_states,
    scrambled_batch,
    state_to_facelets,
)
from ..cube.scramble import canonical_quarter_scrambles
from .model import Instance
from .oracle import DistanceOracle

SUITE_SEED = 20261122
# development scrambles (benchmarks/tools/dev_suite.py): settings are chosen on these,
# never on a suite
DEV_SEED = 5_000_001
SUITE_SIZE = 1000
MAX_DEPTH = 20


QTM_MAX_DEPTH = 14
QDEPTH_SEED_OFFSET = 200


def depth_suite_name(depth: int, version: int = 1) -> str:
    return f"depth-{depth:02d}-v{version}"


def qdepth_suite_name(depth: int, version: int = 1) -> str:
    return f"qdepth-{depth:02d}-v{version}"


RANDOM_STATE_SUITE = "random-state-v1"
UNIFORM_MOVES = 10
UNIFORM_MOVES_SUITE = f"uniform-moves-{UNIFORM_MOVES:02d}-v1"
UNIFORM_MOVES_SEED = (SUITE_SEED, 100 + UNIFORM_MOVES)


def _scrambled_instances(scrambles: np.ndarray, depth: int | None) -> list[Instance]:
    """Instances from (count, length) move ids applied to solved cubes."""
    states = scrambled_batch(scrambles)  # (54, count)
    return [
        Instance(
            id=i,
            facelets=state_to_facelets(states[:, i]),
            scramble=format_moves(scrambles[i].tolist()),
            depth=depth,
        )
        for i in range(scrambles.shape[0])
    ]


def depth_instances(depth: int, count: int = SUITE_SIZE, seed: int = SUITE_SEED) -> list[Instance]:
    """``seed`` other than ``SUITE_SEED``: development scrambles, none from a suite's stream."""
    rng = np.random.default_rng([seed, depth])
    return _scrambled_instances(canonical_scrambles(count, depth, rng), depth)


def qdepth_instances(depth: int, count: int = SUITE_SIZE, seed: int = SUITE_SEED) -> list[Instance]:
    """Canonical quarter-turn scrambles of exactly ``depth`` quarter turns. Their ``depth``
    field stays unset: it means face-turn depth, and the suite's meta says ``qdepth``."""
    rng = np.random.default_rng([seed, QDEPTH_SEED_OFFSET + depth])
    return _scrambled_instances(canonical_quarter_scrambles(count, depth, rng), None)


def uniform_move_instances(count: int = SUITE_SIZE) -> list[Instance]:
    """Scrambles of independent uniform moves, as ``mlp-kociemba`` and ``cnn-faces`` were
    trained and measured on; ``depth`` stays unset because moves may cancel."""
    rng = np.random.default_rng(list(UNIFORM_MOVES_SEED))
    return _scrambled_instances(rng.integers(0, NUM_MOVES, size=(count, UNIFORM_MOVES)), None)


def random_state_instances(count: int = SUITE_SIZE, seed: int = SUITE_SEED) -> list[Instance]:
    """``seed`` other than ``SUITE_SEED``: development cubes, none from the suite's stream."""
    states = random_states(count, np.random.default_rng([seed, 0]))
    return [Instance(id=i, facelets=state_to_facelets(states[:, i])) for i in range(count)]


def annotate_optimal(
    instances: Sequence[Instance],
    oracle: DistanceOracle,
    max_levels: int,
    progress: Callable[[int], None] | None = None,
    metric: str = "htm",
) -> list[Instance]:
    """Attach the exact optimum in ``metric`` (the oracle's), or its lower bound
    (``optimal_htm_min``, ``optimal_qtm_min``) where it is out of reach."""
    out = []
    for inst in instances:
        state = facelets_to_state(inst.facelets, validate=False)
        distance, exact = oracle.distances(state[:, None], max_levels)
        field = f"optimal_{metric}" if exact[0] else f"optimal_{metric}_min"
        out.append(replace(inst, **{field: int(distance[0])}))  # type: ignore[arg-type]
        if progress:
            progress(1)
    return out
