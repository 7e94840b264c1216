"""Lazy solver registry, settings validation, and the conformance kit."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from typing import Literal

import pytest

from cubebench.harness.registry import (
    UnknownSolverError,
    builtin_solvers,
    describe_settings,
    make_solver,
    resolve_solver_class,
)
from cubebench.harness.settings import SettingsError, SolverSettings, parse_settings
from cubebench.harness.testing import ConformanceError, check_solver

_CONFORMANCE = """
import json, sys
from cubebench.harness.registry import make_solver
from cubebench.harness.testing import check_solver
report = check_solver(make_solver(sys.argv[1], json.loads(sys.argv[2])), strict=False)
loaded = sorted(m for m in ("torch", "tensorflow") if m in sys.modules)
print(json.dumps({"failures": report.failures, "passed": len(report.passed), "loaded": loaded}))
"""


@pytest.fixture(autouse=True)
def fresh_entry_points():
    """A test that fakes entry points leaves none of its fakes in the process's cache."""
    yield
    from cubebench.harness.registry import forget_entry_points

    forget_entry_points()


def _peer_settings(name: str, folder) -> dict:
    """Settings an adapter needs here: AlphaCube's models come from its author's host, so it
    runs a model of its "small" architecture with weights the test writes; the optimal
    solver runs on its small tables (a second to build, where the large take minutes)."""
    if name == "optimal":
        return {"tables": "small"}
    if name != "alphacube":
        return {}
    alphacube = pytest.importorskip("alphacube", reason="the peers extra (cubebench[peers])")
    import torch

    torch.save(alphacube.model.Model_v1(1024, 7).state_dict(), folder / "small.zip")
    return {"cache_dir": str(folder), "beam_width": 64}


