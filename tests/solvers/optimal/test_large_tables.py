"""The large tables against the breadth-first oracle, where this machine has built them.

They take 1.7 GB (3.4 GB the xlarge ones, 2.6 GB the dense ones) and minutes a metric to
build, so the test command does not build them (its home is fresh); on a machine that has
(``bench suites annotate`` or ``benchmarks/perf/optimal.py`` build them into
``$CUBEBENCH_HOME/cache/optimal``, read here as it is when the tests start, or the folder
``CUBEBENCH_OPTIMAL_TABLES`` names), these tests read
them: a lower bound above a cube's distance would make the solver call a longer answer
optimal, so the bound is checked against the exact distance on shallow cubes, and the
solver's length too. The xlarge table is checked against the large one as well: its two
parities of an entry are the large entry's distance to each half of the large table's goal,
so the smaller of them is the large entry.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubebench.harness.cube import (
    SOLVED,
    apply_sequence,
    facelets_to_state,
    is_solved,
    length_qtm,
    random_states,
)
from cubebench.harness.cube.symmetry import conjugate
from cubebench.harness.paths import cache_dir
from cubebench.harness.solver import Budget
from cubebench.harness.suites.oracle import DistanceOracle
from cubebench.solvers.optimal.solver import OptimalSettings, OptimalSolver
from cubebench.solvers.patterns import dense, flipslice, tables

from ...conftest import SHARED_DATA

TABLES = Path(os.environ.get("CUBEBENCH_OPTIMAL_TABLES") or cache_dir("optimal"))
"""Read at collection, before each test's home is made a fresh folder."""


def _built(metric: str, size: str = "large") -> bool:
    return all((TABLES / tables.file_name(s, metric)).exists() for s in tables.SPECS[size])


@functools.cache
def _solver(metric: str, size: str = "large") -> OptimalSolver:
    return OptimalSolver(OptimalSettings(metric=metric, tables=size), folder=TABLES)


@functools.cache
def _oracle(metric: str) -> DistanceOracle:
    return DistanceOracle.build(4, metric=metric)


SIZES = [("htm", "large"), ("qtm", "large"), ("htm", "xlarge"), ("htm", "dense"), ("qtm", "dense")]


@pytest.mark.parametrize(("metric", "size"), SIZES)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_the_large_bound_never_exceeds_the_distance_and_the_answer_is_it(
    metric, size, data
) -> None:
    if not _built(metric, size):
        pytest.skip(f"the {size} {metric} tables are not built in {TABLES}")
    moves = data.draw(st.lists(st.integers(0, 17), max_size=8))
    cube = apply_sequence(SOLVED, moves)
    found, exact = _oracle(metric).distances(cube.reshape(54, 1), 4)
    if not exact[0]:  # a scramble of 8 face turns can be 9 or more quarter turns away
        return
    distance = int(found[0])
    solver = _solver(metric, size)
    assert solver.lower_bound(cube) <= distance
    answer = solver.solve(cube, Budget(wall_seconds=3600))
    assert is_solved(apply_sequence(cube, list(answer.moves)))
    length = len(answer.moves) if metric == "htm" else length_qtm(list(answer.moves))
    assert length == distance == answer.info[f"optimal_{metric}"]
    if size != "large" and _built(metric):  # a stronger bound meets the same first solution
        assert answer.moves == _solver(metric).solve(cube, Budget(wall_seconds=3600)).moves


def test_the_xlarge_entries_split_the_large_ones_by_parity() -> None:
    if not (_built("htm") and _built("htm", "xlarge")):
        pytest.skip(f"the large and xlarge htm tables are not both built in {TABLES}")
    large = np.asarray(tables.load("large", "htm", TABLES)[0])
    xlarge = np.asarray(tables.load("xlarge", "htm", TABLES)[0])
    index = np.random.default_rng(0).integers(0, 2 * large.size, 1_000_000)  # large entries

    def entries(packed: np.ndarray, i: np.ndarray) -> np.ndarray:
        return (packed[i >> 1] >> ((i & 1) << 2)) & 15

    plain = entries(large, index)
    even, odd = entries(xlarge, 2 * index), entries(xlarge, 2 * index + 1)
    assert (np.minimum(even, odd) == plain).all()
    assert (np.abs(even.astype(int) - odd) <= 1).all()  # a quarter turn apart at most
    assert (np.maximum(even, odd) > plain).any()  # the parity says something


