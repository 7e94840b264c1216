"""SIGKILL mid-run, then resume: nothing finished is lost, nothing is done twice."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from harness.records.store import RunStore
from harness.runner import resume

ROOT = Path(__file__).resolve().parents[2]


def test_sigkill_then_resume_loses_and_duplicates_nothing(tmp_path, isolated_home):
    out = tmp_path / "runs"
    command = [
        sys.executable,
        "-c",
        "from harness.cli.main import main; main()",
        "run",
        "--solver",
        "tests.fakes:Pausing",
        "--set",
        "pause=0.05",
        "--suite",
        "depth-04-v1",
        "--limit",
        "80",
        "--workers",
        "1",
        "--out",
        str(out),
        "--run-id",
        "killed",
        "--quiet",
    ]
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    records = out / "killed" / "records.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if records.exists() and records.read_text().count("\n") >= 15:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)  # the parent and its workers, no chance to clean up
    proc.wait(timeout=10)
    before = [line for line in records.read_text().split("\n") if line.endswith("}")]
    assert 15 <= len(before) < 80

    store = resume(out / "killed", show_progress=False)
    after = store.read_records()
    keys = [r.key for r in after]
    assert len(keys) == len(set(keys)) == 80
    lines = records.read_text().splitlines()
    assert lines[: len(before)] == before  # finished records untouched
    assert all(r.status == "solved" for r in after)
    assert RunStore(out / "killed").read_manifest()["finished"]


def test_ctrl_c_stops_cleanly_and_the_run_resumes(tmp_path, isolated_home):
    out = tmp_path / "runs"
    command = [
        sys.executable,
        "-c",
        "from harness.cli.main import main; main()",
        "run",
        "--solver",
        "tests.fakes:Pausing",
        "--set",
        "pause=0.05",
        "--suite",
        "depth-03-v1",
        "--limit",
        "60",
        "--workers",
        "2",
        "--out",
        str(out),
        "--run-id",
        "stopped",
        "--quiet",
        "--no-report",
    ]
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    records = out / "stopped" / "records.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if records.exists() and records.read_text().count("\n") >= 10:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)  # what Ctrl-C sends to the parent
    _, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert "interrupted; resume with: bench run --resume" in stderr and "Traceback" not in stderr
    manifest = RunStore(out / "stopped").read_manifest()
    assert manifest["interrupted"] and not manifest["finished"]
    store = resume(out / "stopped", show_progress=False)
    keys = [r.key for r in store.read_records()]
    assert len(keys) == len(set(keys)) == 60