@pytest.mark.parametrize("name", sorted(builtin_solvers()))
def test_every_registered_solver_passes_conformance_in_a_process_of_its_own(name, tmp_path):
    """Each in its own process, as bench run loads them: solvers of the two frameworks never
    share one (they crash together where torch has its compiler stack), and none loads both."""
    if name == "cayleypy":
        pytest.importorskip("cayleypy", reason="the peers extra (cubebench[peers])")
    settings = json.dumps(_peer_settings(name, tmp_path))
    result = subprocess.run(
        [sys.executable, "-c", _CONFORMANCE, name, settings],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert not report["failures"] and report["passed"] == 8, report
    assert len(report["loaded"]) <= 1, f"{name} loads {report['loaded']}"


def test_bench_ls_solvers_names_the_package_a_peer_adapter_runs():
    from tests.harness.bench_process import bench

    listed = bench("ls", "solvers")
    assert listed.returncode == 0, listed.stderr
    lines = {line.split()[0]: line for line in listed.stdout.splitlines()}
    for peer in ("cayleypy", "alphacube"):
        version = _installed(peer)
        shown = f"[with {peer} {version}]" if version else f"[needs {peer}: not installed]"
        assert lines[peer].endswith(shown), lines[peer]
    assert "needs" not in lines["kociemba"]


def _installed(package: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return None


def test_a_wrong_solver_fails_conformance_with_reasons():
    with pytest.raises(ConformanceError, match="every depth-1 cube is solved"):
        check_solver(make_solver("tests.fakes:Wrong"))
    report = check_solver(make_solver("tests.fakes:Illegal"), strict=False)
    assert any("legal moves" in f for f in report.failures)


def test_conformance_names_misplaced_help_and_an_unknown_metric():
    report = check_solver(make_solver("tests.fakes:HelpOnTheSolver"), strict=False)
    failed = {f.split(":")[0] for f in report.failures}
    assert {"setting help is declared on the settings class"} <= failed
    assert {"the metric it searches is htm or qtm"} <= failed


def test_unknown_names():
    with pytest.raises(UnknownSolverError, match="did you mean 'random'"):
        resolve_solver_class("randon")
    with pytest.raises(UnknownSolverError, match="cannot import no_such_module"):
        resolve_solver_class("no_such_module:Thing")
    with pytest.raises(UnknownSolverError, match="has no 'Nope'"):
        resolve_solver_class("tests.fakes:Nope")


@dataclass(frozen=True)
class _Settings(SolverSettings):
    width: int = 4
    ratio: float = 0.5
    greedy: bool = False
    mode: Literal["beam", "greedy"] = "beam"
    cap: int | None = None


def test_settings_are_parsed_and_validated():
    parsed = parse_settings(
        _Settings, {"width": "8", "ratio": "2", "greedy": "yes", "mode": "greedy", "cap": "none"}
    )
    assert parsed == _Settings(width=8, ratio=2.0, greedy=True, mode="greedy", cap=None)
    assert parse_settings(_Settings, {"cap": 3}).cap == 3
    with pytest.raises(SettingsError, match="choose one of beam, greedy"):
        parse_settings(_Settings, {"mode": "astar"})
    with pytest.raises(SettingsError, match="width=2.5 is not a valid int"):
        parse_settings(_Settings, {"width": 2.5})
    with pytest.raises(SettingsError, match="greedy='maybe' is not a valid bool"):
        parse_settings(_Settings, {"greedy": "maybe"})


def test_describe_settings_gives_the_full_record():
    assert describe_settings("kociemba", {"max_length": "20"}) == {"seed": 0, "max_length": 20}


def test_registry_imports_nothing_heavy():
    code = (
        "import sys, cubebench.harness.registry, cubebench.harness.runner;"
        "import cubebench.harness.testing, cubebench.harness.cli.main;"
        "print(any(m in sys.modules for m in ('torch', 'tensorflow', 'keras')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr


def test_entry_points_register_third_party_solvers(monkeypatch):
    from importlib.metadata import EntryPoint

    import cubebench.harness.registry as registry

    fake = [EntryPoint("my-solver", "tests.fakes:Right", registry.ENTRY_POINT_GROUP)]
    monkeypatch.setattr(registry, "entry_points", lambda group: fake)
    registry.forget_entry_points()
    assert registry.available_solvers()["my-solver"] == "tests.fakes:Right"
    assert make_solver("my-solver").name == "right"


def test_built_ins_are_entry_points_and_a_plug_in_may_not_take_their_names(monkeypatch):
    import cubebench.harness.registry as registry

    builtin = registry.builtin_solvers()
    assert {"kociemba", "policy-mlp", "seq2seq-transformer", "cnn-faces"} <= set(builtin)
    assert builtin["kociemba"] == "cubebench.solvers.kociemba_ref.solver:KociembaSolver"
    assert "seq2seq-transformer" in registry.trainers() and "kociemba" not in registry.trainers()
    real = registry.entry_points

    class Other:  # an entry point of another distribution
        name, value, group = "kociemba", "tests.fakes:Right", registry.ENTRY_POINT_GROUP
        dist = type("Dist", (), {"metadata": {"Name": "my-plugins"}})()

    monkeypatch.setattr(registry, "entry_points", lambda group: [*real(group=group), Other()])
    registry.forget_entry_points()
    # the clashing plug-in is refused with a warning; the built-in and every other solver work
    with pytest.warns(UserWarning, match="'kociemba'.* of my-plugins .*ignored: rename it"):
        solver = make_solver("kociemba")
    assert solver.name == "kociemba" and type(solver).__name__ == "KociembaSolver"
    with pytest.warns(UserWarning):
        assert registry.available_solvers()["random"].endswith(":RandomSolver")


def test_solvers_declare_what_a_cluster_worker_needs():
    from cubebench.harness.registry import solver_resources

    assert solver_resources("kociemba") == {"num_cpus": 1.0, "num_gpus": 0.0}
    cuda = solver_resources("policy-mlp", {"threads": "2", "device": "cuda"})
    assert cuda == {"num_cpus": 2.0, "num_gpus": 1.0}
    assert solver_resources("tests.fakes:HalfGPU") == {"num_cpus": 1, "num_gpus": 0.5}
    with pytest.raises(SettingsError, match="threads"):
        solver_resources("policy-mlp", {"threads": "0"})


def test_a_plug_in_that_takes_a_builtins_name_is_listed_as_neither(tmp_path):
    """A distribution on the path whose entry point is named ``kociemba``: the built-in is
    listed as cubebench's own, with no word of the other package."""
    import subprocess
    import sys

    info = tmp_path / "impostor-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: impostor\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[cubebench.solvers]\nkociemba = impostor:Fake\nimpostor-own = impostor:Fake\n"
    )
    code = "from cubebench.harness.cli.main import main; main()"
    env = {**__import__("os").environ, "PYTHONPATH": str(tmp_path)}
    listed = subprocess.run([sys.executable, "-W", "ignore", "-c", code, "ls", "solvers"],
                            capture_output=True, text=True, env=env, check=True)  # fmt: skip
    line = next(x for x in listed.stdout.splitlines() if x.startswith("kociemba "))
    assert "impostor" not in line and "kociemba_ref" in line
    assert any(x.startswith("impostor-own ") and "(impostor 1.0)" in x
               for x in listed.stdout.splitlines())  # fmt: skip
