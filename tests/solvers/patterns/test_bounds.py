"""The corner bound: the corner table read for a state and its inverse, in compiled code,
agrees with the cubie coordinates and never exceeds a cube's distance."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubebench.harness.cube import SOLVED, apply_sequence, facelets_to_state
from cubebench.harness.cube.cubie import invert_states
from cubebench.harness.suites.catalog import load_suite
from cubebench.solvers.patterns.bounds import corner_bound, corner_table
from cubebench.solvers.patterns.coords import N_TWIST, coordinates

MOVES = st.lists(st.integers(0, 17), max_size=30)


def _by_coordinates(states: np.ndarray, metric: str) -> np.ndarray:
    """The same bound through the cubie arrays and the inverse's stickers."""
    table = corner_table(metric)

    def read(s: np.ndarray) -> np.ndarray:
        c = coordinates(s, ("twist", "cperm"))
        return table[c["cperm"] * N_TWIST + c["twist"]]

    return np.maximum(read(states), read(invert_states(states)))


@settings(max_examples=40, deadline=None)
@given(scrambles=st.lists(MOVES, min_size=1, max_size=8), metric=st.sampled_from(["htm", "qtm"]))
def test_the_bound_is_the_larger_table_value_of_the_state_and_its_inverse(scrambles, metric):
    states = np.stack([apply_sequence(SOLVED, s) for s in scrambles], axis=1)  # (54, N)
    assert np.array_equal(corner_bound(states, metric), _by_coordinates(states, metric))


@given(moves=MOVES)
@settings(max_examples=30, deadline=None)
def test_a_state_and_its_inverse_share_the_bound(moves):
    state = apply_sequence(SOLVED, moves)[:, None]
    for metric in ("htm", "qtm"):
        assert corner_bound(state, metric) == corner_bound(invert_states(state), metric)


@pytest.mark.parametrize("depth", [5, 8, 12])
def test_the_bound_never_exceeds_the_proved_distance(depth):
    instances = load_suite(f"depth-{depth:02d}-v1").instances
    states = np.stack([facelets_to_state(i.facelets) for i in instances], axis=1)
    htm = corner_bound(states, "htm")
    qtm = corner_bound(states, "qtm")
    checked = 0
    for k, inst in enumerate(instances):
        if inst.optimal_htm is not None:
            assert htm[k] <= inst.optimal_htm, inst.id
            checked += 1
        if inst.optimal_qtm is not None:
            assert qtm[k] <= inst.optimal_qtm, inst.id
            checked += 1
    assert checked >= 100
    assert htm.max() > 0 and (qtm >= htm).all()  # a quarter-turn path is never shorter


def test_solved_is_bounded_by_zero_and_one_corner_turn_by_one():
    assert corner_bound(SOLVED[:, None], "htm")[0] == 0
    one_turn = np.stack([apply_sequence(SOLVED, [m]) for m in range(18)], axis=1)
    assert (corner_bound(one_turn, "htm") == 1).all()
    half_turns = [m for m in range(18) if m % 3 == 1]  # U2, R2, ...: two quarter turns
    assert (corner_bound(one_turn[:, half_turns], "qtm") == 2).all()
