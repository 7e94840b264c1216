"""A run folder has one writer: two real ``bench`` processes on one folder, and resumes
that end with every instance recorded exactly once, whatever byte the file ends on."""

from __future__ import annotations

import json

from cubebench.harness.records.store import RunStore
from tests.harness.bench_process import (
    bench,
    pausing_run,
    record_lines,
    start_bench,
    wait_for,
)


def _keys(folder) -> list[tuple]:
    return [(r["solver"], r["suite"], r["instance"]) for r in map(json.loads, record_lines(folder))]


def test_two_resumes_of_one_folder_leave_one_writer(tmp_path, isolated_home):
    out = tmp_path / "runs"
    first = start_bench(*pausing_run(out, "r", 60))
    wait_for(lambda: len(record_lines(out / "r")) >= 5, "records")
    first.kill()
    first.wait()
    a = start_bench("run", "--resume", str(out / "r"), "--quiet", "--no-report")
    b = start_bench("run", "--resume", str(out / "r"), "--quiet", "--no-report")
    results = sorted([(p.wait(timeout=300), p.stderr.read()) for p in (a, b)])
    (ok, _), (refused, message) = results
    assert (ok, refused) == (0, 2), results
    assert f"run folder {out / 'r'} is being written by pid" in message
    assert len(message.strip().splitlines()) == 1
    keys = _keys(out / "r")
    assert len(keys) == len(set(keys)) == 60


def test_two_new_runs_with_one_id_started_together_leave_one_writer(tmp_path, isolated_home):
    out = tmp_path / "runs"
    runs = [start_bench(*pausing_run(out, "same", 30)) for _ in range(2)]
    results = sorted([(p.wait(timeout=300), p.stderr.read()) for p in runs])
    (ok, _), (refused, message) = results
    assert (ok, refused) == (0, 2), results
    assert "same" in message and ("exists" in message or "being written by pid" in message)
    keys = _keys(out / "same")
    assert len(keys) == len(set(keys)) == 30


def test_a_second_run_is_refused_before_its_solvers_load(tmp_path, isolated_home):
    out = tmp_path / "runs"
    first = start_bench(*pausing_run(out, "busy", 40, pause=0.2))
    try:
        wait_for(lambda: (out / "busy" / "records.jsonl").exists(), "the first run to start")
        resumed = bench("run", "--resume", str(out / "busy"), "--quiet")
        assert resumed.returncode == 2
        assert resumed.stderr.strip() == (
            f"error: run folder {out / 'busy'} is being written by pid {first.pid}; "
            "a run folder has one writer"
        )
    finally:
        first.kill()
        first.wait()


def test_resume_after_a_record_lost_its_newline_records_each_instance_once(tmp_path, isolated_home):
    out = tmp_path / "runs"
    assert bench(*pausing_run(out, "r", 20, pause=0.0)).returncode == 0
    path = out / "r" / "records.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:15])[:-1])  # the 15th record is whole, its newline is not
    manifest = json.loads((out / "r" / "manifest.json").read_text())
    (out / "r" / "manifest.json").write_text(json.dumps({**manifest, "finished": None}))
    resumed = bench("run", "--resume", str(out / "r"), "--quiet", "--no-report")
    assert resumed.returncode == 0, resumed.stderr
    keys = _keys(out / "r")
    assert len(keys) == len(set(keys)) == 20
    assert RunStore(out / "r").read_manifest().finished


def test_show_refuses_a_records_file_that_counts_an_instance_twice(tmp_path, isolated_home):
    out = tmp_path / "runs"
    assert bench(*pausing_run(out, "r", 4, pause=0.0)).returncode == 0
    assert bench(*pausing_run(out, "other", 4, pause=0.0)).returncode == 0
    path = out / "r" / "records.jsonl"
    path.write_text(path.read_text() + path.read_text().splitlines()[0] + "\n")
    for command in (
        ["show"],
        ["report", "--out", str(tmp_path / "rep")],
        ["compare", str(out / "other")],
    ):
        result = bench(*command, str(out / "r"))
        assert result.returncode == 2, (command, result.stderr)
        assert "more than once" in result.stderr and "Traceback" not in result.stderr
