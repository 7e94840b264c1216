"""Generation of the built-in suites from documented seeds.

Depth-k suites: ``count`` canonical scrambles of exactly k moves, drawn uniformly over all
canonical sequences of that length (with replacement, so depth 1 repeats its 18 states),
from ``numpy.random.default_rng([SUITE_SEED, k])``. Random-state suite: states drawn
uniformly from the whole cube group from ``default_rng([SUITE_SEED, 0])``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from harness.cube import (
    apply_moves,
    canonical_scrambles,
    facelets_to_state,
    format_moves,
    random_states,
    solved_batch,
    state_to_facelets,
)
from harness.suites.model import Instance
from harness.suites.oracle import DistanceOracle

SUITE_SEED = 20261122
SUITE_SIZE = 1000
MAX_DEPTH = 20


def depth_suite_name(depth: int, version: int = 1) -> str:
    return f"depth-{depth:02d}-v{version}"


RANDOM_STATE_SUITE = "random-state-v1"


def depth_instances(depth: int, count: int = SUITE_SIZE) -> list[Instance]:
    rng = np.random.default_rng([SUITE_SEED, depth])
    scrambles = canonical_scrambles(count, depth, rng)  # (count, depth)
    states = solved_batch(count)
    spare = np.empty_like(states)
    for step in range(depth):
        apply_moves(states, scrambles[:, step], out=spare)
        states, spare = spare, states
    return [
        Instance(
            id=i,
            facelets=state_to_facelets(states[:, i]),
            scramble=format_moves(scrambles[i].tolist()),
            depth=depth,
        )
        for i in range(count)
    ]


def random_state_instances(count: int = SUITE_SIZE) -> list[Instance]:
    states = random_states(count, np.random.default_rng([SUITE_SEED, 0]))
    return [Instance(id=i, facelets=state_to_facelets(states[:, i])) for i in range(count)]


def annotate_optimal(
    instances: Sequence[Instance],
    oracle: DistanceOracle,
    max_levels: int,
    progress: Callable[[int], None] | None = None,
) -> list[Instance]:
    """Attach the exact HTM optimum, or ``optimal_htm_min`` where it is out of reach."""
    out = []
    for inst in instances:
        state = facelets_to_state(inst.facelets, validate=False)
        distance, exact = oracle.distances(state[:, None], max_levels)
        if exact[0]:
            out.append(replace(inst, optimal_htm=int(distance[0])))
        else:
            out.append(replace(inst, optimal_htm_min=int(distance[0])))
        if progress:
            progress(1)
    return out
