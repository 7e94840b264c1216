"""What executors report becomes records: judged on the solver's own time, never replayed
past the longest answer accepted, and a run that can only fail stops."""

from __future__ import annotations

import time

import pytest

from cubebench.harness import sink
from cubebench.harness.runner import RunConfig, SolverSpec, run
from cubebench.harness.sink import SAME_ERROR_STOP, RunAbortedError
from cubebench.harness.verify import MAX_ANSWER_MOVES


def _config(tmp_path, solver: str, **kwargs) -> RunConfig:
    return RunConfig(
        solvers=(SolverSpec(f"tests.fakes:{solver}", kwargs.pop("settings", {})),),
        suites=(kwargs.pop("suite", "depth-02-v1"),),
        out=str(tmp_path / "runs"),
        **{"workers": 1, "limit": 4, **kwargs},
    )


def test_an_answer_that_came_in_time_is_not_judged_a_timeout(tmp_path, monkeypatch):
    judge = sink.judge

    def slow_judge(*args, **kwargs):  # a long verification in the parent
        time.sleep(3.0)
        return judge(*args, **kwargs)

    monkeypatch.setattr(sink, "judge", slow_judge)
    config = _config(
        tmp_path,
        "SecondIsSlower",
        settings={"marker": str(tmp_path / "first"), "pause": 0.2},
        workers=2,
        limit=2,
        time_limit=0.5,  # killed after 1.55 s: well inside the 3 s the first answer's check takes
    )
    records = run(config, show_progress=False, run_id="r").read_records()
    assert sorted(r.status for r in records) == ["solved", "solved"]
    assert max(r.wall_s for r in records) < 0.5  # the times the workers measured


def test_an_answer_of_millions_of_moves_is_unsolved_and_not_stored(tmp_path):
    store = run(_config(tmp_path, "Endless", limit=2), show_progress=False, run_id="r")
    records = store.read_records()
    assert [r.status for r in records] == ["unsolved", "unsolved"]
    assert f"5000000 moves is over the longest accepted ({MAX_ANSWER_MOVES})" in records[0].error
    assert not records[0].moves and records[0].length_htm is None
    assert (store.folder / "records.jsonl").stat().st_size < 10_000


def test_the_runs_max_length_is_the_cap_when_set(tmp_path):
    config = _config(tmp_path, "Endless", limit=1, max_length=30)
    (record,) = run(config, show_progress=False, run_id="r").read_records()
    assert record.status == "unsolved" and "longest accepted (30)" in record.error


def test_a_run_whose_every_instance_fails_alike_stops_early(tmp_path):
    config = _config(tmp_path, "Crashing", limit=100, suite="depth-05-v1")
    with pytest.raises(RunAbortedError, match="RuntimeError: boom in the solver") as raised:
        run(config, show_progress=False, run_id="r")
    assert "the run stopped" in str(raised.value)
    records = (tmp_path / "runs" / "r" / "records.jsonl").read_text().splitlines()
    assert len(records) == SAME_ERROR_STOP


def test_errors_after_a_success_do_not_stop_the_run(tmp_path):
    config = _config(
        tmp_path,
        "CrashesAfterFirst",
        settings={"marker": str(tmp_path / "m")},
        limit=SAME_ERROR_STOP + 3,
    )
    records = run(config, show_progress=False, run_id="r").read_records()
    assert len(records) == SAME_ERROR_STOP + 3
    assert sorted(r.status for r in records).count("error") == SAME_ERROR_STOP + 2


@pytest.mark.parametrize(
    ("info", "wall", "status"),
    [
        ({"gave_up": "time"}, 0.9, "timeout"),  # stopped at its own deadline, under the limit
        ({"gave_up": "time: no solution shorter than 17 htm"}, 0.95, "timeout"),
        ({}, 1.6, "timeout"),  # gave up, but only after the limit
        ({"gave_up": "max depth"}, 0.2, "unsolved"),  # a give-up that is no time-out
        ({"gave_up": "nodes"}, 0.2, "unsolved"),
    ],
)
def test_a_time_out_is_a_time_out_whoever_noticed_it(info, wall, status):
    from cubebench.harness.cube import apply_sequence, parse_moves, solved_batch
    from cubebench.harness.solver import Budget
    from cubebench.harness.verify import RawAttempt, judge

    state = apply_sequence(solved_batch(1), parse_moves("R U F"))[:, 0]
    record = judge(state, RawAttempt([], 5, 0, info, wall), Budget(wall_seconds=1.0),
                   solver="s", suite="x", instance=0)  # fmt: skip
    assert record.status == status


def test_the_optimal_solver_at_a_short_limit_is_recorded_timeout(tmp_path):
    config = RunConfig(
        solvers=(SolverSpec("optimal", {"tables": "small"}),),
        suites=("random-state-v1",), out=str(tmp_path), limit=1, time_limit=1.0,
    )  # fmt: skip
    (record,) = run(config, show_progress=False, run_id="r").read_records()
    assert record.status == "timeout", record
