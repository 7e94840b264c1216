"""A run folder's writer's lock, its cut last line, and records that must be unique."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cubebench.harness.records.lock import LOCK_FILE, FolderLock, RunLockedError
from cubebench.harness.records.manifest import Manifest, SolverPin, SuitePin
from cubebench.harness.records.schema import Record, RecordError
from cubebench.harness.records.store import RunStore


def _store(tmp_path: Path, records: int = 0) -> RunStore:
    store = RunStore(tmp_path / "run")
    pins = {"solvers": {"s": SolverPin("s", {})}, "suites": {"q": SuitePin("a" * 64, 9, {})}}
    store.write_manifest(Manifest(run_id="run", **pins))
    for i in range(records):
        store.append(Record(entry="s", suite="q", instance=i, status="solved"))
    store.close()
    return store


_HOLD = """
import sys, time
from cubebench.harness.records.lock import FolderLock
lock = FolderLock(sys.argv[1]); lock.acquire(); print("held", flush=True); time.sleep(600)
"""


def test_a_second_writer_is_refused_with_the_holders_pid_until_it_dies(tmp_path):
    store = _store(tmp_path)
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(store.folder)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(RunLockedError, match=f"being written by pid {holder.pid}"):
            FolderLock(store.folder).acquire()
    finally:
        holder.kill()  # SIGKILL: no chance to release; the OS drops the lock
        holder.wait()
    lock = FolderLock(store.folder)
    lock.acquire()
    assert (store.folder / LOCK_FILE).read_text().strip().isdigit()
    lock.release()
    assert not (store.folder / LOCK_FILE).exists()  # a clean release leaves nothing


def test_one_process_cannot_take_its_own_folder_twice(tmp_path):
    store = _store(tmp_path)
    first = FolderLock(store.folder)
    first.acquire()
    with pytest.raises(RunLockedError):
        FolderLock(store.folder).acquire()
    first.release()


def test_a_complete_last_record_without_its_newline_is_kept(tmp_path):
    store = _store(tmp_path, records=3)
    path = store.folder / "records.jsonl"
    path.write_bytes(path.read_bytes()[:-1])  # a crash between the write and the newline
    assert len(store.read_records()) == 3  # reading counts it ...
    store.lock()  # ... so the next writer must keep it
    store.append(Record(entry="s", suite="q", instance=3, status="solved"))
    store.close()
    assert [r.instance for r in store.read_records()] == [0, 1, 2, 3]


def test_a_cut_last_record_is_dropped_by_the_next_writer(tmp_path):
    store = _store(tmp_path, records=3)
    path = store.folder / "records.jsonl"
    path.write_bytes(path.read_bytes()[:-20])
    assert len(store.read_records()) == 2
    store.lock()
    store.append(Record(entry="s", suite="q", instance=2, status="solved"))
    store.close()
    assert [r.instance for r in store.read_records()] == [0, 1, 2]
    assert all(json.loads(line) for line in path.read_text().splitlines())


def test_readers_refuse_a_records_file_with_an_instance_twice(tmp_path):
    store = _store(tmp_path, records=2)
    path = store.folder / "records.jsonl"
    path.write_text(path.read_text() + path.read_text().splitlines()[0] + "\n")
    with pytest.raises(RecordError, match="records s on q instance 0 more than once"):
        store.read_records()


@pytest.mark.parametrize(
    ("field", "value"),
    [("solvers", 5), ("suites", []), ("config", "x"), ("run_id", None), ("command", "bench")],
)
def test_a_manifest_of_wrong_types_is_refused_in_one_line(tmp_path, field, value):
    from cubebench.harness.cli.show import print_summary

    store = _store(tmp_path, records=2)
    manifest = json.loads((store.folder / "manifest.json").read_text())
    manifest |= {"suites": {}, "solvers": {}, field: value}
    (store.folder / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(RecordError, match=f"{field} is "):
        store.read_manifest()
    with pytest.raises(RecordError):
        print_summary(store)


def test_report_compare_and_leaderboard_refuse_a_run_with_no_records(tmp_path):
    from tests.harness.bench_process import bench
    from tests.harness.report.synthetic import make_run

    good = make_run(tmp_path / "good", {("depth-01-v1", 1): 20})
    empty = tmp_path / "empty"
    shutil.copytree(good, empty)
    (empty / "records.jsonl").write_text("")
    for args in (
        ["report", str(good), str(empty), "--out", str(tmp_path / "r")],
        ["compare", str(good), str(empty)],
        ["leaderboard", str(empty)],
    ):
        done = bench(*args)
        assert done.returncode == 2, done.stderr
        assert done.stderr.strip().splitlines() == [done.stderr.strip()]
        assert "has no records yet" in done.stderr
    (empty / "records.jsonl").unlink()
    assert bench("report", str(empty), "--out", str(tmp_path / "r2")).returncode == 2


def test_ls_runs_lists_every_run_past_a_bad_manifest(tmp_path):
    from tests.harness.bench_process import bench
    from tests.harness.report.synthetic import make_run

    for name in ("a-good", "b-bad", "c-good"):
        make_run(tmp_path / name, {("depth-01-v1", 1): 2}, n=2)
    (tmp_path / "b-bad" / "manifest.json").write_text('{"schema_version": 3, "solvers": 5}')
    done = bench("ls", "runs", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["a-good", "b-bad", "c-good"]
    assert "unreadable" in lines[1] and "solvers is int" in lines[1]
