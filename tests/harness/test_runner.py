"""The runner against fake solvers that cheat, crash, hang or hog memory."""

from __future__ import annotations

import os

import pytest

from cubebench.harness.cube import SOLVED, apply_sequence, parse_moves, state_to_facelets
from cubebench.harness.executors import workers
from cubebench.harness.records.schema import SCHEMA_VERSION, RecordError
from cubebench.harness.records.store import RunStore
from cubebench.harness.runner import RunConfig, SolverSpec, resume, run
from cubebench.harness.solver import ArgumentError, SolverLoadError
from cubebench.harness.suites.catalog import register_user_suite
from cubebench.harness.suites.model import Instance


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
        **{"workers": 1, **kwargs},
    )
    store = run(config, show_progress=False, run_id="r")
    return store.read_records()


def _statuses(records, solver):
    return [r.status for r in records if r.entry == f"tests.fakes:{solver}"]


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
    by = {(r.entry.split(":")[1], r.instance): r for r in records}
    right = by[("Right", 0)]
    assert right.moves and right.length_htm == 2 and right.gap_htm == 0
    # the info the solver gave, and the metric it declares (face turns, by default)
    assert (right.nodes, right.model_calls, right.info) == (7, 2, {"ok": 1, "metric": "htm"})
    assert right.metric == "htm"
    assert "not a move id (0..17): 99" in by[("Illegal", 0)].error
    assert by[("Crashing", 1)].error == "RuntimeError: boom in the solver"
    assert "read-only" in by[("Mutating", 0)].error
    assert "not an Attempt" in by[("NotAnAttempt", 0)].error
    assert by[("Dying", 2)].error == "worker exited with code 3"


def test_hanging_and_late_solvers_time_out(tmp_path, tiny_suite):
    """On the wall clock, a solver that sleeps past its limit is late; on the CPU clock a
    sleep costs nothing until the wall clock's cap, three times the limit."""
    records = _run(tmp_path, tiny_suite, "Hanging", "Slow", time_limit=0.5, clock="wall")
    hanging = [r for r in records if r.entry.endswith("Hanging")]
    assert [r.status for r in hanging] == ["timeout"] * 3
    assert "killed after" in hanging[0].error
    slow = [r for r in records if r.entry.endswith("Slow")]
    assert [r.status for r in slow] == ["timeout"] * 3
    assert "over the budget" in slow[0].error and slow[0].moves  # it answered, but late
    cpu = _run(tmp_path / "cpu", tiny_suite, "Hanging", "Slow", time_limit=0.5)
    assert _statuses(cpu, "Slow") == ["solved"] * 3  # 0.8 s asleep: within the cap, 1.5 s
    hung = [r for r in cpu if r.entry.endswith("Hanging")]
    assert [r.status for r in hung] == ["timeout"] * 3 and "3x the CPU limit" in hung[0].error


def test_memory_hog_is_killed(tmp_path, tiny_suite):
    records = _run(
        tmp_path, tiny_suite, "Hungry", "Right", time_limit=20, memory_limit_gb=0.6, limit=2
    )
    assert _statuses(records, "Hungry") == ["error"] * 2
    assert "memory above 0.6 GB" in records[0].error
    assert _statuses(records, "Right") == ["solved"] * 2


@pytest.mark.parametrize(
    ("solver", "why"),
    [
        ("BrokenLoad", "OSError: checkpoint weights.pt is corrupt"),
        ("DyingLoad", "worker exited with code 4"),
        ("HangingLoad", "did not load within 3 s"),
    ],
)
def test_a_solver_that_cannot_load_stops_the_run_before_it_starts(
    tmp_path, tiny_suite, monkeypatch, solver, why
):
    monkeypatch.setattr(workers, "LOAD_TIMEOUT_S", 3.0)
    with pytest.raises(SolverLoadError, match=why) as raised:
        _run(tmp_path, tiny_suite, "Right", solver)
    assert f"tests.fakes:{solver}" in str(raised.value)
    assert not (tmp_path / "runs").exists()  # nothing written, nothing for --resume to trip on


def test_a_solvers_one_time_build_runs_before_its_load_and_outside_the_load_timeout(
    tmp_path, tiny_suite, monkeypatch
):
    monkeypatch.setattr(workers, "LOAD_TIMEOUT_S", 5.0)  # the fake's build sleeps 6 s
    marker = tmp_path / "cache-filled"
    config = RunConfig(
        solvers=(SolverSpec("tests.fakes:BuildsFirst", {"marker": str(marker)}),),
        suites=(tiny_suite,),
        out=str(tmp_path / "runs"),
        workers=1,
    )
    run(config, show_progress=False, run_id="r")
    records = RunStore(tmp_path / "runs" / "r").read_records()
    assert _statuses(records, "BuildsFirst") == ["solved"] * 3
    assert marker.read_text() == str(os.getpid())  # built here, before any worker loaded


