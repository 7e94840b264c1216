"""The 2×2×2's exact distances: the published counts, and a breadth-first check from scratch."""

from __future__ import annotations

import re
import subprocess

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubebench.harness.cube.puzzle import puzzle
from cubebench.harness.suites.cube2_distances import NUM_POSITIONS, cube2_distances

# the distance distribution of the 2×2×2 as published (Wikipedia, "Pocket Cube"; Jaap's
# puzzle page): God's number 11 in face turns, 14 in quarter turns
PUBLISHED_HTM = [1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644]
PUBLISHED_QTM = [1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852,
                 782536, 90280, 276]  # fmt: skip


@pytest.fixture(scope="module")
def table():
    return cube2_distances()


def test_the_counts_per_distance_are_the_published_ones(table):
    assert table.keys.size == NUM_POSITIONS == sum(PUBLISHED_HTM) == sum(PUBLISHED_QTM)
    assert table.counts("htm") == PUBLISHED_HTM
    assert table.counts("qtm") == PUBLISHED_QTM


@pytest.mark.parametrize("metric", ["htm", "qtm"])
def test_the_counts_are_dik_winters_own_enumeration(table, metric):
    """``size222`` (Dik Winter, in passagemath-rubiks) takes no cube: it enumerates the
    2×2×2 group on its own coordinates and prints how many positions lie at each distance.
    Its counts, from code that shares nothing with this table, are the table's."""
    pytest.importorskip("sage_wheels", reason="the classic extra (cubebench[classic])")
    from cubebench.solvers.common.classic import executable

    args = [str(executable("size222")), *(["-q"] if metric == "qtm" else [])]
    out = subprocess.run(args, capture_output=True, text=True, timeout=600, check=True).stdout
    counts = [int(n) for n, _ in re.findall(r"^\s*(\d+) with\s+(\d+) turns", out, re.M)]
    assert counts == table.counts(metric)


def _brute_distance(state: np.ndarray, metric: str, limit: int) -> int:
    """Breadth-first over all 18 (or 12) turns, every orientation: the table's check."""
    cube = puzzle("cube2")
    frontier = state[:, None]
    for depth in range(limit + 1):
        if cube.is_solved(frontier).any():
            return depth
        moves = cube.metrics[metric]
        frontier = np.unique(frontier[cube.tables[list(moves)].T].reshape(24, -1), axis=1)
    raise AssertionError("deeper than the limit")


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 17), max_size=5), st.sampled_from(["htm", "qtm"]))
def test_a_shallow_cube_in_any_orientation_has_its_breadth_first_distance(table, moves, metric):
    cube = puzzle("cube2")
    state = cube.apply(cube.solved, moves)
    expected = _brute_distance(state, metric, limit=10)
    assert int(table.distances(state[:, None], metric)[0]) == expected


def test_a_rotated_cube_has_its_unrotated_distance(table):
    cube = puzzle("cube2")
    scramble = cube.parse_moves("R U2 F' R' U F2 R2 U'")
    state = cube.apply(cube.solved, scramble)
    turned = cube.apply(state, cube.parse_moves("R L' U D'"))  # two whole-cube rotations
    for metric in ("htm", "qtm"):
        assert table.distances(turned[:, None], metric) == table.distances(state[:, None], metric)


def test_a_state_that_is_no_position_is_refused(table):
    state = puzzle("cube2").solved.copy()
    state[[0, 4]] = state[[4, 0]]  # a U and an R sticker swapped
    with pytest.raises(ValueError, match="state 0 is not a 2×2×2 position"):
        table.distances(state[:, None], "htm")


def test_the_counts_are_cayleypys_own_breadth_first_layers(table):
    """An independent search: CayleyPy's layer sizes of its 2×2×2 with one corner fixed."""
    cayleypy = pytest.importorskip("cayleypy", reason="the peers extra (cubebench[peers])")
    growth = cayleypy.load_dataset("puzzles_growth")
    assert table.counts("htm") == list(growth["cube_222_fixed_htm"])
    assert table.counts("qtm") == list(growth["cube_222_fixed_qtm"])
