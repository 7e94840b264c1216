"""A solver that fails every cube costs its cubes, never the run's report or anyone's."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.harness.bench_process import bench, bench_here

FAILURES = {
    "error": "RuntimeError: boom in the solver",
    "timeout": "over the wall budget",
    "memory": "killed: memory above 0.5 GB",
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """A real run of a solver that raises on each of three cubes, a good run on the same
    cubes, and copies of the failing run whose every cube timed out or ran out of memory."""
    out = tmp_path_factory.mktemp("failed-runs")
    crash = bench(
        "run", "-s", "tests.fakes:Crashing", "--suite", "depth-03-v1:3", "--out", str(out),
        "--run-id", "error", "--quiet",
    )  # fmt: skip
    assert crash.returncode == 0, crash.stderr  # the run ends as any run: with its report
    assert (out / "error" / "report" / "index.html").is_file()
    good = bench("run", "-s", "kociemba", "--suite", "depth-03-v1:3", "--out", str(out),
                 "--run-id", "good", "--quiet", "--no-report")  # fmt: skip
    assert good.returncode == 0, good.stderr
    for kind in ("timeout", "memory"):
        folder = out / kind
        shutil.copytree(out / "error", folder, ignore=shutil.ignore_patterns("report"))
        lines = [json.loads(line) for line in (folder / "records.jsonl").read_text().splitlines()]
        status = "timeout" if kind == "timeout" else "error"
        text = "".join(
            json.dumps({**r, "status": status, "error": FAILURES[kind]}) + "\n" for r in lines
        )
        (folder / "records.jsonl").write_text(text)
    return {name: out / name for name in ("error", "timeout", "memory", "good")}


def test_the_failing_run_records_every_cube(runs):
    lines = (runs["error"] / "records.jsonl").read_text().splitlines()
    assert [json.loads(line)["status"] for line in lines] == ["error"] * 3


@pytest.mark.parametrize("kind", ["error", "timeout", "memory"])
def test_every_view_takes_a_run_that_failed_every_cube_alone_and_beside_a_good_one(
    runs, tmp_path, kind
):
    bad, good = str(runs[kind]), str(runs["good"])
    shown = bench_here("show", bad)
    assert shown.returncode == 0, shown.stderr
    assert "0.0%" in shown.stdout
    for together in ([bad], [good, bad]):
        out = tmp_path / f"report-{len(together)}"
        report = bench_here("report", *together, "--out", str(out))
        assert report.returncode == 0, report.stderr
        summary = (out / "summary.csv").read_text()
        assert "tests.fakes:Crashing" in summary
        site = bench_here("site", *together, "--out", str(tmp_path / f"site-{len(together)}"))
        assert site.returncode == 0, site.stderr
        board = bench_here("leaderboard", *together)
        assert board.returncode == 0, board.stderr
    compared = bench_here(
        "compare", good, bad, "--base", "kociemba", "--new", "tests.fakes:Crashing"
    )
    assert compared.returncode == 0, compared.stderr
    assert "-100.0" in compared.stdout  # every cube the baseline solved, lost
    gate = bench_here("compare", good, bad, "--base", "kociemba", "--new", "tests.fakes:Crashing",
                 "--fail-if", "solve_rate<-1pp")  # fmt: skip
    assert gate.returncode == 1 and "FAIL" in gate.stderr
