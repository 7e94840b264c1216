"""The quarter-turn depth suites: canonical quarter-turn scrambles of exactly k, their QTM
optimum right, reproducible from their seed."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest

from cubebench.harness.cube import facelets_to_state, length_qtm, parse_moves
from cubebench.harness.cube.moves import MOVE_INVERSE
from cubebench.harness.suites.catalog import load_suite, suite_info
from cubebench.harness.suites.generate import QTM_MAX_DEPTH, qdepth_instances, qdepth_suite_name
from cubebench.harness.suites.oracle import DistanceOracle


def test_every_qdepth_suite_is_built_in_with_1000_instances():
    for k in range(1, QTM_MAX_DEPTH + 1):
        info = suite_info(qdepth_suite_name(k))
        assert info.count == 1000 and info.meta["qdepth"] == k
        assert info.meta["optimal_qtm_exact_up_to"] == 11


@pytest.mark.parametrize("k", [1, 3, 6, 12])
def test_scrambles_are_canonical_quarter_turns_of_exactly_k(k):
    for inst in load_suite(qdepth_suite_name(k)).instances:
        moves = parse_moves(inst.scramble)
        assert len(moves) == k and length_qtm(moves) == k  # quarter turns only
        assert all(b != MOVE_INVERSE[a] for a, b in pairwise(moves))
        assert not any(a == b == c for a, b, c in zip(moves, moves[1:], moves[2:], strict=False))
        assert inst.depth is None  # the face-turn depth field stays unset
        if k <= 11:
            assert inst.optimal_qtm is not None and inst.optimal_qtm <= k
        else:
            assert inst.optimal_qtm is not None or inst.optimal_qtm_min == 12


def test_generation_is_deterministic():
    for k in (4, 13):
        committed = load_suite(qdepth_suite_name(k)).instances[:50]
        fresh = qdepth_instances(k)[:50]
        assert [(i.facelets, i.scramble) for i in committed] == [
            (i.facelets, i.scramble) for i in fresh
        ]


def test_committed_quarter_turn_optima_agree_with_an_independent_oracle():
    # a radius-5 quarter-turn table + 2 levels is exact to 7 quarter turns
    oracle = DistanceOracle.build(5, metric="qtm")
    for k in (6, 7):
        instances = load_suite(qdepth_suite_name(k)).instances[:150]
        states = np.stack([facelets_to_state(i.facelets) for i in instances], axis=1)
        distance, exact = oracle.distances(states, max_levels=2)
        assert exact.all()
        assert distance.tolist() == [i.optimal_qtm for i in instances]
