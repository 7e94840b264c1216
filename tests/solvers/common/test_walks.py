"""Training walks: each rule's moves, and what the canonical rule buys (tighter lengths)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubebench.harness import DistanceOracle, move_set
from cubebench.solvers.common.walks import random_walks, walk_samples


@pytest.mark.parametrize("metric", ["htm", "qtm"])
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_canonical_walks_are_sequences_the_searches_prune_to(metric, seed):
    moves = move_set(metric)
    walks = moves.local[random_walks(200, 20, np.random.default_rng(seed), metric, "canonical")]
    assert (walks >= 0).all()  # every move is in the metric's set
    assert moves.follow[walks[:, :-1], walks[:, 1:]].all()
    if metric == "qtm":  # U U U is U': never three of one move in a row
        assert not ((walks[:, 2:] == walks[:, 1:-1]) & (walks[:, 1:-1] == walks[:, :-2])).any()


@pytest.mark.parametrize("metric", ["htm", "qtm"])
def test_canonical_walks_take_every_allowed_move(metric):
    moves = move_set(metric)
    walks = moves.local[random_walks(3000, 3, np.random.default_rng(0), metric, "canonical")]
    pairs = np.zeros((moves.size, moves.size), dtype=bool)
    pairs[walks[:, 0], walks[:, 1]] = True
    assert (pairs == moves.follow).all()


@pytest.mark.parametrize(("metric", "radius"), [("htm", 5), ("qtm", 6)])
def test_canonical_walk_lengths_are_nearer_the_distance(metric, radius):
    """At the oracle's radius a non-backtracking walk often ends nearer than its length;
    a canonical one ends at least as far on average, and never farther than its length."""
    oracle = DistanceOracle.build(radius, metric=metric)
    mean = {}
    for rule in ("nonbacktracking", "canonical"):
        states, _, depths = walk_samples(500, radius, np.random.default_rng(1), metric, rule)
        distance = oracle.table_distance(states[:, depths == radius].copy())
        assert (distance <= radius).all()
        mean[rule] = float(distance.mean())
    assert mean["canonical"] > mean["nonbacktracking"]
