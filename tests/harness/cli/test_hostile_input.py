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
