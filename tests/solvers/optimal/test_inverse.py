"""The inverse's lookups: the cubie rows a search carries for a cube's inverse stay the
inverse's, move after move, and give the inverse's own coordinates; on the axis a move
turns, the move leaves the inverse's coordinates as they were (so a child keeps its
parent's value there)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cubebench.harness.cube import SOLVED, apply_sequence
from cubebench.harness.cube.cubie import invert_states
from cubebench.solvers.optimal.lookups import cubie_coordinates, cubie_csep, premove
from cubebench.solvers.optimal.solver import _move_axis
from cubebench.solvers.patterns.coords import (
    AXIS_MOVES,
    axis_coordinates,
    inverse_cubies,
    premove_table,
    sorted_lookup,
)
from cubebench.solvers.patterns.dense import csep_lookup

MOVES = st.lists(st.integers(0, 17), max_size=25)


@settings(max_examples=60, deadline=None)
@given(start=MOVES, played=MOVES)
def test_carried_rows_stay_the_inverses_rows(start: list[int], played: list[int]) -> None:
    state = apply_sequence(SOLVED, start)
    rows = inverse_cubies(state)
    pre = premove_table()
    for m in played:
        nxt = np.empty_like(rows)
        for a in range(3):
            premove(rows, a, nxt, a, pre[AXIS_MOVES[a, m]])
        rows = nxt
        state = apply_sequence(state, [m])
    assert np.array_equal(rows, inverse_cubies(state))


@settings(max_examples=60, deadline=None)
@given(moves=MOVES)
def test_a_rows_coordinates_are_the_inverses(moves: list[int]) -> None:
    state = apply_sequence(SOLVED, moves)
    expected = axis_coordinates(invert_states(state.reshape(54, 1))[:, 0])
    rows, lookups = inverse_cubies(state), (premove_table(), *sorted_lookup())
    for a in range(3):
        assert tuple(cubie_coordinates(rows, a, lookups)) == tuple(expected[a])


def _axis_lookups(rows: np.ndarray, axis: int) -> tuple[int, ...]:
    lookups = (premove_table(), *sorted_lookup(), csep_lookup())
    return (*cubie_coordinates(rows, axis, lookups), cubie_csep(rows, axis, lookups))


@settings(max_examples=60, deadline=None)
@given(start=MOVES, move=st.integers(0, 17))
def test_a_move_keeps_its_axis_coordinates_of_the_inverse(start: list[int], move: int) -> None:
    state = apply_sequence(SOLVED, start)
    before, after = inverse_cubies(state), inverse_cubies(apply_sequence(state, [move]))
    axis = int(_move_axis()[move])
    assert _axis_lookups(before, axis) == _axis_lookups(after, axis)


def test_a_move_changes_the_inverse_on_the_other_axes() -> None:
    """The property above is the move's own axis's: every move from solved changes the
    inverse's coordinates on another axis."""
    solved = inverse_cubies(SOLVED)
    for move in range(18):
        after = inverse_cubies(apply_sequence(SOLVED, [move]))
        others = [a for a in range(3) if a != _move_axis()[move]]
        assert any(_axis_lookups(solved, a) != _axis_lookups(after, a) for a in others), move
