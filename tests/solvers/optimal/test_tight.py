"""The rule that bans a node's next moves: where the inverse's table value on an axis is the
whole distance left, no optimal solution starts with a turn of that axis.

A turn of axis ``a`` keeps that axis's subgroup, so a solution starting with one would take
the inverse into the subgroup a move early. The walk skips those moves (``lookups.banned``);
here the rule itself is checked against the breadth-first oracle: on shallow cubes, wherever
the inverse's value on an axis equals the cube's exact distance, every turn of that axis
leads to a cube no nearer to solved.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubebench.harness.cube import SOLVED, apply_sequence, invert_states
from cubebench.solvers.optimal import lookups
from cubebench.solvers.optimal.solver import _move_axis
from cubebench.solvers.patterns.coords import AXIS_MOVES

from .small import oracle, small_solver


def _distances(metric: str, cubes: list[np.ndarray]) -> list[int | None]:
    found, exact = oracle(metric).distances(np.stack(cubes, axis=1), 4)
    return [int(f) if e else None for f, e in zip(found, exact, strict=True)]


def test_each_move_is_banned_by_the_axis_it_keeps() -> None:
    axis = _move_axis()
    for m in range(18):
        assert AXIS_MOVES[axis[m], m] // 3 in (0, 3)  # a U or D turn on that axis's image
    turns = np.arange(18)
    for a in range(3):
        assert [bool(lookups.banned(1 << a, m, axis)) for m in turns] == list(axis == a)
        halves = [bool(lookups.banned(8 << a, m, axis)) for m in turns]
        assert halves == list((axis == a) & (turns % 3 == 1))
    assert not any(lookups.banned(0, m, axis) for m in turns)


@pytest.mark.parametrize("metric", ["htm", "qtm"])
@settings(max_examples=80, deadline=None)
@given(moves=st.lists(st.integers(0, 17), min_size=1, max_size=7))
def test_no_optimal_solution_starts_on_an_axis_the_inverse_is_tight_on(
    metric: str, table_folder: str, moves: list[int]
) -> None:
    solver = small_solver(metric, table_folder)
    cube = apply_sequence(SOLVED, moves)
    (distance,) = _distances(metric, [cube])
    if not distance:
        return
    inverse = invert_states(cube.reshape(54, 1))[:, 0]
    row = solver._root(inverse)[0]
    turns = [int(m) for m in solver._moves]
    for a in range(3):
        _, whole = lookups.axis_value(row, a, solver._tables)
        if whole != distance:
            continue
        ends = [m for m in turns if _move_axis()[m] == a]
        after = _distances(metric, [apply_sequence(cube, [m]) for m in ends])
        for m, d in zip(ends, after, strict=True):
            assert d is None or d >= distance, (a, m)
