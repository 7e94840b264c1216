"""The property the run folder's guarantees come down to: whatever mix of SIGKILL, SIGTERM,
a cut or unterminated last line and a second writer a run meets, it ends, after resumes,
with every instance recorded exactly once and nothing written outside its folder."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.harness.bench_process import bench, pausing_run, record_lines, start_bench, wait_for

COUNT = 24
FAULTS = ("sigkill", "sigterm", "unterminated", "cut", "second_writer")
RESUME = ("--quiet", "--no-report")


def _writer_lock_held(folder: Path) -> bool:
    """Whether some process holds the folder's writer lock now (probed without taking it)."""
    try:
        fd = os.open(folder / ".writer.lock", os.O_RDONLY)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def _apply(fault: str, proc, folder: Path) -> None:
    if fault == "second_writer":
        second = bench("run", "--resume", str(folder), *RESUME)
        # The first took the lock before its first record and never takes it again, so if it
        # holds it still, it held it for the whole of the second's life: the second must have
        # been refused. (A first that has finished its run but not yet exited holds nothing,
        # and the second then resumes a finished run, legitimately.)
        if proc.poll() is None and _writer_lock_held(folder):
            assert second.returncode == 2 and "being written by pid" in second.stderr
        proc.kill()
    elif fault == "sigterm":
        proc.send_signal(signal.SIGTERM)
    else:
        proc.kill()
    proc.wait(timeout=120)
    path = folder / "records.jsonl"
    if fault in ("unterminated", "cut") and path.exists() and path.stat().st_size:
        data = path.read_bytes()
        path.write_bytes(data[:-1] if fault == "unterminated" else data[:-15])


@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    faults=st.lists(st.sampled_from(FAULTS), min_size=1, max_size=3),
    after=st.lists(st.integers(min_value=1, max_value=10), min_size=3, max_size=3),
)
def test_any_mix_of_faults_ends_with_every_instance_recorded_once(isolated_home, faults, after):
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "runs"
        folder = out / "r"
        for i, (fault, k) in enumerate(zip(faults, after, strict=False)):
            args = pausing_run(out, "r", COUNT) if i == 0 else ["run", "--resume", str(folder)]
            proc = start_bench(*args, *(RESUME if i else ()))
            have = len(record_lines(folder))
            wait_for(
                lambda have=have, k=k, proc=proc: (
                    len(record_lines(folder)) >= have + k or proc.poll() is not None
                ),
                "records",
            )
            _apply(fault, proc, folder)
        for _ in range(2):  # a resume finishes it (a second one finds nothing left to do)
            result = bench("run", "--resume", str(folder), *RESUME)
            assert result.returncode == 0, result.stderr
        records = [json.loads(line) for line in record_lines(folder)]
        keys = [(r["solver"], r["suite"], r["instance"]) for r in records]
        assert len(keys) == len(set(keys)) == COUNT
        assert all(r["status"] == "solved" for r in records)
        assert sorted(p.name for p in Path(tmp).rglob("*")) == sorted(
            ["runs", "r", "manifest.json", "records.jsonl"]
        )
        assert json.loads((folder / "manifest.json").read_text())["finished"]


def test_a_solver_that_prints_megabytes_floods_neither_terminal_nor_disk(tmp_path):
    """10 MB a cube on both streams: the terminal sees the run, the run's log the first
    megabyte of each worker."""
    from cubebench.harness.executors.workers import MAX_LOG_BYTES
    from tests.harness.bench_process import bench

    result = bench("run", "-s", "tests.fakes:Loud", "--suite", "depth-02-v1:3", "--out",
                   str(tmp_path), "--run-id", "loud", "--no-report", "--workers", "2")  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    assert len(result.stdout) + len(result.stderr) < 100_000
    log = tmp_path / "loud" / "workers.log"
    text = log.read_text()
    workers = text.count("--- worker ")
    assert workers >= 1 and log.stat().st_size <= workers * (MAX_LOG_BYTES + 200)
    assert "x" * 1000 in text and "dropped" in text
    statuses = [line for line in (tmp_path / "loud" / "records.jsonl").read_text().splitlines()]
    assert len(statuses) == 3 and all('"status":"solved"' in s for s in statuses)
