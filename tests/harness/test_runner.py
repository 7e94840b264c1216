"""The runner against fake solvers that cheat, crash, hang or hog memory."""

from __future__ import annotations

import pytest

from harness.cube import SOLVED, apply_sequence, parse_moves, state_to_facelets
from harness.records.store import RunStore
from harness.runner import RunConfig, SolverSpec, run
from harness.suites.model import Instance
from harness.suites.registry import register_user_suite


@pytest.fixture
def tiny_suite(isolated_home) -> str:
    scrambles = ["R U", "F2 D'", "L B' U2"]
    instances = [
        Instance(
            i, state_to_facelets(apply_sequence(SOLVED, parse_moves(s))), s, None, len(s.split())
        )
        for i, s in enumerate(scrambles)
    ]
    register_user_suite("tiny", instances, {"source": "test"})
    return "tiny"


def _run(tmp_path, suite, *solvers, **kwargs) -> list:
    config = RunConfig(
        solvers=tuple(SolverSpec(f"tests.fakes:{s}") for s in solvers),
        suites=(suite,),
        out=str(tmp_path / "runs"),
        workers=1,
        **kwargs,
    )
    store = run(config, show_progress=False, run_id="r")
    return store.read_records()


def _statuses(records, solver):
    return [r.status for r in records if r.solver == f"tests.fakes:{solver}"]


def test_each_misbehaviour_gets_its_status_and_the_run_goes_on(tmp_path, tiny_suite):
    records = _run(
        tmp_path,
        tiny_suite,
        "Right",
        "Wrong",
        "Illegal",
        "Crashing",
        "Mutating",
        "NotAnAttempt",
        "Dying",
        time_limit=5,
    )
    assert _statuses(records, "Right") == ["solved"] * 3
    assert _statuses(records, "Wrong") == ["wrong"] * 3
    assert _statuses(records, "Illegal") == ["illegal"] * 3
    assert _statuses(records, "Crashing") == ["error"] * 3
    assert _statuses(records, "Mutating") == ["error"] * 3
    assert _statuses(records, "NotAnAttempt") == ["error"] * 3
    assert _statuses(records, "Dying") == ["error"] * 3
    by = {(r.solver.split(":")[1], r.instance): r for r in records}
    right = by[("Right", 0)]
    assert right.moves and right.length_htm == 2 and right.gap_htm == 0
    assert (right.nodes, right.model_calls, right.info) == (7, 2, {"ok": 1})
    assert "not a move id (0..17): 99" in by[("Illegal", 0)].error
    assert by[("Crashing", 1)].error == "RuntimeError: boom in the solver"
    assert "read-only" in by[("Mutating", 0)].error
    assert "not an Attempt" in by[("NotAnAttempt", 0)].error
    assert by[("Dying", 2)].error == "worker exited with code 3"


def test_hanging_and_late_solvers_time_out(tmp_path, tiny_suite):
    records = _run(tmp_path, tiny_suite, "Hanging", "Slow", time_limit=0.5)
    hanging = [r for r in records if r.solver.endswith("Hanging")]
    assert [r.status for r in hanging] == ["timeout"] * 3
    assert "killed after" in hanging[0].error
    slow = [r for r in records if r.solver.endswith("Slow")]
    assert [r.status for r in slow] == ["timeout"] * 3
    assert "over the budget" in slow[0].error and slow[0].moves  # it answered, but late


def test_memory_hog_is_killed(tmp_path, tiny_suite):
    records = _run(
        tmp_path, tiny_suite, "Hungry", "Right", time_limit=20, memory_limit_gb=0.6, limit=2
    )
    assert _statuses(records, "Hungry") == ["error"] * 2
    assert "memory above 0.6 GB" in records[0].error
    assert _statuses(records, "Right") == ["solved"] * 2


def test_solver_that_cannot_load_costs_its_instances_only(tmp_path, tiny_suite):
    records = _run(tmp_path, tiny_suite, "BrokenLoad", "Right")
    broken = [r for r in records if r.solver.endswith("BrokenLoad")]
    assert [r.status for r in broken] == ["error"] * 3
    assert "checkpoint weights.pt is corrupt" in broken[0].error
    assert _statuses(records, "Right") == ["solved"] * 3


def test_budgets_are_enforced_by_the_harness(tmp_path, tiny_suite):
    records = _run(tmp_path, tiny_suite, "Right", max_length=2, max_nodes=5)
    assert [r.status for r in records] == ["unsolved"] * 3
    assert "over the budget" in records[0].error


def test_manifest_has_provenance(tmp_path, tiny_suite):
    _run(tmp_path, tiny_suite, "Right", limit=1)
    manifest = RunStore(tmp_path / "runs" / "r").read_manifest()
    assert manifest["schema_version"] == 1 and manifest["finished"]
    assert set(manifest["suites"]["tiny"]) >= {"sha256", "count"}
    assert manifest["solvers"]["tests.fakes:Right"]["settings"] == {"seed": 0}
    assert manifest["machine"]["cores"] >= 1 and "numpy" in manifest["packages"]
    assert "commit" in manifest["git"]
