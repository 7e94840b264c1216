"""Bad input a careless or hostile user gives: one line naming the value, exit 2, and
nothing written or lost."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

from tests.harness.bench_process import bench, pausing_run

ONE_SUITE = ("--suite", "depth-01-v1", "--limit", "2", "--quiet", "--no-report")


def _one_line_error(result, *fragments: str) -> None:
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


@pytest.mark.parametrize("run_id", ["../escaped", "a/b", "/tmp/absolute-run", "x" * 300, ".."])
def test_a_run_id_is_one_plain_name(tmp_path, run_id):
    out = tmp_path / "out"
    result = bench("run", "-s", "kociemba", *ONE_SUITE, "--out", str(out), "--run-id", run_id)
    _one_line_error(result, "--run-id")
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # not even --out was made


def test_names_that_would_become_paths_are_refused(tmp_path, isolated_home):
    long = "s" * 300
    _one_line_error(bench("run", "-s", "kociemba", "--suite", long, "--out", str(tmp_path)))
    text = tmp_path / "c.txt"
    text.write_text("R U\n")
    _one_line_error(bench("suites", "import", "text", str(text), "--name", long), "suite name")
    _one_line_error(bench("suites", "import", "text", str(text), "--name", "../up"), "suite name")


def test_resume_refuses_options_it_would_ignore_and_may_extend_the_limit(tmp_path):
    out = tmp_path / "runs"
    assert bench(*pausing_run(out, "r", 4, pause=0.0)).returncode == 0
    folder = str(out / "r")
    for option in (
        ["--suite", "depth-05-v1"],
        ["-s", "kociemba"],
        ["--time-limit", "5"],
        ["--out", str(tmp_path)],
        ["--set", "pause=1"],
        ["--max-nodes", "9"],
    ):
        result = bench("run", "--resume", folder, *option, "--quiet")
        _one_line_error(result, f"{option[0] if option[0] != '-s' else '--solver'} cannot be given")
    _one_line_error(bench("run", "--resume", folder, "--limit", "2"), "only extend")
    _one_line_error(bench("run", "--resume", folder, "--limit", "7", "--workers", "0"), "workers")
    manifest = json.loads((out / "r" / "manifest.json").read_text())
    assert manifest["config"]["limit"] == 4 and "resumed" not in manifest  # nothing written
    extended = bench(
        "run", "--resume", folder, "--limit", "7", "--workers", "1", "--quiet", "--no-report"
    )
    assert extended.returncode == 0, extended.stderr
    records = (out / "r" / "records.jsonl").read_text().splitlines()
    assert len(records) == 7
    manifest = json.loads((out / "r" / "manifest.json").read_text())
    assert manifest["config"]["limit"] == 7 and manifest["config"]["workers"] == 1
    (part,) = manifest["resumed"]
    assert part["workers"] == 1 and part["machine"]["cpu"] == manifest["machine"]["cpu"]


def test_out_that_is_a_file_or_under_one(tmp_path):
    afile = tmp_path / "file"
    afile.write_text("x")
    _one_line_error(bench("run", "-s", "kociemba", *ONE_SUITE, "--out", str(afile)), str(afile))
    assert bench(*pausing_run(tmp_path / "runs", "r", 2, pause=0.0)).returncode == 0
    run = str(tmp_path / "runs" / "r")
    _one_line_error(bench("report", run, "--out", str(afile)), "is a file")
    _one_line_error(bench("report", run, "--out", str(afile / "sub")), "cannot write --out")
    _one_line_error(bench("report", run, run), "given twice")
    _one_line_error(
        bench("report", run, "--first", "0", "--out", str(tmp_path / "r0")), "--first 0"
    )
    assert not (tmp_path / "r0").exists()
    _one_line_error(bench("site", run, "--out", str(afile)), "is a file")
    assert afile.read_text() == "x"
    made = bench("site", run, "--out", str(tmp_path / "site"))
    assert made.returncode == 0, made.stderr
    pages = sorted(p.relative_to(tmp_path / "site") for p in (tmp_path / "site").rglob("*.html"))
    assert made.stdout.strip().endswith(f"({len(pages)} pages)")
    assert {p.parts[0] for p in pages} == {"index.html", "entries", "cells", "cubes"}


def test_a_manifest_edited_to_name_a_suite_it_does_not_pin(tmp_path):
    assert bench(*pausing_run(tmp_path, "r", 2, pause=0.0)).returncode == 0
    path = tmp_path / "r" / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["config"]["suites"].append("depth-04-v1")
    manifest["finished"] = None
    path.write_text(json.dumps(manifest))
    _one_line_error(bench("run", "--resume", str(tmp_path / "r")), "does not pin it")


def test_a_plugin_name_that_is_not_a_class(tmp_path):
    result = bench("run", "-s", "os:system", *ONE_SUITE, "--out", str(tmp_path))
    _one_line_error(result, "os:system is a builtin_function_or_method, not a solver class")


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--set", "max_length=10000000000"], "max_length=10000000000 must be ≤ 30"),
        (["--memory-limit-gb", "1e-9"], "below 0.25 GB"),
        (["--set", "seed=99999999999999999999"], "must be ≤ 4294967295"),
    ],
)
def test_arguments_no_instance_could_run_with_are_refused_first(tmp_path, args, fragment):
    out = tmp_path / "out"
    _one_line_error(bench("run", "-s", "kociemba", *ONE_SUITE, "--out", str(out), *args), fragment)
    assert not out.exists()


def test_a_run_that_fails_every_instance_alike_stops_with_the_reason(tmp_path):
    result = bench(
        "run", "-s", "tests.fakes:Crashing", "--suite", "depth-05-v1", "--limit", "200",
        "--workers", "1", "--out", str(tmp_path), "--run-id", "r", "--quiet",
    )  # fmt: skip
    _one_line_error(result, "RuntimeError: boom in the solver", "the run stopped")
    assert len((tmp_path / "r" / "records.jsonl").read_text().splitlines()) < 10


@pytest.mark.parametrize(
    ("solver", "status"),
    [
        ("Hanging", "status:   timeout (killed after"),
        ("Dying", "status:   error (worker exited with code 3)"),
        ("Crashing", "status:   error (RuntimeError: boom in the solver)"),
        ("Endless", "status:   unsolved (an answer of 5000000 moves"),
    ],
)
def test_solve_runs_the_solver_under_outside_limits(solver, status):
    result = bench("solve", "R U F", "-s", f"tests.fakes:{solver}", "--time-limit", "1")
    assert result.returncode == 1
    assert status in result.stdout and "Traceback" not in result.stderr + result.stdout


def test_the_summary_names_the_folder_it_reads(tmp_path):
    assert bench(*pausing_run(tmp_path, "old-name", 2, pause=0.0)).returncode == 0
    (tmp_path / "old-name").rename(tmp_path / "new-name")
    shown = bench("show", str(tmp_path / "new-name"))
    assert shown.returncode == 0 and "run new-name" in shown.stdout


def test_a_deepcubea_pickle_that_asks_for_a_terabyte(tmp_path, isolated_home):
    class Huge:
        def __reduce__(self):
            return (np.ndarray, ((10**12,), np.dtype("u1")))

    path = tmp_path / "huge.pkl"
    path.write_bytes(pickle.dumps({"states": [Huge()]}))
    result = bench("suites", "import", "deepcubea", str(path), "--name", "huge")
    _one_line_error(result, "asks for an array of shape (1000000000000,)")


def test_a_deepcubea_pickle_of_millions_of_small_objects_is_refused_before_it_is_built(
    tmp_path, isolated_home
):
    """8 MB of EMPTY_SET opcodes: 2 GB once built, refused while only read."""
    path = tmp_path / "sets.pkl"
    path.write_bytes(pickle.PROTO + bytes([4]) + pickle.EMPTY_SET * 8_000_000 + pickle.STOP)
    result = bench("suites", "import", "deepcubea", str(path), "--name", "sets")
    _one_line_error(result, "would build more than 2,000,000 objects")


# -- the newer commands' inputs --------------------------------------------------------


def test_compare_csv_into_a_missing_or_unwritable_folder_is_one_line(tmp_path):
    assert bench(*pausing_run(tmp_path / "runs", "r", 2, pause=0.0)).returncode == 0
    run = str(tmp_path / "runs" / "r")
    pair = ["compare", run, "--base", "tests.fakes:Pausing", "--new", "tests.fakes:Pausing"]
    missing = bench(*pair, "--csv", str(tmp_path / "nowhere" / "t.csv"))
    _one_line_error(missing, "--csv", "does not exist")
    _one_line_error(bench(*pair, "--csv", str(tmp_path)), "--csv", "is a folder")


@pytest.mark.parametrize("kind", ["file", "under a file"])
def test_runs_import_out_that_cannot_hold_runs_is_one_line(tmp_path, kind):
    afile = tmp_path / "file"
    afile.write_text("x")
    answers = tmp_path / "a.txt"
    answers.write_text(
        "".join(
            f"State: {i}, SolnCost: 3.00, # Moves: 3, # Nodes Gen: 1, Time: 1\n"
            for i in range(1000)
        )
    )
    out = afile if kind == "file" else afile / "sub"
    result = bench("runs", "import", "deepcubea-output", str(answers), "--suite", "depth-03-v1",
                   "--out", str(out))  # fmt: skip
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert afile.read_text() == "x"


@pytest.mark.parametrize("moves", [1001, 60_000])
def test_solve_refuses_a_scramble_past_a_thousand_moves(moves):
    _one_line_error(bench("solve", " ".join(["R"] * moves)), f"{moves} moves", "at most 1000")


@pytest.mark.parametrize(
    "text", ["depth-01-v1:1000000000", "depth-01-v1:٣", "depth-01-v1:", ":-1", "depth-01-v1:5:6"]
)
def test_a_suite_with_a_count_is_read_exactly(tmp_path, text):
    result = bench("run", "-s", "kociemba", "--suite", text, "--out", str(tmp_path), "--quiet")
    _one_line_error(result, "--suite")
    assert list(tmp_path.iterdir()) == []


def test_annotate_refuses_an_infinite_time_limit_before_loading(isolated_home):
    result = bench("suites", "annotate", "depth-11-v1", "--optimal", "--time-limit", "inf")
    _one_line_error(result, "--time-limit inf")
    assert not (isolated_home / "cache" / "optimal").exists()  # no table was built


def test_an_automatic_run_id_is_a_plain_name_whatever_the_solver_is_called(tmp_path):
    result = bench("run", "-s", "tests.fakes:Right", "--suite", "depth-01-v1:1", "--out",
                   str(tmp_path), "--quiet", "--no-report")  # fmt: skip
    assert result.returncode == 0, result.stderr
    (folder,) = tmp_path.iterdir()
    assert folder.name.endswith("-tests.fakes.Right")


@pytest.mark.parametrize(
    ("field", "value"),
    [("length_htm", "12"), ("instance", 10**30), ("wall_s", float("nan")), ("solver", "ghost")],
)
def test_hand_edited_records_are_one_line_in_every_view(tmp_path, field, value):
    assert bench(*pausing_run(tmp_path / "runs", "r", 2, pause=0.0)).returncode == 0
    path = tmp_path / "runs" / "r" / "records.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    lines[1][field] = value
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    for command in (["show"], ["report", "--out", str(tmp_path / "rep")],
                    ["site", "--out", str(tmp_path / "site")]):  # fmt: skip
        result = bench(command[0], str(tmp_path / "runs" / "r"), *command[1:])
        _one_line_error(result, field if field != "solver" else "'ghost'")
