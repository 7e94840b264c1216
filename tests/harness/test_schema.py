"""Records of older schema versions still read, migrated to the current one."""

from __future__ import annotations

import json

import pytest

from cubebench.harness.records.schema import SCHEMA_VERSION, RecordError, record_from_json
from cubebench.harness.records.store import RunStore


def test_version_one_records_migrate():
    line = json.dumps(
        {
            "solver": "policy-mlp",
            "suite": "depth-03-v1",
            "instance": 4,
            "status": "solved",
            "length_htm": 3,
            "info": {"search": "beam", "metric": "htm"},
        }
    )
    record = record_from_json(line, version=1)
    assert record.optimal_qtm is None and record.gap_qtm is None and record.metric == "htm"
    assert record.length_htm == 3 and record.cpu_s is None and SCHEMA_VERSION == 4


def test_newer_records_are_refused_with_a_clear_error():
    with pytest.raises(RecordError, match="newer than this cubebench"):
        record_from_json("{}", version=SCHEMA_VERSION + 1)


def test_version_two_lengths_are_counted_again_on_the_canonical_form(tmp_path):
    """Version 2 counted ``L L`` as two face turns; a stored run reads the merged length."""
    folder = tmp_path / "old-run"
    folder.mkdir()
    pins = {"solvers": {"deepcubea": {"solver": "deepcubea"}},
            "suites": {"depth-02-v1": {"sha256": "x"}}}  # fmt: skip
    manifest = {"schema_version": 2, "run_id": "old", **pins}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    old = {
        "solver": "deepcubea",
        "suite": "depth-02-v1",
        "instance": 0,
        "status": "solved",
        "moves": "L L B B",
        "length_htm": 4,
        "length_qtm": 4,
        "optimal_htm": 2,
        "gap_htm": 2,
        "optimal_qtm": 4,
        "gap_qtm": 0,
        "metric": "qtm",
    }
    unsolved = {**old, "instance": 1, "status": "wrong", "moves": "U U", "gap_htm": None}
    lines = [json.dumps(old), json.dumps(unsolved)]
    (folder / "records.jsonl").write_text("\n".join(lines) + "\n")
    first, second = RunStore(folder).read_records()
    assert (first.length_htm, first.gap_htm, first.length_qtm, first.gap_qtm) == (2, 0, 4, 0)
    assert first.moves == "L L B B"  # the answer as given stays
    assert (second.length_htm, second.length_qtm, second.gap_htm) == (1, 2, None)
    # a current record appended by a resume to the old folder reads unchanged
    current = record_from_json(json.dumps({**old, "length_htm": 2, "gap_htm": 0}), version=2)
    assert current.length_htm == 2 and current.gap_htm == 0
