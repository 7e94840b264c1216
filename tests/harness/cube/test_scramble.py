"""Canonical scrambles: counts, canonical form, and uniform sampling."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from cubebench.harness.cube import apply_sequence, canonical_scrambles, is_solved, solved_batch
from cubebench.harness.cube.moves import CANONICAL_FOLLOW, MOVE_FACE
from cubebench.harness.cube.movesets import move_set
from cubebench.harness.cube.scramble import (
    canonical_quarter_scrambles,
    count_canonical,
    count_canonical_quarter,
)


def test_counts_match_the_known_sequence():
    # canonical sequences of length 0..4; distinct states at distance <= 3 equal these
    assert [count_canonical(k) for k in range(5)] == [1, 18, 243, 3240, 43254]


def test_scrambles_are_canonical_and_never_solved_for_small_depth():
    rng = np.random.default_rng(0)
    for depth in (1, 2, 5, 20):
        seqs = canonical_scrambles(500, depth, rng)
        assert seqs.shape == (500, depth)
        for seq in seqs:
            assert all(CANONICAL_FOLLOW[a, b] for a, b in itertools.pairwise(seq))
    for seq in canonical_scrambles(200, 3, rng):
        assert not is_solved(apply_sequence(solved_batch(1), seq.tolist()))[0]


def test_sampling_is_uniform_over_sequences():
    # depth 2: 243 sequences; after U (a face with an allowed opposite) there are 15 followers,
    # after D only 12, so a naive sampler would give D-first sequences more weight each
    seqs = canonical_scrambles(243_000, 2, np.random.default_rng(1))
    _, counts = np.unique(seqs[:, 0] * 18 + seqs[:, 1], return_counts=True)
    assert len(counts) == 243
    assert counts.min() > 800 and counts.max() < 1200
    first_face = MOVE_FACE[seqs[:, 0]]
    share_u = np.mean(first_face == 0)
    assert abs(share_u - 45 / 243) < 0.01


def _quarter_canonical(seq) -> bool:
    """The rule written out directly: quarter turns only, no move then its inverse, opposite
    faces in ascending order, never three equal turns in a row."""
    qtm = move_set("qtm")
    if any(m not in qtm.moves for m in seq):
        return False
    if any(not qtm.follow[qtm.local[a], qtm.local[b]] for a, b in itertools.pairwise(seq)):
        return False
    return not any(a == b == c for a, b, c in zip(seq, seq[1:], seq[2:], strict=False))


def test_quarter_turn_counts_match_brute_force():
    quarter = move_set("qtm").moves.tolist()
    for k in range(5):
        brute = sum(_quarter_canonical(s) for s in itertools.product(quarter, repeat=k))
        assert count_canonical_quarter(k) == brute


@given(st.integers(0, 14), st.integers(0, 2**32 - 1))
def test_quarter_turn_scrambles_are_canonical(depth, seed):
    seqs = canonical_quarter_scrambles(50, depth, np.random.default_rng(seed))
    assert seqs.shape == (50, depth)
    assert all(_quarter_canonical(s.tolist()) for s in seqs)


def test_quarter_turn_sampling_is_uniform_over_sequences():
    # depth 3: 1176 sequences; U U may not be followed by U, U D may not be followed by U
    seqs = canonical_quarter_scrambles(235_200, 3, np.random.default_rng(2))
    _, counts = np.unique(seqs @ np.array([324, 18, 1]), return_counts=True)
    assert len(counts) == count_canonical_quarter(3) == 1176
    assert counts.min() > 120 and counts.max() < 285  # expected 200 each
    assert all(_quarter_canonical(s.tolist()) for s in seqs[:2000])
