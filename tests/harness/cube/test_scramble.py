"""Canonical scrambles: counts, canonical form, and uniform sampling."""

from __future__ import annotations

import itertools

import numpy as np

from cubebench.harness.cube import apply_sequence, canonical_scrambles, is_solved, solved_batch
from cubebench.harness.cube.moves import CANONICAL_FOLLOW, MOVE_FACE
from cubebench.harness.cube.scramble import count_canonical


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
