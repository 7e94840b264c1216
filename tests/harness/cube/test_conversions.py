"""Round trips through every representation, and the notation's error messages."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cubebench.harness.cube import (
    SOLVED,
    SOLVED_FACELETS,
    NotationError,
    apply_sequence,
    facelets_to_state,
    format_moves,
    from_cubies,
    invert_sequence,
    is_solved,
    length_htm,
    length_qtm,
    parse_moves,
    random_states,
    solved_batch,
    state_to_facelets,
    to_cubies,
)
from cubebench.harness.cube.cubie import (
    CORNER_FACELETS,
    EDGE_FACELETS,
    invert_states,
    one_to_cubies,
    random_cubies,
)

from .strategies import move_sequences, seeds


@given(move_sequences)
def test_notation_round_trip(moves):
    assert parse_moves(format_moves(moves)) == moves


def test_parse_accepts_aliases_and_whitespace():
    assert parse_moves("  R U2'  F’\n") == parse_moves("R U2 F'")
    # a word processor's prime after a half turn, as after a face
    assert parse_moves("U2’ R’ F2′ L′") == parse_moves("U2 R' F2 L'")
    assert parse_moves("") == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("R U X", "bad move 'X' at position 3"),
        ("R u", "'u' at position 2: lower-case letters are wide turns"),
        ("R3", "'R3' at position 1"),
        ("x R", "cube rotations"),
    ],
)
def test_parse_errors_name_token_and_position(text, message):
    with pytest.raises(NotationError, match=message):
        parse_moves(text)


def test_lengths_in_both_metrics():
    moves = parse_moves("R U2 F' D2 L")
    assert length_htm(moves) == 5
    assert length_qtm(moves) == 7


@given(seeds)
def test_facelets_round_trip(seed):
    states = random_states(20, np.random.default_rng(seed))
    for j in range(20):
        text = state_to_facelets(states[:, j])
        assert np.array_equal(facelets_to_state(text), states[:, j])


def test_solved_facelets():
    assert (
        state_to_facelets(SOLVED)
        == SOLVED_FACELETS
        == "U" * 9 + "R" * 9 + "F" * 9 + ("D" * 9 + "L" * 9 + "B" * 9)
    )


@given(seeds)
def test_cubie_round_trip(seed):
    cubies = random_cubies(50, np.random.default_rng(seed))
    back = to_cubies(from_cubies(*cubies))
    for original, recovered in zip(cubies, back, strict=True):
        assert np.array_equal(original, recovered)


@given(seeds, st.lists(st.tuples(st.integers(0, 53), st.integers(0, 5)), max_size=6))
def test_one_state_reads_the_same_cubies_as_a_batch_even_when_stickers_are_wrong(seed, paint):
    state = from_cubies(*random_cubies(1, np.random.default_rng(seed)))[:, 0]
    for facelet, colour in paint:  # stickers repainted: pieces no cube has, or twisted
        state[facelet] = colour
    batch = [rows[:, 0].tolist() for rows in to_cubies(state[:, None])]
    assert list(one_to_cubies(state)) == batch


@given(move_sequences)
def test_moves_keep_cubie_view_consistent(moves):
    state = apply_sequence(SOLVED, moves)
    assert np.array_equal(from_cubies(*to_cubies(state[:, None]))[:, 0], state)


def test_slot_facelets_match_kociemba_convention():
    # Kociemba's cornerFacelet/edgeFacelet (U1=0 ... B9=53); ours are derived from geometry
    assert CORNER_FACELETS[0].tolist() == [8, 9, 20]  # URF: U9 R1 F3
    assert CORNER_FACELETS[7].tolist() == [35, 17, 51]  # DRB: D9 R9 B7
    assert EDGE_FACELETS[0].tolist() == [5, 10]  # UR: U6 R2
    assert EDGE_FACELETS[11].tolist() == [48, 14]  # BR: B4 R6


def test_single_r_move_facelets():
    # kociemba's documented solved cube after R: the R face unchanged, F column -> U, ...
    state = apply_sequence(SOLVED, parse_moves("R"))
    assert state_to_facelets(state) == ("UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB")


@given(move_sequences, move_sequences)
def test_the_inverse_state_is_the_inverse_scramble_and_composes_to_solved(first, second):
    """``invert_states`` agrees with inverting the scramble, and is an inverse in the
    group: scrambling the inverse state by the scramble gives solved."""
    solved = solved_batch(1)[:, 0]
    states = np.stack([apply_sequence(solved, s) for s in (first, second)], axis=1)
    inverse = invert_states(states)
    for column, scramble in enumerate((first, second)):
        assert np.array_equal(inverse[:, column], apply_sequence(solved, invert_sequence(scramble)))
        assert is_solved(apply_sequence(inverse[:, column], scramble))
    assert np.array_equal(invert_states(inverse), states)
