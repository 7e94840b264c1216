"""The installed package, not this source tree: what a user's ``bench`` runs.

A wheel once shipped without its checkpoints; the default benchmark then wrote nothing but
``error`` records while every test (run from the source tree) passed. These tests look at
the wheel this tree builds and at the installed distribution, from outside the checkout.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from cubebench.harness.benchmark import DEFAULT_SOLVERS
from cubebench.harness.registry import builtin_solvers, solver_extras

ROOT = Path(__file__).resolve().parents[1]


def _cards() -> list[Path]:
    """Every shipped model card (a local training run's resumable state is not one)."""
    return [c for c in ROOT.glob("solvers/*/checkpoints/*.json") if "train-state" not in c.name]


SHIPPED = sorted(
    "cubebench/" + p.relative_to(ROOT).as_posix()
    for card in _cards()
    for p in (card, card.parent / json.loads(card.read_text())["weights"])
)
"""Every shipped checkpoint file and model card, as paths inside the package."""


def _outside_env() -> dict[str, str]:
    """The environment minus anything that would put the checkout on ``sys.path``."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def _outside(code: str, tmp_path: Path) -> str:
    """Run ``code`` in this interpreter from outside the checkout; its last stdout line."""
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,  # not the checkout: imports come from the installed package
        env=_outside_env(),
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout.strip().splitlines()[-1]


_DIST = """
import json
from importlib.metadata import PackageNotFoundError, distribution
try:
    dist = distribution("cubebench")
except PackageNotFoundError:
    print("null")
else:
    url = json.loads(dist.read_text("direct_url.json") or "{}")
    print(json.dumps({
        "editable": bool(url.get("dir_info", {}).get("editable")),
        "files": [str(f) for f in dist.files or ()],
    }))
"""


def _installed(tmp_path: Path) -> dict:
    """The installed distribution as seen from outside the checkout (a wheel in tox,
    an editable install in a development venv), or skip."""
    found = json.loads(_outside(_DIST, tmp_path))
    if found is None:
        pytest.skip("cubebench is not installed in this environment (pip install -e . or tox)")
    return found


def _keras_solvers(cards: list[dict]) -> set[str]:
    """Solvers whose shipped weights are Keras files (TensorFlow's side)."""
    return {c["model"].removesuffix("-qtm") for c in cards if c["weights"].endswith(".keras")}


def test_the_source_tree_ships_checkpoints():
    assert len(SHIPPED) >= 6, SHIPPED  # policy-mlp, value-transformer, cnn-faces: card+weights


@pytest.mark.skipif(
    importlib.util.find_spec("setuptools") is None, reason="setuptools is needed to build a wheel"
)
def test_the_wheel_this_tree_builds_carries_every_checkpoint(tmp_path):
    # build from a copy: setuptools leaves build/ and *.egg-info where it builds
    source = tmp_path / "src"
    skip = (".git", ".venv", ".tox", "build", "*.egg-info", "__pycache__", "results", "reports")
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*skip))
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
    build = subprocess.run(
        [*command, "-q", "-w", str(tmp_path), str(source)],
        capture_output=True,
        text=True,
        timeout=600,
        env=_outside_env(),
    )
    assert build.returncode == 0, build.stderr[-2000:]
    (wheel,) = tmp_path.glob("cubebench-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = [p for p in SHIPPED if p not in names]
    assert not missing, f"the wheel lacks {missing}"
    assert not [n for n in names if "train-state" in n]
    # one top-level import package: harness/ and solvers/ install as cubebench.harness and
    # cubebench.solvers (other projects on the package index own both bare names)
    info = next(n for n in names if n.endswith(".dist-info/top_level.txt"))
    assert zipfile.ZipFile(wheel).read(info).decode().split() == ["cubebench"]
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"cubebench"}, tops


def _peer_settings(folder: Path) -> dict[str, dict]:
    """AlphaCube's models come from its author's host: the probe loads one of its "small"
    architecture with weights written here (``tests/solvers/alphacube_peer``). The optimal
    solver loads its small tables (its large ones take minutes to build)."""
    small = {"optimal": {"tables": "small"}}
    try:
        import alphacube
        import torch
    except ImportError:
        return small
    torch.save(alphacube.model.Model_v1(1024, 7).state_dict(), folder / "small.zip")
    return {**small, "alphacube": {"cache_dir": str(folder)}}


