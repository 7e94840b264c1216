"""A full disk is one line and a clean folder: on a real, tiny file system (tmpfs)."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from cubebench.harness.cube import length_qtm, parse_moves
from cubebench.harness.suites.catalog import load_suite
from tests.harness.bench_process import ROOT, bench_command, bench_env


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 128 kB tmpfs mounted for the test (root only; skipped elsewhere)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=128k", "tmpfs", str(mount)], capture_output=True
    )
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({made.stderr.decode().strip() or 'not root'})")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _bench(*args: str, home: Path | None = None) -> subprocess.CompletedProcess:
    env = bench_env() | ({"CUBEBENCH_HOME": str(home)} if home else {})
    return subprocess.run(bench_command(*args), capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=600)  # fmt: skip


def _one_line(result: subprocess.CompletedProcess, *fragments: str) -> None:
    assert result.returncode == 2, result.stderr[-3000:]
    lines = result.stderr.strip().splitlines()
    assert lines and lines[-1].startswith("error: ") and "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[-1], lines[-1]


def test_a_run_that_fills_the_disk_keeps_its_records_and_says_so(tiny_disk):
    result = _bench("run", "-s", "tests.fakes:Right", "--suite", "depth-01-v1", "--out",
                    str(tiny_disk), "--run-id", "r", "--quiet", "--no-report")  # fmt: skip
    _one_line(result, "No space left on device", "--resume")
    lines = (tiny_disk / "r" / "records.jsonl").read_bytes().split(b"\n")
    assert len(lines) > 10  # what fit is there, the last line perhaps cut (mended on resume)


def _fill(disk: Path, leave: int) -> None:
    """Fill ``disk`` but for about ``leave`` bytes."""
    with (disk / "filler").open("wb") as f, contextlib.suppress(OSError):
        while shutil.disk_usage(disk).free > leave:
            f.write(b"x" * 1024)
            f.flush()


def test_an_import_onto_a_full_disk_leaves_nothing(tiny_disk, tmp_path):
    _fill(tiny_disk, 8 << 10)
    suite = load_suite("depth-09-v1")
    lengths = [length_qtm(parse_moves(c.scramble)) for c in suite.instances]  # true claims
    answers = tmp_path / "output.txt"
    answers.write_text(
        "".join(
            f"State: {i}, SolnCost: {n}.00, # Moves: {n}, # Nodes Gen: 1, Time: 1\n"
            for i, n in enumerate(lengths)
        )
    )
    result = _bench("runs", "import", "deepcubea-output", str(answers), "--suite",
                    "depth-09-v1", "--out", str(tiny_disk))  # fmt: skip
    _one_line(result, "No space left on device")
    assert sorted(p.name for p in tiny_disk.iterdir() if not p.name.endswith(".lock")) == ["filler"]


def test_an_annotation_on_a_full_disk_leaves_no_temporary_file(tiny_disk, tmp_path):
    cubes = tmp_path / "c.txt"
    cubes.write_text("R U F\nL D B\n")
    assert (
        _bench("suites", "import", "text", str(cubes), "--name", "c", home=tiny_disk).returncode
        == 0
    )
    tables = tmp_path / "tables"  # the tables elsewhere: only the suite's writes fail
    tables.mkdir()
    (tiny_disk / "cache").mkdir()
    os.symlink(tables, tiny_disk / "cache" / "optimal")
    _fill(tiny_disk, 0)
    result = _bench("suites", "annotate", "c", "--optimal", "--tables", "small", home=tiny_disk)
    _one_line(result, "No space left on device")
    left = [p for p in tiny_disk.rglob("*.tmp")]
    assert left == []
