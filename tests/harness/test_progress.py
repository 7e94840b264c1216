"""What a run says as it goes: its plan first, each entry's ETA, a line per finished cell,
and nothing at all redone by a resume of a finished run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cubebench.harness import progress as progress_module
from cubebench.harness.progress import RunProgress
from cubebench.harness.records.schema import Record
from cubebench.harness.runner import NothingToDoError, RunConfig, SolverSpec, resume, run

ROOT = Path(__file__).resolve().parents[2]


def _bench(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "from cubebench.harness.cli.main import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
    )


def test_a_run_opens_with_its_id_plan_and_budget_and_labels_a_sweep_by_entry(tmp_path):
    result = _bench(
        "run", "-s", "kociemba", "--sweep", "max_length=22,24", "--suite", "depth-03-v1:4",
        "--suite", "depth-05-v1:4", "--out", str(tmp_path), "--run-id", "swept",
        "--time-limit", "30", "--no-report", cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"run swept -> {tmp_path / 'swept'}"
    assert lines[1] == (
        "plan: 2 entries × 2 suites, 16 cubes (kociemba[max_length=22] 8, "
        "kociemba[max_length=24] 8); entries run one after another"
    )
    assert lines[2] == "budget: 30 s a cube (CPU time), 2 worker(s) an entry, 8 GB a worker"
    done = [line.split("  done ")[1].split(":")[0] for line in lines if "  done " in line]
    assert sorted(done) == sorted(
        f"kociemba[max_length={n}] · depth-0{d}-v1" for n in (22, 24) for d in (3, 5)
    )


def _record(entry: str, i: int) -> Record:
    return Record(entry, "s", i, "solved", "R", 1, 1, wall_s=0.1)


def test_the_running_entry_has_an_eta_from_its_own_pace(monkeypatch, capsys):
    now = [0.0]
    monkeypatch.setattr(progress_module.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(progress_module, "PLAIN_EVERY_S", 0.0)
    totals = {("fast", "s"): 10, ("slow", "s"): 4}
    progress = RunProgress(totals, [], enabled=True)
    progress.plain = True  # as into a pipe, whatever pytest's terminal is
    with progress:
        now[0] = 10.0
        progress.start_entry("fast")
        assert progress.eta() is None  # nothing measured yet
        for i, t in enumerate((12.0, 14.0)):
            now[0] = t
            progress.update(_record("fast", i))
        # two cubes in 4 s since the entry began: the eight left take 16 s at that pace
        assert progress.eta() == 16.0
    out = capsys.readouterr().out
    assert "0:00:10  fast: 10 cubes to go" in out
    assert "0:00:14  2/14 records; fast: 2/10, ETA 0:00:16" in out


def test_a_resume_of_a_finished_run_changes_nothing(tmp_path):
    config = RunConfig(
        solvers=(SolverSpec("tests.fakes:Right"),), suites=("depth-03-v1",), limit=3,
        out=str(tmp_path),
    )  # fmt: skip
    store = run(config, show_progress=False, run_id="done")
    files = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in store.folder.iterdir()}
    with pytest.raises(NothingToDoError, match="nothing to do"):
        resume(store.folder, show_progress=False)
    after = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in store.folder.iterdir()}
    assert after == files
    cli = _bench("run", "--resume", str(store.folder), cwd=tmp_path)
    assert cli.returncode == 0 and "nothing to do" in cli.stdout
    assert {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in store.folder.iterdir()} == files


def test_the_closing_table_fits_100_columns_in_a_pipe_and_names_the_whole_matrix(tmp_path):
    suites = [f"depth-{d:02d}-v1:2" for d in (1, 3, 5, 7, 10, 12, 15, 18, 20)]
    args = [a for s in suites for a in ("--suite", s)]
    result = _bench(
        "run", "-s", "kociemba", "-s", "random", "-s", "tests.fakes:Right", *args,
        "--suite", "random-state-v1:2", "--out", str(tmp_path), "--run-id", "wide",
        "--no-report", cwd=ROOT,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    closing = result.stdout[result.stdout.index("run wide: solved") :].splitlines()
    assert max(len(line) for line in closing) <= 100
    assert any("┃ random-state" in line for line in closing)  # the most telling suite first
    tail = " ".join(x.strip() for x in closing[-3:])
    assert f"5 more suites: bench show {tmp_path / 'wide'} --matrix" in tail
    matrix = _bench("show", str(tmp_path / "wide"), "--matrix", cwd=ROOT)
    assert all(f"depth-{d:02d}-v1" in matrix.stdout for d in (1, 3, 5, 7, 10, 12, 15, 18, 20))
