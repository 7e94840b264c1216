"""Other puzzles through the house: suites name their puzzle, solvers declare theirs, the
runner refuses a mismatch before anything starts, and the verdict replays on the right cube."""

from __future__ import annotations

import json

import pytest

from cubebench.harness.cube.puzzle import puzzle
from cubebench.harness.runner import RunConfig, SolverSpec, run
from cubebench.harness.solver import ArgumentError
from cubebench.harness.suites.catalog import load_suite, register_user_suite
from cubebench.harness.suites.model import Instance, SuiteError
from tests.harness.bench_process import bench

SCRAMBLES = ["R U", "F2 D'", "L B' U2", "R L'"]


def _instances() -> list[Instance]:
    cube = puzzle("cube2")
    return [
        Instance(i, "".join("URFDLB"[c] for c in cube.apply(cube.solved, cube.parse_moves(s))), s)
        for i, s in enumerate(SCRAMBLES)
    ]


@pytest.fixture
def cube2_suite(isolated_home) -> str:
    register_user_suite("pocket", _instances(), {"source": "test", "puzzle": "cube2"})
    return "pocket"


def _config(tmp_path, suite: str, *solvers: str) -> RunConfig:
    return RunConfig(
        solvers=tuple(SolverSpec(f"tests.fakes:{s}") for s in solvers),
        suites=(suite,),
        out=str(tmp_path / "runs"),
        workers=1,
    )


def test_a_2x2x2_suite_runs_and_every_answer_is_replayed_on_the_2x2x2(tmp_path, cube2_suite):
    assert load_suite(cube2_suite).puzzle == "cube2"
    store = run(_config(tmp_path, cube2_suite, "ShallowCube2", "WrongCube2"), show_progress=False)
    records = {(r.entry.split(":")[1], r.instance): r for r in store.read_records()}
    lengths = [records["ShallowCube2", i].length_htm for i in range(len(SCRAMBLES))]
    assert [records["ShallowCube2", i].status for i in range(4)] == ["solved"] * 4
    assert lengths == [2, 2, 3, 0]  # "R L'" is a turn of the whole cube: solved as it is
    assert records["ShallowCube2", 1].length_qtm == 3
    assert {records["WrongCube2", i].status for i in range(3)} == {"wrong"}
    assert store.manifest.suites[cube2_suite].meta["puzzle"] == "cube2"


def test_a_solver_is_refused_on_another_puzzles_suite_before_any_folder(tmp_path, cube2_suite):
    with pytest.raises(ArgumentError, match=r"solver tests.fakes:Right solves cube3; suite "
                       r"pocket is cube2: give it a cube2 solver"):  # fmt: skip
        run(_config(tmp_path, cube2_suite, "ShallowCube2", "Right"), show_progress=False)
    assert not (tmp_path / "runs").exists()


def test_a_move_id_past_the_puzzles_moves_is_illegal(tmp_path, isolated_home):
    register_user_suite("three", [Instance(0, "".join(f * 9 for f in "URFDLB"))], {})
    store = run(_config(tmp_path, "three", "WrongCube2"), show_progress=False)
    (record,) = store.read_records()
    assert record.status == "illegal" and "0..17" in (record.error or "")


def test_a_suite_file_of_24_letter_cubes_is_a_2x2x2_suite_and_its_pieces_are_checked(tmp_path):
    path = tmp_path / "mine.jsonl"
    path.write_text("".join(i.to_json() + "\n" for i in _instances()))
    assert load_suite(str(path)).puzzle == "cube2"
    bad = _instances()[0].facelets.replace("U", "X", 1)
    path.write_text(json.dumps({"id": 0, "facelets": bad}) + "\n")
    with pytest.raises(SuiteError, match=r"mine.jsonl line 1 \(id 0\): letter 'X'"):
        load_suite(str(path))


def test_bench_solve_takes_a_puzzle_and_refuses_a_solver_of_another(isolated_home):
    solved = bench("solve", "R U2", "--puzzle", "cube2", "-s", "tests.fakes:ShallowCube2")
    assert solved.returncode == 0, solved.stderr
    assert "solution: U2 R'" in solved.stdout and "length:   2 HTM, 3 QTM" in solved.stdout
    refused = bench("solve", "--facelets", _instances()[0].facelets)
    assert refused.returncode == 2
    assert refused.stderr.strip() == "error: solver kociemba solves cube3, not cube2"


