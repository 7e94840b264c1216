"""The seam's messages: what a worker answers, typed, for each way a solver can end."""

from __future__ import annotations

import pickle

import pytest

from cubebench.harness import registry
from cubebench.harness.cube import SOLVED, apply_sequence, parse_moves, state_to_facelets
from cubebench.harness.executors.messages import (
    Crashed,
    LoadFailed,
    Ready,
    Solved,
    Task,
    TaskKey,
    load_solver,
    solve_task,
)
from cubebench.harness.registry import Resolved, UnknownSolverError, resolve
from cubebench.harness.runner import RunConfig, SolverSpec, run
from cubebench.harness.sink import verdict
from cubebench.harness.solver import Budget

TASK = Task(TaskKey("e", "s", 3), state_to_facelets(apply_sequence(SOLVED, parse_moves("R U"))))


def test_a_solver_that_answers_one_that_raises_and_one_that_cannot_load():
    right, started = load_solver(resolve("tests.fakes:Right"))
    assert isinstance(started, Ready) and started.report.name == "right"
    assert started.report.load_s >= 0 and started.report.pinned()["name"] == "right"
    answer = solve_task(right, TASK, Budget())
    assert isinstance(answer, Solved) and answer.key == TASK.key
    assert verdict(answer, TASK, (2, 2), Budget()).status == "solved"

    crashing, _ = load_solver(resolve("tests.fakes:Crashing"))
    crash = solve_task(crashing, TASK, Budget())
    assert isinstance(crash, Crashed) and crash.key == TASK.key and crash.wall_s >= 0
    record = verdict(crash, TASK, (2, 2), Budget())
    assert record.status == "error" and record.error == crash.error

    with pytest.raises(UnknownSolverError, match="no-such-solver"):  # in the run's process
        resolve("no-such-solver")
    gone = Resolved("gone", "no_such_module:Solver", resolve("tests.fakes:Right").settings)
    missing, failed = load_solver(gone)  # a worker whose code went away meanwhile
    assert missing is None and isinstance(failed, LoadFailed) and "no_such_module" in failed.reason


def test_a_worker_constructs_the_solver_from_typed_settings_and_parses_nothing(monkeypatch):
    entry = resolve("tests.fakes:Pausing", {"pause": "0.25"})
    assert entry.settings.pause == 0.25  # typed once, here

    def no_parsing(*args, **kwargs):
        raise AssertionError("a worker parsed a setting")

    monkeypatch.setattr(registry, "parse_settings", no_parsing)
    solver, started = load_solver(pickle.loads(pickle.dumps(entry)))  # as a worker gets it
    assert isinstance(started, Ready) and solver.settings.pause == 0.25


def test_a_run_resolves_and_parses_each_entry_once(tmp_path, monkeypatch):
    calls: list[str] = []
    parse, lookup = registry.parse_settings, registry.solver_target

    def counted_parse(cls, values):
        calls.append(f"parse {cls.__name__}")
        return parse(cls, values)

    def counted_lookup(name):
        calls.append(f"lookup {name}")
        return lookup(name)

    monkeypatch.setattr(registry, "parse_settings", counted_parse)
    monkeypatch.setattr(registry, "solver_target", counted_lookup)
    entries = (SolverSpec("tests.fakes:Right"), SolverSpec("tests.fakes:Pausing", {"pause": "0"}))
    config = RunConfig(
        solvers=entries, suites=("depth-01-v1",), limit=4, workers=2, out=str(tmp_path)
    )
    run(config, show_progress=False, run_id="r")
    assert sorted(calls) == sorted([
        "lookup tests.fakes:Right", "parse SolverSettings",
        "lookup tests.fakes:Pausing", "parse PauseSettings",
    ])  # fmt: skip


def test_messages_cross_a_process_boundary_unchanged():
    right, _ = load_solver(resolve("tests.fakes:Right"))
    for message in (solve_task(right, TASK, Budget()), Crashed(TASK.key, "boom", 0.5)):
        assert pickle.loads(pickle.dumps(message)) == message
