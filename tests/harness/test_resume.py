"""SIGKILL mid-run, then resume: nothing finished is lost, nothing is done twice."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cubebench.harness.records.schema import RecordError
from cubebench.harness.records.store import RunStore
from cubebench.harness.runner import RunConfig, SolverSpec, resume, run

ROOT = Path(__file__).resolve().parents[2]


def _start_run(out: Path, run_id: str, suite: str, limit: int, workers: int, *extra: str, **popen):
    """``bench run`` of the pausing fake in a child process; ``extra``: more options."""
    command = [
        sys.executable,
        "-c",
        "from cubebench.harness.cli.main import main; main()",
        "run",
        "--solver",
        "tests.fakes:Pausing",
        "--set",
        "pause=0.05",
        "--suite",
        suite,
        "--limit",
        str(limit),
        "--workers",
        str(workers),
        "--out",
        str(out),
        "--run-id",
        run_id,
        "--quiet",
        "--no-report",
        *extra,
    ]
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        **popen,
    )


def _wait_for_records(path: Path, count: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().count("\n") >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"{path} never reached {count} records")


def test_sigkill_then_resume_loses_and_duplicates_nothing(tmp_path, isolated_home):
    out = tmp_path / "runs"
    proc = _start_run(out, "killed", "depth-04-v1", 100, 1, start_new_session=True)
    records = out / "killed" / "records.jsonl"
    _wait_for_records(records, 15)
    os.killpg(proc.pid, signal.SIGKILL)  # the parent and its workers, no chance to clean up
    proc.wait(timeout=10)
    before = [line for line in records.read_text().split("\n") if line.endswith("}")]
    assert 15 <= len(before) < 100

    store = resume(out / "killed", show_progress=False)
    after = store.read_records()
    keys = [r.key for r in after]
    assert len(keys) == len(set(keys)) == 100
    lines = records.read_text().splitlines()
    assert lines[: len(before)] == before  # finished records untouched
    assert all(r.status == "solved" for r in after)
    assert RunStore(out / "killed").read_manifest().finished


def test_ctrl_c_stops_cleanly_and_the_run_resumes(tmp_path, isolated_home):
    out = tmp_path / "runs"
    # a shell starts background jobs with SIGINT ignored, and children inherit that; a user
    # pressing Ctrl-C has it at its default, so give the run that
    proc = _start_run(
        out,
        "stopped",
        "depth-03-v1",
        120,
        2,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    records = out / "stopped" / "records.jsonl"
    _wait_for_records(records, 10)
    proc.send_signal(signal.SIGINT)  # what Ctrl-C sends to the parent
    _, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert "interrupted; resume with: bench run --resume" in stderr and "Traceback" not in stderr
    manifest = RunStore(out / "stopped").read_manifest()
    assert manifest.interrupted and not manifest.finished
    store = resume(out / "stopped", show_progress=False)
    keys = [r.key for r in store.read_records()]
    assert len(keys) == len(set(keys)) == 120


def _cut_short(folder: Path, keep: int, **solver_meta) -> None:
    """Make a finished run look interrupted after ``keep`` records (and edit its pins)."""
    records = folder / "records.jsonl"
    records.write_text("".join(records.read_text().splitlines(keepends=True)[:keep]))
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["finished"] = None
    manifest["solvers"]["tests.fakes:Right"].update(solver_meta)
    (folder / "manifest.json").write_text(json.dumps(manifest))


def _small_run(tmp_path: Path) -> Path:
    config = RunConfig(
        solvers=(SolverSpec("tests.fakes:Right"),),
        suites=("depth-02-v1",),
        limit=6,
        workers=1,
        out=str(tmp_path / "runs"),
    )
    return run(config, show_progress=False, run_id="part").folder


def test_the_solver_is_pinned_at_load_and_every_resume_is_recorded(tmp_path, isolated_home):
    folder = _small_run(tmp_path)
    manifest = RunStore(folder).read_manifest()
    pinned = manifest.solvers["tests.fakes:Right"].pinned
    assert "checkpoint_sha256" in pinned and pinned["checkpoint_sha256"] is None  # a fake's
    assert manifest.resumed == ()
    assert "resumed" not in json.loads((folder / "manifest.json").read_text())

    _cut_short(folder, 2)
    resume(folder, show_progress=False)
    manifest = RunStore(folder).read_manifest()
    assert len(RunStore(folder).read_records()) == 6
    (part,) = manifest.resumed
    assert part["git"] == manifest.git and part["at"] > manifest.started


def test_resuming_with_another_checkpoint_is_refused(tmp_path, isolated_home):
    folder = _small_run(tmp_path)
    _cut_short(folder, 2, checkpoint_sha256="ab" * 32)
    with pytest.raises(RecordError, match=r"loaded checkpoint None… .* came from ababababab"):
        resume(folder, show_progress=False)
    assert len(RunStore(folder).read_records()) == 2  # nothing written under the wrong weights
