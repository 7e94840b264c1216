"""Budgets in CPU time: a solver's answer does not depend on what else shares its core."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cubebench.harness.cube import SOLVED, apply_sequence, parse_moves
from cubebench.harness.solver import Budget
from cubebench.harness.verify import RawAttempt, judge

ROOT = Path(__file__).resolve().parents[2]
HOG = "while True: pass"


def _on_core_zero() -> None:  # pragma: no cover - runs in the child, before exec
    os.sched_setaffinity(0, {0})


def _run(tmp_path: Path, run_id: str, *args: str) -> list[dict]:
    command = [sys.executable, "-c", "from cubebench.harness.cli.main import main; main()"]
    command += ["run", "-s", "tests.fakes:CpuWork", "--set", "work=0.3", "--suite"]
    command += ["depth-03-v1:3", "--workers", "1", "--out", str(tmp_path), "--run-id", run_id]
    done = subprocess.run(
        [*command, "--quiet", "--no-report", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        preexec_fn=_on_core_zero,
    )
    assert done.returncode == 0, done.stderr
    lines = (tmp_path / run_id / "records.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="pins processes to a core")
def test_a_cpu_budget_holds_while_a_busy_process_shares_the_core(tmp_path):
    """0.3 CPU s of work a cube, a busy loop on the same core: the CPU budget (2 s, 6x the
    work) is kept whatever the wall clock says; the wall budget (0.2 s, shorter than the
    work on any machine) is not."""
    hog = subprocess.Popen([sys.executable, "-c", HOG], preexec_fn=_on_core_zero)
    try:
        cpu = _run(tmp_path, "cpu", "--time-limit", "2")
        wall = _run(tmp_path, "wall", "--budget", "wall", "--time-limit", "0.2")
    finally:
        hog.kill()
        hog.wait()
    assert [r["status"] for r in cpu] == ["solved"] * 3
    assert all(0.3 <= r["cpu_s"] < 2.0 for r in cpu)  # both times, per cube
    assert all(r["wall_s"] >= r["cpu_s"] * 0.95 for r in cpu)
    assert [r["status"] for r in wall] == ["timeout"] * 3
    manifests = [json.loads((tmp_path / k / "manifest.json").read_text()) for k in ("cpu", "wall")]
    assert [m["config"]["clock"] for m in manifests] == ["cpu", "wall"]


def _raw(wall: float, cpu: float | None) -> RawAttempt:
    return RawAttempt(parse_moves("R'"), 0, 0, {}, wall, 0, cpu)


def test_the_verdict_counts_the_budgets_clock_and_caps_the_wall():
    cube = apply_sequence(SOLVED, parse_moves("R"))
    cpu = Budget(wall_seconds=1.0, clock="cpu")

    def status(raw: RawAttempt, budget: Budget) -> str:
        return judge(cube, raw, budget, solver="s", suite="q", instance=0).status

    assert status(_raw(wall=2.5, cpu=0.5), cpu) == "solved"  # waited, but within its CPU
    assert status(_raw(wall=0.5, cpu=1.5), cpu) == "timeout"  # over its CPU seconds
    assert status(_raw(wall=3.5, cpu=0.5), cpu) == "timeout"  # past the wall cap, 3x
    wall = Budget(wall_seconds=1.0, clock="wall")
    assert status(_raw(wall=1.5, cpu=0.1), wall) == "timeout"
    assert status(_raw(wall=0.5, cpu=5.0), wall) == "solved"  # threads: wall is what counts