@pytest.mark.parametrize("metric", ["htm", "qtm"])
def test_deeper_than_the_dense_base_the_dense_walk_meets_the_large_walks_answer(metric) -> None:
    """Cubes 16 face turns (no face twice in a row) from a seed, whose bounds pass the dense
    table's base: there the walk reads an entry of 0 as no bound without its small tables,
    and hands its children the inverse's values; the answer must still be the large tables'
    move for move."""
    if not (_built(metric) and _built(metric, "dense")):
        pytest.skip(f"the large and dense {metric} tables are not both built in {TABLES}")
    rng = np.random.default_rng(13)
    for _ in range(3):
        moves: list[int] = []
        while len(moves) < 16:  # no face twice in a row
            m = int(rng.integers(0, 18))
            if not moves or m // 3 != moves[-1] // 3:
                moves.append(m)
        cube = apply_sequence(SOLVED, moves)
        dense_answer = _solver(metric, "dense").solve(cube, Budget(wall_seconds=3600))
        large_answer = _solver(metric).solve(cube, Budget(wall_seconds=3600))
        key = f"optimal_{metric}"
        assert dense_answer.info[key] == large_answer.info[key] > dense.BASE[metric]
        assert dense_answer.moves == large_answer.moves


@pytest.mark.parametrize("metric", ["htm", "qtm"])
def test_a_cube_and_its_conjugates_read_one_dense_entry_value(metric) -> None:
    """Where a corner class's representative is fixed by some symmetries, several entries
    hold one cube; the build must give them all its value (and its conjugates share it)."""
    if not _built(metric, "dense"):
        pytest.skip(f"the dense {metric} tables are not built in {TABLES}")
    packed = np.asarray(tables.load("dense", metric, TABLES)[0])
    cubes = np.asarray(random_states(400, np.random.default_rng(21)))
    fixed = dense.corners().stab[dense.corners().cls[dense.corner_of(cubes)]] > 1
    assert fixed.any()  # some of the cubes test the stabilizer's entries
    codes = dense.code_at(packed, dense.entry_of(cubes))
    for k in flipslice.UD:
        assert (dense.code_at(packed, dense.entry_of(conjugate(cubes, int(k)))) == codes).all()
    assert set(np.unique(codes)) <= {0, 1, 2, 3} and (codes > 0).mean() > 0.9


def _shortest_deepcubea_cubes(count: int) -> list[tuple[int, str, int]]:
    """(id, facelets, published optimum) of the set's ``count`` cubes nearest to solved."""
    path = SHARED_DATA / "deepcubea-cube3-test.jsonl"
    if not path.exists():
        return []
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    rows.sort(key=lambda r: (r["optimal_qtm"], r["id"]))
    return [(r["id"], r["facelets"], r["optimal_qtm"]) for r in rows[:count]]


@pytest.mark.slow
@pytest.mark.parametrize("cube", _shortest_deepcubea_cubes(20), ids=lambda c: f"id{c[0]}")
def test_the_deepcubea_sets_published_quarter_turn_optima(cube, shared_data) -> None:
    """20 cubes of the DeepCubeA test set (16 to 19 quarter turns from solved) against the
    optima its authors' solver published (``-m slow``: minutes of one core in all)."""
    if not _built("qtm"):
        pytest.skip(f"the large qtm tables are not built in {TABLES}")
    _, facelets, published = cube
    answer = _solver("qtm").solve(facelets_to_state(facelets), Budget(wall_seconds=7200))
    assert answer.info.get("optimal_qtm") == published
    assert length_qtm(list(answer.moves)) == published
