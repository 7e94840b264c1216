"""The 48 cube symmetries: a group, commuting with moves, keeping distances, mapping
scores back."""

from __future__ import annotations

import kociemba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubebench.harness.cube import SOLVED, apply_sequence, state_to_facelets, validate_state
from cubebench.harness.cube.moves import MOVE_FACE, MOVE_QUARTER_TURNS, MOVE_TABLES
from cubebench.harness.cube.symmetry import (
    GROUPS,
    NUM_SYMMETRIES,
    SYMMETRY_MOVES,
    SYMMETRY_STICKERS,
    conjugate,
    conjugate_rows,
    group,
    symmetric_scores,
    symmetric_values,
)
from tests.harness.cube.strategies import move_sequences

symmetries = st.integers(min_value=0, max_value=NUM_SYMMETRIES - 1)


def test_the_48_symmetries_form_a_group_with_the_identity_first():
    keys = {tuple(t) for t in SYMMETRY_STICKERS.tolist()}
    assert len(keys) == 48
    assert SYMMETRY_STICKERS[0].tolist() == list(range(54))
    for a in range(48):
        for b in range(48):
            assert tuple(SYMMETRY_STICKERS[a][SYMMETRY_STICKERS[b]].tolist()) in keys
    for k in range(48):
        assert np.array_equal(conjugate(SOLVED, k), SOLVED)
        assert sorted(SYMMETRY_MOVES[k].tolist()) == list(range(18))  # moves map one to one


@settings(max_examples=200, deadline=None)
@given(move_sequences, symmetries)
def test_conjugating_a_scrambled_cube_is_scrambling_with_the_image_moves(moves, k):
    state = apply_sequence(SOLVED, moves)
    image = conjugate(state, k)
    validate_state(image)  # a real cube
    assert np.array_equal(image, apply_sequence(SOLVED, SYMMETRY_MOVES[k][moves].tolist()))


def test_rotations_keep_the_turn_direction_and_mirrors_reverse_it():
    turns = MOVE_QUARTER_TURNS[SYMMETRY_MOVES]  # (48, 18)
    same = (turns == MOVE_QUARTER_TURNS).all(axis=1)
    reversed_ = (turns == 4 - MOVE_QUARTER_TURNS).all(axis=1)
    assert same.sum() == 24 and reversed_.sum() == 24 and (same ^ reversed_).all()


def test_the_ud_group_keeps_kociembas_phase_two_moves():
    ud = group("ud")
    assert len(ud) == 16 and ud[0] == 0
    phase_two = {m for m in range(18) if MOVE_FACE[m] in (0, 3) or MOVE_QUARTER_TURNS[m] == 2}
    for k in range(48):
        kept = {int(SYMMETRY_MOVES[k, m]) for m in phase_two} == phase_two
        assert kept == (k in set(ud.tolist()))
    with pytest.raises(ValueError, match="'diagonal'"):
        group("diagonal")


def test_an_image_is_as_far_from_solved_as_the_cube_by_kociembas_bounded_search():
    rng = np.random.default_rng(5)
    for _ in range(3):
        moves = rng.integers(0, 18, 5).tolist()
        state = apply_sequence(SOLVED, moves)
        for k in range(48):
            facelets = state_to_facelets(conjugate(state, k))
            assert len(kociemba.solve(facelets, max_depth=5).split()) <= 5


def test_row_major_conjugation_matches_the_batch_form():
    rng = np.random.default_rng(1)
    batch = np.stack([apply_sequence(SOLVED, rng.integers(0, 18, 9).tolist()) for _ in range(48)])
    ks = rng.permutation(48)
    rows = conjugate_rows(batch, ks)
    for i, k in enumerate(ks):
        assert np.array_equal(rows[i], conjugate(batch[i], int(k)))


def _greedy_heuristic(states: np.ndarray) -> np.ndarray:
    """(54, N) -> (N, 18) stickers in place after each move: a score every symmetry keeps."""
    after = states[MOVE_TABLES]  # (18, 54, N)
    return (after == SOLVED[None, :, None]).sum(axis=1).T.astype(np.float64)


def test_averaging_over_symmetries_keeps_an_equivariant_score_and_symmetrises_any_other():
    rng = np.random.default_rng(2)
    states = np.stack(
        [apply_sequence(SOLVED, rng.integers(0, 18, 8).tolist()) for _ in range(4)], axis=1
    )
    full = GROUPS["full"]
    assert np.allclose(symmetric_scores(states, _greedy_heuristic, full), _greedy_heuristic(states))

    def always_u(s: np.ndarray) -> np.ndarray:  # a policy that only ever says U
        out = np.zeros((s.shape[1], 18))
        out[:, 0] = 1.0
        return out

    averaged = symmetric_scores(states, always_u, full)
    quarter = MOVE_QUARTER_TURNS != 2
    assert np.allclose(averaged[:, quarter], 1 / 12) and np.allclose(averaged[:, ~quarter], 0)
    assert np.array_equal(symmetric_scores(states, always_u, GROUPS["none"]), always_u(states))


@given(move_sequences, st.integers(min_value=1, max_value=NUM_SYMMETRIES))
def test_symmetric_values_average_the_images_and_keep_a_symmetric_value(scramble, k):
    states = np.stack([apply_sequence(SOLVED, scramble), apply_sequence(SOLVED, scramble[:3])], 1)
    ks = np.arange(k)
    # a value that is not symmetric: the sum of the sticker colours at a few places
    lopsided = lambda s: s[[0, 5, 19, 40]].sum(axis=0).astype(np.float32)  # noqa: E731
    expected = np.mean([lopsided(conjugate(states, j)) for j in ks], axis=0)
    assert np.allclose(symmetric_values(states, lopsided, ks), expected)
    # the count of solved-coloured stickers is the same on every image of a state
    on_place = lambda s: (s == SOLVED[:, None]).sum(axis=0).astype(np.float32)  # noqa: E731
    assert np.allclose(symmetric_values(states, on_place, ks), on_place(states))
