"""``bench`` as a real process, the way a user (or a second user) starts it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_MAIN = "from cubebench.harness.cli.main import main; main()"


def bench_command(*args: str) -> list[str]:
    return [sys.executable, "-c", _MAIN, *args]


def bench_env() -> dict[str, str]:
    # the fake solvers live in tests/; an existing PYTHONPATH stays behind it
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return os.environ | {"PYTHONPATH": path}


def bench(*args: str, timeout: float = 300, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run ``bench ARGS`` to its end (in the checkout, or in ``cwd``)."""
    return subprocess.run(
        bench_command(*args), capture_output=True, text=True, timeout=timeout,
        cwd=cwd or ROOT, env=bench_env(),
    )  # fmt: skip


def start_bench(*args: str, **popen) -> subprocess.Popen:
    """Start ``bench ARGS`` and return at once (stderr is piped, stdout dropped)."""
    options = {"stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE, "text": True, **popen}
    return subprocess.Popen(bench_command(*args), cwd=ROOT, env=bench_env(), **options)


def pausing_run(out: Path, run_id: str, limit: int, *extra: str, pause: float = 0.05) -> list[str]:
    """Arguments of a run of the pausing fake on depth 3 (its records come steadily)."""
    return [
        "run", "-s", "tests.fakes:Pausing", "--set", f"pause={pause}", "--suite", "depth-03-v1",
        "--limit", str(limit), "--out", str(out), "--run-id", run_id, "--quiet", "--no-report",
        *extra,
    ]  # fmt: skip


def wait_for(predicate, what: str, timeout: float = 120) -> None:
    """Poll until ``predicate()``; the timeout is only a guard against a hung test."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def record_lines(folder: Path) -> list[str]:
    path = folder / "records.jsonl"
    return path.read_text().splitlines() if path.exists() else []


def children(pid: int) -> set[int]:
    """Child pids of ``pid`` (Linux /proc)."""
    found = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        text = (task / "children").read_text() if (task / "children").exists() else ""
        found |= {int(c) for c in text.split()}
    return found


def alive(pid: int) -> bool:
    """A process that exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def bench_here(*args: str) -> subprocess.CompletedProcess:
    """``bench ARGS`` in this process (no start-up cost), for commands that start no run:
    its exit status and what it printed, as :func:`bench` gives them."""
    import contextlib
    import io
    from unittest import mock

    from cubebench.harness.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    code = 0
    with (
        mock.patch.object(sys, "argv", ["bench", *args]),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        try:
            main()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return subprocess.CompletedProcess(["bench", *args], code, out.getvalue(), err.getvalue())
