"""A real two-node Ray cluster on this machine (loopback only): a node dies mid-run, then the
driver does, and the run still ends with every instance recorded once."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.harness.bench_process import bench, bench_env, pausing_run, record_lines, wait_for

pytest.importorskip("ray", reason="Ray is not installed (pip install 'cubebench[ray]')")
RAY = shutil.which("ray", path=str(Path(sys.executable).parent))
pytestmark = [
    pytest.mark.skipif(RAY is None, reason="the ray command is not installed"),
    pytest.mark.xdist_group("ray"),  # one Ray instance at a time on the machine
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def ray_temp():
    """Ray's session folder, short: its sockets' paths must fit AF_UNIX's 107 bytes, which
    pytest's folders (``popen-gw0/`` under xdist, ``.tox/…`` under tox) can pass."""
    folder = tempfile.mkdtemp(prefix="cb-ray-")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def cluster(ray_temp):
    """A head and a second node, each with 2 CPUs of its own; yields (address, env, node)."""
    port, node_port = _free_port(), _free_port()
    env = bench_env() | {
        "RAY_USAGE_STATS_ENABLED": "0",
        "RAY_AUTH_MODE": "token",  # Ray's local clusters want a token; this one is private
        "RAY_AUTH_TOKEN": secrets.token_hex(32),
    }
    common = ["--num-cpus", "2", "--node-ip-address", "127.0.0.1", "--disable-usage-stats"]
    logs = Path(ray_temp, "start-logs")
    logs.mkdir()
    head = _ray_start(
        ["--head", "--port", str(port), "--include-dashboard", "false", "--temp-dir", ray_temp,
         *common], env, logs / "head.log",
    )  # fmt: skip
    address = f"127.0.0.1:{port}"
    node = None
    try:
        _wait_alive(head, lambda: _joins(address, env), "the head to start", logs / "head.log")
        node = _ray_start(
            ["--address", address, "--node-manager-port", str(node_port), *common],
            env, logs / "node.log",
        )  # fmt: skip
        two = lambda: _node_count(address, env) == 2  # noqa: E731
        _wait_alive(node, two, "the second node to join", logs / "node.log")
        yield address, env, node_port
    finally:
        for proc in (node, head):
            if proc is not None and proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)


def _ray_start(args: list[str], env: dict, log: Path) -> subprocess.Popen:
    with log.open("wb") as out:
        return subprocess.Popen(
            [RAY, "start", "--block", *args],
            env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip


def _wait_alive(proc: subprocess.Popen, ready, what: str, log: Path) -> None:
    """Wait for ``ready()``; a ``ray start`` that exits first fails at once, with its end.
    The 600 s guard against a hang is far above a start here (15 s alone, 18 s under xdist)."""
    wait_for(lambda: proc.poll() is not None or ready(), what, 600)
    if proc.poll() is not None:
        tail = log.read_text(errors="replace").strip().splitlines()[-1:]
        raise AssertionError(f"ray start exited {proc.returncode} before {what}: {tail}")


_NODES = "import ray, sys; ray.init(address=sys.argv[1]); print(len([n for n in ray.nodes() if n['Alive']]))"  # noqa: E501


def _node_count(address: str, env: dict) -> int:
    """The live nodes; 0 while the head cannot be reached (``ray.init`` keeps trying to
    connect for minutes, so a try is cut short and the wait asks again)."""
    command = [sys.executable, "-c", _NODES, address]
    try:
        result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return 0
    return int(result.stdout.split()[-1]) if result.returncode == 0 and result.stdout else 0


def _joins(address: str, env: dict) -> bool:
    return _node_count(address, env) >= 1


def _raylet(node_port: int) -> int | None:
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if "raylet" in cmdline and f"--node_manager_port={node_port}" in cmdline:
            return int(proc.name)
    return None


def _manifest_nodes(folder: Path) -> dict:
    """The nodes a run's manifest names so far (it is replaced whole, never half written)."""
    try:
        return json.loads((folder / "manifest.json").read_text()).get("nodes") or {}
    except FileNotFoundError:
        return {}


def _start(args: list[str], env: dict) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", "from cubebench.harness.cli.main import main; main()", *args],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def test_a_node_lost_mid_run_then_the_driver_killed_and_resumed(tmp_path, cluster):
    address, env, node_port = cluster
    out, gate = tmp_path / "runs", tmp_path / "gate"
    args = pausing_run(out, "r", 60, "--executor", "ray", "--address", address, "--workers", "2",
                       "--set", f"gate={gate}", "--time-limit", "900", pause=0.2)  # fmt: skip
    run = _start(args, env)
    folder = out / "r"
    # no cube is answered until a worker has loaded on each node, however slow the second
    # one's start: otherwise the first could take every record before the node is lost
    wait_for(lambda: len(_manifest_nodes(folder)) == 2 or run.poll() is not None, "nodes", 600)
    gate.touch()
    wait_for(lambda: len(record_lines(folder)) >= 8 or run.poll() is not None, "records", 300)
    nodes = json.loads((folder / "manifest.json").read_text())
    assert nodes["config"]["address"] == address
    raylet = _raylet(node_port)
    assert raylet is not None, "the second node's raylet is not running"
    os.kill(raylet, signal.SIGKILL)  # the node dies, and the worker on it
    have = len(record_lines(folder))
    wait_for(lambda: len(record_lines(folder)) >= have + 8 or run.poll() is not None, "more", 300)
    run.kill()  # then the driver
    run.wait()
    assert len(record_lines(folder)) < 60
    resumed = subprocess.run(
        [sys.executable, "-c", "from cubebench.harness.cli.main import main; main()", "run",
         "--resume", str(folder), "--quiet", "--no-report"],
        env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr
    records = [json.loads(line) for line in record_lines(folder)]
    keys = [r["instance"] for r in records]
    assert len(keys) == len(set(keys)) == 60
    assert all(r["status"] == "solved" for r in records)
    manifest = json.loads((folder / "manifest.json").read_text())
    assert len(manifest["nodes"]) == 2 and manifest["finished"]  # both nodes named
    assert bench("show", str(folder)).returncode == 0
