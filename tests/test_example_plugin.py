"""The example plug-in under examples/, installed for real, through every path a plug-in
author uses: the entry point, ``check_solver``, ``bench run`` beside kociemba, ``bench show``
and ``bench compare``."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "cubebench-example-bfs"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict[str, str]:
    """The example installed (with pip, from its own pyproject) into a folder of its own."""
    target = tmp_path_factory.mktemp("site")
    build = tmp_path_factory.mktemp("build")
    # with setuptools here, build with it (no network); without, pip fetches it to build
    offline = ["--no-build-isolation"] if importlib.util.find_spec("setuptools") else []
    result = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", *offline,
         "--target", str(target), str(EXAMPLE)],
        capture_output=True, text=True, cwd=build, timeout=300,
    )  # fmt: skip
    if result.returncode != 0 and "No module named pip" in result.stderr:
        pytest.skip("pip is not available in this environment")
    assert result.returncode == 0, result.stderr
    path = os.pathsep.join(p for p in (str(target), os.environ.get("PYTHONPATH", "")) if p)
    return os.environ | {"PYTHONPATH": path}


def _bench(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "from cubebench.harness.cli.main import main; main()", *args],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip


def test_the_entry_point_finds_it_and_it_conforms(installed):
    listed = _bench(installed, "ls", "solvers")
    assert "example-bfs" in listed.stdout
    settings = _bench(installed, "settings", "example-bfs")
    assert "longest solution searched" in settings.stdout and "≥ 1, ≤ 6" in settings.stdout
    check = subprocess.run(
        [sys.executable, "-c", "from cubebench.harness import check_solver, make_solver; "
         "print(check_solver(make_solver('example-bfs')).failures)"],
        capture_output=True, text=True, env=installed, timeout=300,
    )  # fmt: skip
    assert check.returncode == 0 and check.stdout.strip() == "[]", check.stderr


def test_run_show_and_compare_beside_kociemba(installed, tmp_path):
    run = _bench(
        installed, "run", "-s", "kociemba", "-s", "example-bfs", "--suite", "depth-04-v1",
        "--limit", "10", "--out", str(tmp_path), "--run-id", "bfs", "--quiet", "--no-report",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    manifest = json.loads((tmp_path / "bfs" / "manifest.json").read_text())
    origin = manifest["solvers"]["example-bfs"]["origin"]
    assert origin["registered"] == "entry point"
    assert (origin["distribution"], origin["version"]) == ("cubebench-example-bfs", "0.1.0")
    assert manifest["solvers"]["kociemba"]["origin"]["registered"] == "built-in"
    records = [json.loads(line) for line in (tmp_path / "bfs" / "records.jsonl").open()]
    bfs = [r for r in records if r["solver"] == "example-bfs"]
    assert all(r["status"] == "solved" and r["metric"] == "htm" for r in bfs)
    assert all(r["gap_htm"] == 0 for r in bfs)  # breadth-first is optimal
    shown = _bench(installed, "show", str(tmp_path / "bfs"))
    assert "example-bfs: entry point cubebench_example_bfs.solver:BreadthFirstSolver, " in (
        shown.stdout
    )
    assert "cubebench-example-bfs 0.1.0" in shown.stdout
    compared = _bench(
        installed, "compare", str(tmp_path / "bfs"), "--base", "kociemba", "--new",
        "example-bfs", "--fail-if", "solve_rate<-1pp", "--fail-if", "length>+0",
    )  # fmt: skip
    assert compared.returncode == 0, compared.stdout + compared.stderr
    assert "100.0" in compared.stdout