def test_a_load_failure_mid_run_stops_it_and_keeps_what_finished(tmp_path, tiny_suite):
    config = RunConfig(
        solvers=(
            SolverSpec("tests.fakes:Right"),
            SolverSpec("tests.fakes:LoadsOnce", {"marker": str(tmp_path / "loaded")}),
        ),
        suites=(tiny_suite,),
        out=str(tmp_path / "runs"),
        workers=1,
    )
    with pytest.raises(SolverLoadError, match="checkpoint changed .* finished records are kept"):
        run(config, show_progress=False, run_id="r")
    records = RunStore(tmp_path / "runs" / "r").read_records()
    assert _statuses(records, "Right") == ["solved"] * 3
    assert _statuses(records, "LoadsOnce") == ["error"]  # its worker died on that one
    assert not RunStore(tmp_path / "runs" / "r").read_manifest().finished


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"workers": 0}, "--workers 0: must be a whole number ≥ 1"),
        ({"limit": -5}, "--limit -5: must be a whole number ≥ 1"),
        ({"time_limit": -1}, "--time-limit -1: must be a positive number"),
        ({"time_limit": float("nan")}, "--time-limit nan: must be a positive number"),
        ({"memory_limit_gb": 0}, "--memory-limit-gb 0: must be a positive number"),
        ({"max_nodes": 0}, "--max-nodes 0: must be a whole number ≥ 1"),
    ],
)
def test_run_arguments_are_checked_before_anything_runs(tmp_path, tiny_suite, kwargs, message):
    with pytest.raises(ArgumentError, match=message):
        _run(tmp_path, tiny_suite, "Right", **kwargs)
    assert not (tmp_path / "runs").exists()


def test_budgets_are_enforced_by_the_harness(tmp_path, tiny_suite):
    records = _run(tmp_path, tiny_suite, "Right", max_length=2, max_nodes=5)
    assert [r.status for r in records] == ["unsolved"] * 3
    assert "over the budget" in records[0].error


def test_manifest_has_provenance(tmp_path, tiny_suite):
    _run(tmp_path, tiny_suite, "Right", limit=1)
    manifest = RunStore(tmp_path / "runs" / "r").read_manifest()
    assert manifest.schema_version == SCHEMA_VERSION and manifest.finished
    assert manifest.suites["tiny"].count == 3 and len(manifest.suites["tiny"].sha256) == 64
    assert manifest.solvers["tests.fakes:Right"].settings == {"seed": 0}
    assert manifest.machine["cores"] >= 1 and "numpy" in manifest.packages
    assert "commit" in manifest.git


def test_an_entry_with_its_own_limit_attempts_only_its_first_instances(tmp_path, tiny_suite):
    """A slow solver shares a broad run at fewer cubes a suite; a resume that extends the run
    extends the other entries, never that one past its own limit."""
    config = RunConfig(
        solvers=(
            SolverSpec("tests.fakes:Right"),
            SolverSpec("tests.fakes:Right", label="few", limit=1),
        ),
        suites=(tiny_suite,),
        limit=2,
        workers=1,
        out=str(tmp_path / "runs"),
    )
    store = run(config, show_progress=False, run_id="r")
    ids = lambda records, key: sorted(r.instance for r in records if r.entry == key)  # noqa: E731
    assert ids(store.read_records(), "tests.fakes:Right") == [0, 1]
    assert ids(store.read_records(), "few") == [0]
    manifest = store.read_manifest()
    assert [s["limit"] for s in manifest.config["solvers"]] == [None, 1]
    records = resume(store.folder, show_progress=False, limit=3).read_records()
    assert ids(records, "tests.fakes:Right") == [0, 1, 2] and ids(records, "few") == [0]


@pytest.mark.parametrize("limit", [0, -1, 2.5, True])
def test_an_entry_limit_that_is_not_a_count_is_refused_by_name(limit):
    with pytest.raises(ArgumentError, match=rf"solver few: limit={limit!r}: must be a whole"):
        SolverSpec("tests.fakes:Right", label="few", limit=limit)


def test_out_naming_a_file_says_so(tmp_path):
    (tmp_path / "afile").write_text("mine\n")
    config = RunConfig(
        solvers=(SolverSpec("random"),), suites=("depth-01-v1",), limit=1,
        out=str(tmp_path / "afile"),
    )  # fmt: skip
    with pytest.raises(RecordError, match=r"afile is a file, not a folder of runs"):
        run(config, show_progress=False, run_id="x")
    assert (tmp_path / "afile").read_text() == "mine\n"
