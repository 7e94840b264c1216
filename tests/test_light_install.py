"""A plug-in author's install: the wheel without extras, in a fresh environment, runs the
whole harness and a plug-in beside ``kociemba``, and names what a learned built-in needs."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKIP = (".git", ".venv", ".tox", "build", "*.egg-info", "__pycache__", "results", "reports")


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}


def _run(*command: str | Path, cwd: Path, home: Path | None = None) -> subprocess.CompletedProcess:
    env = _env() | ({"CUBEBENCH_HOME": str(home)} if home is not None else {})
    return subprocess.run(
        [str(c) for c in command], capture_output=True, text=True, timeout=900, cwd=cwd, env=env
    )


@pytest.mark.skipif(
    importlib.util.find_spec("setuptools") is None, reason="setuptools is needed to build a wheel"
)
def test_the_wheel_without_extras_runs_a_plug_in_beside_kociemba(tmp_path):
    source = tmp_path / "src"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*SKIP))
    build = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
    built = _run(*build, "-w", tmp_path, source, cwd=tmp_path)
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = tmp_path.glob("cubebench-*.whl")
    venv = tmp_path / "venv"
    assert _run(sys.executable, "-m", "venv", venv, cwd=tmp_path).returncode == 0
    pip, bench, python = (venv / "bin" / name for name in ("pip", "bench", "python"))
    installed = _run(pip, "install", "-q", wheel, cwd=tmp_path)
    if installed.returncode != 0:
        pytest.skip(f"the package index is out of reach: {installed.stderr.strip()[-200:]}")
    plugin = _run(pip, "install", "-q", source / "examples" / "cubebench-example-bfs", cwd=tmp_path)
    assert plugin.returncode == 0, plugin.stderr[-2000:]
    frameworks = (
        "import importlib.util as u; print(u.find_spec('torch'), u.find_spec('tensorflow'))"
    )
    assert _run(python, "-c", frameworks, cwd=tmp_path).stdout.split() == ["None", "None"]
    home = tmp_path / "home"
    listed = _run(bench, "ls", "solvers", cwd=tmp_path, home=home)
    assert listed.returncode == 0, listed.stderr
    lines = {line.split()[0]: line for line in listed.stdout.splitlines()}
    assert "[needs torch: not installed]" in lines["policy-mlp"]
    assert "[needs tensorflow-cpu: not installed]" in lines["cnn-faces"]
    assert "needs" not in lines["kociemba"] and "example-bfs" in lines
    out = tmp_path / "runs"
    ran = _run(
        bench, "run", "-s", "example-bfs", "-s", "kociemba", "--suite", "depth-03-v1:5",
        "--out", out, "--run-id", "light", "--no-report", "--quiet", cwd=tmp_path, home=home,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr[-2000:]
    records = [json.loads(x) for x in (out / "light" / "records.jsonl").read_text().splitlines()]
    assert len(records) == 10 and {r["status"] for r in records} == {"solved"}
    refused = _run(bench, "run", "-s", "policy-mlp", "--suite", "depth-03-v1:2", cwd=tmp_path)
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines() == [
        "error: solver 'policy-mlp' needs torch, not installed here: pip install 'cubebench[torch]'"
    ]
