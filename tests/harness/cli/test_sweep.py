"""``bench run --sweep``: one labelled entry per value in one run folder, bad sweeps refused."""

from __future__ import annotations

import json

import pytest

from cubebench.harness.benchmark import DEFAULT_ENTRIES, DEFAULT_SOLVERS, default_entries
from cubebench.harness.plan import sweep_specs
from cubebench.harness.runner import SolverSpec
from cubebench.harness.settings import SettingsError

from .test_run_cli import _bench


def test_a_sweep_gives_one_labelled_entry_per_value():
    specs = sweep_specs(
        ["kociemba", "random"],
        {"kociemba": {}, "random": {}},
        ["kociemba.max_length=20,30", "random.seed=1,2"],
    )
    assert [s.key for s in specs] == [
        "kociemba[max_length=20]",
        "kociemba[max_length=30]",
        "random[seed=1]",
        "random[seed=2]",
    ]
    assert specs[0].settings == {"max_length": "20"} and specs[0].name == "kociemba"
    plain = sweep_specs(["kociemba"], {"kociemba": {}}, [])
    assert plain[0].key == "kociemba" and plain[0].label == ""


@pytest.mark.parametrize(
    ("sweeps", "message"),
    [
        (["max_length=20"], "name the solver"),
        (["kociemba.max_length"], "expected SETTING=v1,v2"),
        (["kociemba.max_length=,"], "expected SETTING=v1,v2"),
        (["nope.max_length=1,2"], "solver 'nope' is not in this run"),
        (["kociemba.max_length=20,20"], "'20' and '20' are the same value"),
    ],
)
def test_bad_sweeps_are_refused(sweeps, message):
    with pytest.raises(SettingsError, match=message):
        sweep_specs(["kociemba", "random"], {"kociemba": {}, "random": {}}, sweeps)


def test_a_swept_run_records_each_entry_and_checks_values_first(tmp_path):
    args = ["run", "-s", "kociemba", "--suite", "depth-03-v1", "--limit", "3", "--quiet"]
    result = _bench(*args, "--sweep", "max_length=22,30", "--out", str(tmp_path), "--run-id", "s")
    assert result.returncode == 0, result.stderr
    records = [json.loads(x) for x in (tmp_path / "s" / "records.jsonl").read_text().splitlines()]
    assert sorted({r["solver"] for r in records}) == [
        "kociemba[max_length=22]",
        "kociemba[max_length=30]",
    ]
    assert len(records) == 6 and all(r["status"] == "solved" for r in records)
    manifest = json.loads((tmp_path / "s" / "manifest.json").read_text())
    entry = manifest["solvers"]["kociemba[max_length=30]"]
    assert entry["solver"] == "kociemba" and entry["settings"]["max_length"] == 30
    assert "kociemba[max_length=22]" in result.stdout  # rich printed the brackets
    bad = _bench(*args, "--sweep", "max_length=22,-1", "--out", str(tmp_path), "--run-id", "b")
    assert bad.returncode == 2 and "max_length" in bad.stderr
    assert not (tmp_path / "b").exists()


def test_the_default_benchmark_labels_its_own_settings_and_keeps_the_users():
    entries = default_entries(
        [
            SolverSpec("kociemba"),
            SolverSpec("value-transformer"),
            SolverSpec("value-transformer", {"beam_width": "50"}, "mine"),
        ]
    )
    width, limit = (
        DEFAULT_ENTRIES["value-transformer"][0]["beam_width"],
        DEFAULT_ENTRIES["value-transformer"][1],
    )
    assert entries[0] == SolverSpec("kociemba")  # a fast one: defaults, every cube
    assert entries[1].key == f"value-transformer[beam_width={width}]"
    assert entries[1].settings == {"beam_width": width} and entries[1].limit == limit
    # the user's --set and --sweep win, with their own label; the entry's cube count stays
    assert entries[2].settings == {"beam_width": "50"} and entries[2].key == "mine"
    assert entries[2].limit == limit
    assert set(DEFAULT_SOLVERS) >= {"seq2seq-transformer", "value-transformer", "deepcubea"}
