"""The inverse's lookups: the cubie rows a search carries for a cube's inverse stay the
inverse's, move after move, and give the inverse's own coordinates."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cubebench.harness.cube import SOLVED, apply_sequence
from cubebench.harness.cube.cubie import invert_states
from cubebench.solvers.optimal.lookups import cubie_coordinates, premove
from cubebench.solvers.patterns.coords import (
    AXIS_MOVES,
    axis_coordinates,
    inverse_cubies,
    premove_table,
    sorted_lookup,
)

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
