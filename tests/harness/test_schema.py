"""Records of schema version 1 still read, with the fields version 2 added."""

from __future__ import annotations

import json

import pytest

from cubebench.harness.records.schema import SCHEMA_VERSION, RecordError, record_from_json


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
    assert record.length_htm == 3 and SCHEMA_VERSION == 2


def test_newer_records_are_refused_with_a_clear_error():
    with pytest.raises(RecordError, match="newer than this cubebench"):
        record_from_json("{}", version=SCHEMA_VERSION + 1)