def test_the_installed_package_has_and_loads_every_shipped_checkpoint(tmp_path):
    dist = _installed(tmp_path)
    if not dist["editable"]:  # a wheel install: its RECORD must list every shipped file
        assert not [p for p in SHIPPED if p not in dist["files"]], dist["files"]
    # every solver at its defaults, then every shipped card's solver in the card's metric
    cards = [json.loads(c.read_text()) for c in _cards()]
    checked = {c["model"]: (c["model"].removesuffix("-qtm"), c.get("metric", "htm")) for c in cards}
    keras = {name for name, _ in checked.values() if name in _keras_solvers(cards)}
    settings = _peer_settings(tmp_path)
    loaded = {}
    # one process per framework: TensorFlow and torch's compiler stack crash together
    # a peer's adapter loads where its library is installed (the test extra installs both)
    missing = {n for n in builtin_solvers() if None in solver_extras(n)[1].values()}
    torch_side = set(builtin_solvers()) - keras - missing
    for group, framework in ((keras, "tensorflow"), (torch_side, "torch")):
        mine = {stem: spec for stem, spec in checked.items() if spec[0] in group}
        probe = (
            "import json, sys\n"
            "from cubebench.harness.registry import make_solver\n"
            f"checked = {mine!r}\n"
            f"settings = {settings!r}\n"
            "out = {}\n"
            f"for name in {sorted(group)!r}:\n"
            "    make_solver(name, settings.get(name, {}))\n"
            "for stem, (name, metric) in checked.items():\n"
            "    s = make_solver(name, {'metric': metric})\n"
            "    module = sys.modules[type(s).__module__].__file__\n"
            "    out[stem] = [module, getattr(s, 'checkpoint_sha256', None)]\n"
            "frameworks = [m for m in ('torch', 'tensorflow') if m in sys.modules]\n"
            "print(json.dumps({'out': out, 'frameworks': frameworks}))\n"
        )
        found = json.loads(_outside(probe, tmp_path))
        assert found["frameworks"] == [framework], found["frameworks"]
        loaded.update(found["out"])
    for card in (c for c in cards if checked[c["model"]][0] not in missing):
        module, sha = loaded[card["model"]]
        assert sha == card["sha256"], card["model"]
        if not dist["editable"]:
            # tox's environment may sit inside the checkout (.tox/): what matters is that the
            # module is the installed copy, not the source tree's
            assert not Path(module).resolve().is_relative_to(ROOT / "solvers"), module


def test_the_default_benchmark_runs_from_the_installed_bench_command(tmp_path):
    """A few instances of every default solver through the installed entry point."""
    _installed(tmp_path)
    bench = Path(sys.executable).with_name("bench")
    assert bench.exists(), f"no bench entry point beside {sys.executable}"
    names = ["depth-03-v1", "depth-08-v1", "random-state-v1", "cube2-random-state-v1"]
    suites = [a for name in (*names, "cube4-depth-15-v1") for a in ("--suite", name)]
    out = ["--out", str(tmp_path / "results"), "--run-id", "d", "--quiet"]
    result = subprocess.run(  # no --solver: the default benchmark's solvers
        [str(bench), "run", "--limit", "1", *suites, *out],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=tmp_path,
        env=_outside_env(),
    )
    assert result.returncode == 0, result.stderr[-3000:]
    folder = tmp_path / "results" / "d"
    records = [json.loads(line) for line in (folder / "records.jsonl").read_text().splitlines()]
    manifest = json.loads((folder / "manifest.json").read_text())
    name_of = {key: entry["solver"] for key, entry in manifest["solvers"].items()}
    assert set(name_of.values()) == set(DEFAULT_SOLVERS)  # every named system, once
    by_solver: dict[str, list[str]] = {}
    for r in records:
        by_solver.setdefault(name_of[r["solver"]], []).append(r["status"])
    assert set(by_solver) == set(DEFAULT_SOLVERS)
    other_sizes = {"cube2-optimal", "cube2-policy", "cube2-value", "dietz-cu2", "cube4-policy",
                   "dietz-mcube"}  # fmt: skip
    # each entry on the suites of its own puzzle: 3 of the 3×3×3, 1 of the others, random 5
    counts = {name: len(s) for name, s in by_solver.items()}
    assert counts == {n: 1 if n in other_sizes else 5 if n == "random" else 3 for n in counts}
    assert not [r for r in records if r["status"] == "error"], records
    assert by_solver["kociemba"] == by_solver["policy-mlp"] == ["solved"] * 3
    assert by_solver["cube2-optimal"] == by_solver["dietz-mcube"] == ["solved"]
    for key, name in name_of.items():
        solver = manifest["solvers"][key]
        if name in ("dietz-cubex", "winter-kociemba", "dietz-cu2", "dietz-mcube"):  # programs
            assert len(solver["executable_sha256"]) == 64
            continue
        if name in ("kociemba", "random", "cube2-optimal"):
            continue
        # every learned one
        assert len(solver["checkpoint_sha256"]) == 64
        assert solver["precision"] in ("fp32", "bf16", "int8")
    assert manifest["machine"]["isa"]
    assert (folder / "report" / "index.md").exists()
