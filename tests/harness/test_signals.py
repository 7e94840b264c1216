"""SIGTERM ends a run as Ctrl-C does; no worker outlives its run, however the run ends."""

from __future__ import annotations

import json
import os
import signal
import time

import pytest

from tests.harness.bench_process import alive, children, start_bench, wait_for

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc (Linux)")


def _hung_run(out, workers: int, **popen):
    """A run whose every worker hangs in its solver (the limit is far away)."""
    return start_bench(
        "run", "-s", "tests.fakes:Hanging", "--suite", "depth-02-v1", "--limit", "10",
        "--workers", str(workers), "--time-limit", "600", "--out", str(out), "--run-id", "hung",
        "--quiet", "--no-report", **popen,
    )  # fmt: skip


def _workers_busy(proc, count: int, out) -> set[int]:
    """Wait until the run has ``count`` worker processes and has started: its manifest,
    written once every worker has loaded, is there (a loaded machine may take many seconds
    to get that far, so this waits for the event, not for a time)."""
    found: set[int] = set()

    def ready() -> bool:
        found.clear()
        found.update(children(proc.pid))
        return len(found) >= count and (out / "hung" / "manifest.json").exists()

    wait_for(ready, f"{count} workers and the run's manifest")
    time.sleep(1.0)  # let them take their instances
    return found


def test_sigterm_ends_the_workers_marks_the_manifest_and_prints_the_resume(tmp_path):
    out = tmp_path / "runs"
    proc = _hung_run(out, 2)
    workers = _workers_busy(proc, 2, out)
    proc.send_signal(signal.SIGTERM)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM
    assert f"interrupted; resume with: bench run --resume {out / 'hung'}" in stderr
    assert "Traceback" not in stderr
    wait_for(lambda: not any(alive(pid) for pid in workers), "the workers to be gone", 30)
    manifest = json.loads((out / "hung" / "manifest.json").read_text())
    assert manifest["interrupted"] and not manifest["finished"]
    assert not (out / "hung" / "records.jsonl").exists()  # a stopped instance is redone, not lost


def test_ctrl_c_ends_hung_workers_together(tmp_path):
    out = tmp_path / "runs"
    proc = _hung_run(out, 4, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    workers = _workers_busy(proc, 4, out)
    start = time.monotonic()
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)
    took = time.monotonic() - start
    assert proc.returncode == 130
    # one by one, each hung worker cost 5 s (20 s here); together they cost one kill
    assert took < 10, f"Ctrl-C took {took:.1f} s with 4 hung workers"
    wait_for(lambda: not any(alive(pid) for pid in workers), "the workers to be gone", 30)


def test_workers_die_with_a_run_killed_by_sigkill(tmp_path):
    out = tmp_path / "runs"
    proc = _hung_run(out, 2)
    workers = _workers_busy(proc, 2, out)
    proc.kill()  # the parent alone: nothing of it runs again
    proc.wait()
    wait_for(lambda: not any(alive(pid) for pid in workers), "orphaned workers to die", 30)