def test_a_run_over_two_puzzles_ends_with_one_table_a_puzzle(tmp_path, cube2_suite):
    import io

    from rich.console import Console

    from cubebench.harness.cli.show import print_closing

    register_user_suite("three", [Instance(0, "".join(f * 9 for f in "URFDLB"))], {})
    config = RunConfig(
        solvers=(SolverSpec("tests.fakes:WrongCube2"),),
        suites=(cube2_suite, "three"),
        out=str(tmp_path / "runs"),
        workers=1,
    )
    store = run(config, show_progress=False, run_id="both")
    shown = io.StringIO()
    print_closing(store, Console(file=shown, width=100))
    text = shown.getvalue()
    assert "run both (cube2): solved" in text and "run both: solved" in text
    cube2_table, cube3_table = text.split("run both: solved")[0], text.split("run both: solved")[1]
    assert "pocket" in cube2_table and "three" not in cube2_table and "three" in cube3_table


def _two_puzzles(tmp_path, cube2_suite: str) -> RunConfig:
    """A 3×3×3 suite of one solved cube and the 2×2×2 suite, each with an entry of its own."""
    register_user_suite("three", [Instance(0, "".join(f * 9 for f in "URFDLB"))], {})
    return RunConfig(
        solvers=(SolverSpec("tests.fakes:Right"), SolverSpec("tests.fakes:ShallowCube2")),
        suites=("three", cube2_suite),
        out=str(tmp_path / "runs"),
        workers=1,
    )


def test_each_entry_runs_the_suites_of_its_own_puzzle(tmp_path, cube2_suite):
    config = _two_puzzles(tmp_path, cube2_suite)
    store = run(config, show_progress=False)
    pairs = {(r.entry.split(":")[1], r.suite) for r in store.read_records()}
    assert pairs == {("Right", "three"), ("ShallowCube2", cube2_suite)}
    assert len(store.read_records()) == 1 + len(SCRAMBLES)


def test_a_suite_no_entry_solves_is_refused_before_any_folder(tmp_path, cube2_suite):
    register_user_suite("three", [Instance(0, "".join(f * 9 for f in "URFDLB"))], {})
    config = RunConfig(
        solvers=(SolverSpec("tests.fakes:Right"),),
        suites=("three", cube2_suite),
        out=str(tmp_path / "runs"),
        workers=1,
    )
    with pytest.raises(ArgumentError, match=r"suite pocket is cube2, and no entry of the run "
                       r"\(tests.fakes:Right\) solves cube2"):  # fmt: skip
        run(config, show_progress=False)
    assert not (tmp_path / "runs").exists()


def test_a_4x4x4_runs_report_lists_each_cubes_answers_in_its_notation(tmp_path, isolated_home):
    from cubebench.harness.report.render import write_report

    config = RunConfig(
        solvers=(SolverSpec("random"),),
        suites=("cube4-depth-01-v1",),
        limit=3,
        out=str(tmp_path / "runs"),
        workers=1,
    )
    store = run(config, show_progress=False, run_id="four")
    records = store.read_records()
    assert [r.status for r in records] == ["solved"] * 3
    write_report([store.folder], tmp_path / "report")
    pages = sorted((tmp_path / "report" / "cubes").rglob("*.html"))
    assert len(pages) == 3
    text = pages[0].read_text()
    assert records[0].moves in text and "cube-data" not in text  # no 3×3×3 replay
    assert load_suite("cube4-depth-01-v1", limit=1).instances[0].facelets in text


def test_a_report_of_a_run_over_two_puzzles_is_one_report_a_puzzle(tmp_path, cube2_suite):
    from cubebench.harness.report.render import write_report

    config = _two_puzzles(tmp_path, cube2_suite)
    store = run(config, show_progress=False, run_id="mixed")
    index = write_report([store.folder], tmp_path / "report")
    assert "cube2: cube2/" in index.read_text()
    rows = {
        name: [line for line in (folder / "index.md").read_text().splitlines() if line[:1] == "|"]
        for name, folder in (
            ("main", tmp_path / "report"),
            ("cube2", tmp_path / "report" / "cube2"),
        )
    }
    assert any("three" in r for r in rows["main"]) and not any(
        cube2_suite in r for r in rows["main"]
    )
    assert any(cube2_suite in r for r in rows["cube2"]) and not any(
        "three" in r for r in rows["cube2"]
    )
