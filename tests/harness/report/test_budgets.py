"""Budgets made equal and the time-budget views: per-suite limits, load cost, timing mode,
the cactus plot and the best length within a time."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from cubebench.harness.records.schema import RecordError
from cubebench.harness.report.budgets import cactus, within_budgets
from cubebench.harness.report.figures import palette
from cubebench.harness.report.frame import load_runs
from cubebench.harness.report.rules import Rule
from cubebench.harness.runner import RunConfig, SolverSpec, run
from cubebench.harness.solver import ArgumentError

from .synthetic import add_solver, make_run

RANDOM = ("random-state-v1", None)


def test_a_suite_limit_runs_that_suites_first_cubes_and_is_recorded(tmp_path):
    config = RunConfig(
        solvers=(SolverSpec("random"),), suites=("depth-01-v1", "depth-02-v1"), limit=6,
        suite_limits={"depth-01-v1": 2}, out=str(tmp_path),
    )  # fmt: skip
    store = run(config, show_progress=False, run_id="limits")
    counts = pd.Series([r.suite for r in store.read_records()]).value_counts().to_dict()
    assert counts == {"depth-01-v1": 2, "depth-02-v1": 6}
    manifest = store.read_manifest()
    assert manifest.config["suite_limits"] == {"depth-01-v1": 2}
    entry = manifest.solvers["random"].pinned
    assert entry["load_s"] >= 0 and entry["load_peak_rss_mb"] > 10  # a Python process


def test_limits_and_timing_are_checked_before_anything_runs():
    base = {"solvers": (SolverSpec("random"),), "suites": ("depth-01-v1",)}
    with pytest.raises(ArgumentError, match="depth-09-v1 is not a suite of the run"):
        RunConfig(**base, suite_limits={"depth-09-v1": 3})
    with pytest.raises(ArgumentError, match="whole number of cubes"):
        RunConfig(**base, suite_limits={"depth-01-v1": 0})
    with pytest.raises(ArgumentError, match="alone means one worker"):
        RunConfig(**base, timing="alone", workers=2)
    with pytest.raises(ArgumentError, match="choose one of shared, alone"):
        RunConfig(**base, timing="lonely")


def test_the_cactus_counts_cubes_solved_within_each_time(tmp_path):
    run_a = make_run(tmp_path / "a", {RANDOM: 3}, n=4, solver="fast", time_s=0.5)
    add_solver(run_a, "slow", {RANDOM: 4}, n=4)
    data, _ = load_runs([run_a])
    data.loc[data["label"] == "slow", "wall_s"] = [1.0, 2.0, 3.0, 4.0]
    _, table = cactus(data, palette(sorted(data["label"].unique())))
    slow = table[table["label"] == "slow"]
    assert slow["seconds"].tolist() == [1.0, 2.0, 3.0, 4.0]
    assert slow["solved_within"].tolist() == [1, 2, 3, 4] and slow["share"].iloc[-1] == 1.0
    fast = table[table["label"] == "fast"]
    assert fast["solved_within"].max() == 3 and fast["share"].max() == 0.75


def test_within_a_budget_is_the_shortest_that_solves_every_cube_in_time(tmp_path):
    run_a = make_run(tmp_path / "a", {RANDOM: 5}, n=5, solver="quick", length_extra=4)
    add_solver(run_a, "careful", {RANDOM: 5}, n=5)  # 20 moves, but 30 s a cube
    add_solver(run_a, "partial", {RANDOM: 4}, n=5)  # shortest, but misses a cube
    data, _ = load_runs([run_a])
    data.loc[data["label"] == "careful", "wall_s"] = 30.0
    data.loc[data["label"] == "quick", "wall_s"] = 0.5
    table = within_budgets(data).set_index("metric")
    assert table.loc["HTM", "within 1 s"].startswith("24.00 quick")
    assert table.loc["HTM", "within 60 s"].startswith("20.00 careful")
    assert "partial" not in " ".join(table.loc["HTM"].astype(str))
    assert "2 cores" in table.loc["HTM", "hardware"]


def test_a_time_rule_ignores_a_change_of_microseconds():
    rule = Rule.parse("time>+20%")
    same = {"solve_rate_diff_pp": 0.0, "length_diff": 0.0}
    tiny = {**same, "time_change_pct": 20.5, "new_median_s": 3e-05, "base_median_s": 2.5e-05}
    assert not rule.crossed(tiny)
    real = {**same, "time_change_pct": 50.0, "new_median_s": 0.3, "base_median_s": 0.2}
    assert rule.crossed(real)


def test_a_folder_install_of_a_plugin_records_its_source_hash(tmp_path, monkeypatch):
    from cubebench.harness.records import provenance

    package = tmp_path / "site" / "myplug"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))

    class Dist:
        version = "1.0"

        def read_text(self, name):  # PEP 610: installed from a local folder, not editable
            return json.dumps({"url": "file:///src/myplug", "dir_info": {}})

    monkeypatch.setattr(provenance, "packages_distributions", lambda: {"myplug": ["myplug"]})
    monkeypatch.setattr(provenance, "distribution", lambda name: Dist())
    origin = provenance.code_origin("myplug")
    assert origin["version"] == "1.0" and len(origin["source_sha256"]) == 64


def test_an_unknown_label_is_refused(tmp_path):
    run_a = make_run(tmp_path / "a", {RANDOM: 1}, n=1)
    with pytest.raises(RecordError, match="no such entry"):
        load_runs([run_a], {"nobody": "x"})
