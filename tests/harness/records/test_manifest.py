"""The typed run manifest: its file layout, its migrations, and what it refuses."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from cubebench.harness.records.manifest import (
    MANIFEST_VERSION,
    Manifest,
    SolverPin,
    SuitePin,
)
from cubebench.harness.records.schema import RecordError
from cubebench.harness.records.store import RunStore

RESULTS = Path(__file__).resolve().parents[3] / "results"


def _manifest() -> Manifest:
    return Manifest(
        run_id="r",
        command=("bench", "run"),
        config={"workers": 2},
        suites={"depth-03-v1": SuitePin("a" * 64, 1000, {"depth": 3}, "b" * 64)},
        solvers={
            "policy-mlp[beam_width=8]": SolverPin(
                "policy-mlp",
                {"beam_width": 8},
                {"registered": "built-in"},
                {"checkpoint_sha256": "c" * 64, "threads": 1},
            )
        },
        machine={"cpu": "test", "cores": 2},
        seed=0,
        started="t0",
    )


def test_a_manifest_round_trips_through_its_file_with_the_pins_flat(tmp_path):
    store = RunStore(tmp_path / "r")
    store.write_manifest(_manifest())
    data = json.loads((tmp_path / "r" / "manifest.json").read_text())
    entry = data["solvers"]["policy-mlp[beam_width=8]"]
    # other tools read the pinned fields beside solver, settings and origin
    assert entry["checkpoint_sha256"] == "c" * 64 and entry["solver"] == "policy-mlp"
    assert data["manifest_version"] == MANIFEST_VERSION and "resumed" not in data
    assert store.read_manifest() == _manifest()


def test_a_run_s_progress_is_a_new_value_and_the_store_keeps_the_last_written(tmp_path):
    store = RunStore(tmp_path / "r")
    first = store.write_manifest(_manifest())
    pin = first.solvers["policy-mlp[beam_width=8]"].with_pinned({"load_s": 1.5})
    second = store.write_manifest(
        replace(first.with_solver("policy-mlp[beam_width=8]", pin), finished="t1")
    )
    assert first.finished is None and first.solvers != second.solvers  # nothing mutated
    assert store.manifest is second and RunStore(store.folder).read_manifest() == second
    assert second.solvers["policy-mlp[beam_width=8]"].pinned["threads"] == 1  # kept


def test_a_version_1_manifest_gets_its_solver_from_the_adapter_s_name(tmp_path):
    path = tmp_path / "manifest.json"
    old = {
        "schema_version": 2,
        "run_id": "old",
        "suites": {"depth-03-v1": {"sha256": "a" * 64, "count": 10, "meta": {}}},
        "solvers": {
            "cnn-faces": {"name": "cnn-faces", "settings": {}},
            "mine[x=1]": {"settings": {"x": 1}},
        },
    }
    manifest = Manifest.from_dict(old, path)
    assert manifest.solvers["cnn-faces"].solver == "cnn-faces"
    assert manifest.solvers["mine[x=1]"].solver == "mine[x=1]"  # nothing better is known
    suite = manifest.suites["depth-03-v1"]
    assert suite.states is None and suite.identity == "a" * 64  # pinned by its file


def test_a_newer_manifest_and_a_current_one_without_its_solver_are_refused(tmp_path):
    path = tmp_path / "manifest.json"
    newer = {"schema_version": 3, "manifest_version": MANIFEST_VERSION + 1, "run_id": "n"}
    with pytest.raises(RecordError, match="upgrade cubebench"):
        Manifest.from_dict(newer, path)
    current = _manifest().to_dict()
    del current["solvers"]["policy-mlp[beam_width=8]"]["solver"]
    with pytest.raises(RecordError, match=r"solvers\.policy-mlp\[beam_width=8\]\.solver"):
        Manifest.from_dict(current, path)


@pytest.mark.skipif(not RESULTS.is_dir(), reason="needs the committed results/ folder")
def test_every_committed_manifest_reads_and_writes_back_what_it_holds(tmp_path):
    folders = sorted(p.parent for p in RESULTS.glob("*/manifest.json"))
    assert folders
    for folder in folders:
        manifest = RunStore(folder).read_manifest()
        assert manifest.solvers and manifest.suites, folder.name
        copy = RunStore(tmp_path / folder.name)
        copy.write_manifest(manifest)
        assert copy.read_manifest() == manifest, folder.name
