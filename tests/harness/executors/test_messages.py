"""The seam's messages: what a replica answers, typed, for each way a solver can end."""

from __future__ import annotations

import pickle

from cubebench.harness.cube import SOLVED, apply_sequence, parse_moves, state_to_facelets
from cubebench.harness.executors.messages import (
    Crashed,
    LoadFailed,
    Ready,
    Solved,
    Task,
    load_solver,
    solve_task,
)
from cubebench.harness.sink import verdict
from cubebench.harness.solver import Budget

TASK = Task(("e", "s", 3), state_to_facelets(apply_sequence(SOLVED, parse_moves("R U"))))


def test_a_solver_that_answers_one_that_raises_and_one_that_cannot_load():
    right, started = load_solver("tests.fakes:Right", {})
    assert isinstance(started, Ready) and started.meta["name"] == "right"
    assert started.meta["load_s"] >= 0
    answer = solve_task(right, TASK, Budget())
    assert isinstance(answer, Solved) and answer.key == TASK.key
    assert verdict(answer, TASK, (2, 2), Budget()).status == "solved"

    crashing, _ = load_solver("tests.fakes:Crashing", {})
    crash = solve_task(crashing, TASK, Budget())
    assert isinstance(crash, Crashed) and crash.key == TASK.key and crash.wall_s >= 0
    record = verdict(crash, TASK, (2, 2), Budget())
    assert record.status == "error" and record.error == crash.error

    missing, failed = load_solver("no-such-solver", {})
    assert missing is None and isinstance(failed, LoadFailed) and "no-such-solver" in failed.reason


def test_messages_cross_a_process_boundary_unchanged():
    right, _ = load_solver("tests.fakes:Right", {})
    for message in (solve_task(right, TASK, Budget()), Crashed(TASK.key, "boom", 0.5)):
        assert pickle.loads(pickle.dumps(message)) == message
