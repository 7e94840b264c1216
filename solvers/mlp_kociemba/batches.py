"""Training batches for the MLP: which rows a batch draws and their symmetry images.

Kept apart from the training loop so that the sampling rules (the bounded share, the draw by
distance, the augmentation) are plain functions of row indices and a seed, testable alone.
"""

from __future__ import annotations

import numpy as np

from ...harness import GROUPS, SYMMETRY_MOVES, conjugate_rows

AUGMENTATIONS = ("none", "ud", "full", "rule")
# how the bounded share of a batch is drawn (mixed_batch): by row, by moves left uniformly,
# or by moves left with weight proportional to it
DRAWS = ("rows", "distance", "ramp")


def augment(
    states: np.ndarray, labels: np.ndarray, bounded: np.ndarray, name: str, seed: list[int]
) -> tuple[np.ndarray, np.ndarray]:
    """(N, 54) states, (N,) labels -> their images under one symmetry per row.

    ``bounded`` (N,) marks length-bounded labels; ``name`` is one of ``AUGMENTATIONS``
    (``rule``: any of the 48 where bounded, one of the 16 U-D ones elsewhere).
    """
    if name == "none":
        return states, labels
    rng = np.random.default_rng(seed)
    ud, full = GROUPS["ud"], GROUPS["full"]
    pick_ud = ud[rng.integers(0, len(ud), len(labels))]
    pick_full = full[rng.integers(0, len(full), len(labels))]
    ks = {"ud": pick_ud, "full": pick_full, "rule": np.where(bounded, pick_full, pick_ud)}[name]
    return conjugate_rows(states, ks), SYMMETRY_MOVES[ks, labels]


def distance_strata(
    rows: np.ndarray, remaining: np.ndarray, top: int, ramp: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """(R,) row indices -> the rows sorted by moves left (capped at ``top``), (K + 1,) the
    bounds of each value's run and (K,) the chance of each run (``None``: alike), for
    ``mixed_batch`` to draw the moves left first.

    Every prefix of a route is a row, so a 10-move scramble gives rows 10, 9, ..., 1 moves
    out and a uniform draw over rows spends about three quarters of the near-solved share on
    states at most 5 moves out (a few hundred thousand, learnt early). Drawing the distance
    first is DeepCubeA's uniform scramble depth. Even so a tenth of the share goes to the 18
    states one move out and three tenths to at most 3 moves out; ``ramp`` weights each value
    by itself (1 move out: 1/55 of the share, 10 moves out: 10/55), so a smaller bounded
    share keeps the far near-solved states as often and leaves more of each batch to
    two-phase rows.
    """
    left = np.minimum(remaining[rows], top)
    order = np.argsort(left, kind="stable")
    starts = np.flatnonzero(np.diff(left[order], prepend=-1))
    weights = None
    if ramp:
        values = left[order][starts].astype(np.float64)
        weights = values / values.sum()
    return rows[order], np.append(starts, len(rows)), weights


def mixed_batch(
    bounded_rows: np.ndarray,
    other_rows: np.ndarray,
    share: float,
    batch_size: int,
    seed: list[int],
    strata: tuple[np.ndarray, np.ndarray, np.ndarray | None] | None = None,
) -> np.ndarray:
    """(B,) row indices, ``share`` of them length-bounded, drawn with replacement.

    Greedy rollouts live near the solved state, where only the length-bounded labels are
    routes a random scramble would take; the natural share of those rows is about 18%. With
    ``strata`` (``distance_strata`` of the bounded rows) the bounded part draws a moves-left
    value (uniformly, or with the strata's weights), then a row with it.
    """
    rng = np.random.default_rng(seed)
    k = round(share * batch_size)
    if strata is None:
        pick_bounded = bounded_rows[rng.integers(0, len(bounded_rows), k)]
    else:
        rows, bounds, weights = strata
        if weights is None:
            run = rng.integers(0, len(bounds) - 1, k)
        else:
            run = rng.choice(len(weights), k, p=weights)
        size = bounds[run + 1] - bounds[run]
        pick_bounded = rows[bounds[run] + (rng.random(k) * size).astype(np.int64)]
    pick_other = other_rows[rng.integers(0, len(other_rows), batch_size - k)]
    return np.concatenate([pick_bounded, pick_other])
