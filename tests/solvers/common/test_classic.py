"""The classic C solvers of passagemath-rubiks as built-in program solvers: their formats,
and each solving real cubes through its driver, every answer replayed by the harness."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cubebench.harness.cube import (
    SOLVED,
    SOLVED_FACELETS,
    apply_sequence,
    facelets_to_state,
    state_to_facelets,
)
from cubebench.harness.runner import RunConfig, SolverSpec, run
from cubebench.harness.suites.catalog import load_suite
from cubebench.harness.suites.oracle import DistanceOracle
from cubebench.solvers.common.classic import (
    REID_POSITIONS,
    dietz_colours,
    reid_cube,
    winter_net,
)

needs_wheel = pytest.mark.skipif(
    importlib.util.find_spec("passagemath_rubiks") is None,
    reason="passagemath-rubiks is not installed here (pip install 'cubebench[classic]')",
)


def test_a_solved_cube_reads_as_each_programs_own_solved_cube():
    assert reid_cube(SOLVED_FACELETS) == " ".join(REID_POSITIONS)
    assert winter_net(SOLVED_FACELETS) == "1" * 9 + "222333444555" * 3 + "6" * 9
    assert dietz_colours(SOLVED_FACELETS) == "".join(d * 9 for d in "123456")


@given(st.lists(st.integers(0, 17), max_size=30))
def test_each_format_reads_every_sticker_once(sequence):
    facelets = state_to_facelets(apply_sequence(SOLVED, sequence))
    stickers = [c for i, c in enumerate(facelets) if i % 9 != 4]  # Reid lists no centres
    assert sorted(reid_cube(facelets).replace(" ", "")) == sorted(stickers)
    assert sorted(winter_net(facelets)) == sorted("123456" * 9)
    assert sorted(dietz_colours(facelets)) == sorted("123456" * 9)


@needs_wheel
def test_the_three_classic_programs_solve_depth_five_and_reids_lengths_are_optimal(
    tmp_path, oracle_tables
):
    entries = tuple(SolverSpec(n) for n in ("reid-optimal", "winter-kociemba", "dietz-cubex"))
    config = RunConfig(
        solvers=entries,
        suites=("depth-05-v1",),
        suite_limits={"depth-05-v1": 20},
        out=str(tmp_path / "runs"),
        time_limit=60.0,
    )
    records = run(config, show_progress=False, run_id="classic").read_records()
    assert len(records) == 60
    assert all(r.status == "solved" for r in records), [r.error for r in records][:3]
    reid = sorted((r for r in records if r.entry == "reid-optimal"), key=lambda r: r.instance)
    assert all(r.metric == "qtm" and r.cpu_s is not None for r in reid)
    # its lengths are the exact quarter-turn distances, from a breadth-first oracle
    suite = load_suite("depth-05-v1", limit=20)
    cubes = np.stack([facelets_to_state(i.facelets) for i in suite.instances], axis=1)
    oracle = DistanceOracle.cached(5, oracle_tables, metric="qtm")
    distances, exact = oracle.distances(cubes, max_levels=5)
    assert exact.all()
    assert [r.length_qtm for r in reid] == distances.tolist()


@pytest.mark.parametrize(("name", "size"), [("cube2", 2), ("cube4", 4)])
def test_dietz_colours_reads_the_other_sizes_face_by_face(name, size):
    from cubebench.harness.cube.puzzle import puzzle

    cube = puzzle(name)
    solved = "".join("URFDLB"[c] for c in cube.solved)
    assert dietz_colours(solved) == "".join(d * size * size for d in "123456")


def test_dietz_words_are_quarter_turns_and_a_report_without_a_solution_says_why():
    from cubebench.solvers.common.classic import dietz_answer

    report = (
        "200 cube solved ok.\n210 sending solution:\n*** press enter to continue ***right up\n"
        "inner bottom left\nback clockwise\n*** press enter to continue ***211 completed solution."
    )
    assert dietz_answer(report) == {"moves": "R 2D' B'"}
    assert dietz_answer("510 ERROR: non-protocol input entered.\n")["moves"] is None


@needs_wheel
@pytest.mark.parametrize(
    ("entry", "suite"),
    [("dietz-cu2", "cube2-random-state-v1"), ("dietz-mcube", "cube4-depth-05-v1")],
)
def test_dietzs_programs_for_the_other_sizes_solve_their_suites(tmp_path, entry, suite):
    config = RunConfig(
        solvers=(SolverSpec(entry),),
        suites=(suite,),
        suite_limits={suite: 10},
        out=str(tmp_path / "runs"),
        time_limit=60.0,
    )
    records = run(config, show_progress=False, run_id="other-sizes").read_records()
    assert [r.status for r in records] == ["solved"] * 10, [r.error for r in records][:3]
    assert all(r.metric == "qtm" and r.length_qtm for r in records)
