"""``bench suites annotate``: proved optima go into the suite as they come, the cubes stay."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cubebench.harness import Attempt, Budget
from cubebench.harness.cube import (
    SOLVED,
    apply_sequence,
    invert_sequence,
    parse_moves,
    state_to_facelets,
)
from cubebench.harness.registry import make_solver
from cubebench.harness.suites.annotate import _unscramble, annotate_suite
from cubebench.harness.suites.catalog import load_suite, register_user_suite, suite_info
from cubebench.harness.suites.importers import IMPORTERS
from cubebench.harness.suites.model import Instance, SuiteError, with_proved

SCRAMBLES = ("U R F D L B", "R U R F2 D", "L D B", "F R U B2", "R2 U2 F' L")
OPTIMA = {"htm": [6, 5, 3, 4, 4], "qtm": [6, 6, 3, 5, 6]}  # the oracle's distances


def _suite(tmp_path: Path, name: str = "mine") -> str:
    text = tmp_path / "cubes.txt"
    text.write_text("\n".join(SCRAMBLES) + "\n")
    register_user_suite(name, IMPORTERS["text"](text), {"kind": "imported"})
    return name


def test_optima_are_added_and_the_cubes_kept(tmp_path: Path) -> None:
    name = _suite(tmp_path)
    before = load_suite(name)
    outcomes = annotate_suite(name, "htm", tables="small")
    after = load_suite(name)
    assert [o.optimum for o in outcomes] == OPTIMA["htm"]
    assert [i.optimal_htm for i in after.instances] == OPTIMA["htm"]
    assert after.states_sha256 == before.states_sha256 and after.sha256 != before.sha256
    assert suite_info(name).meta["optimal_htm_proved"] == len(SCRAMBLES)


def test_worker_processes_find_the_tables_built_once_before_they_start(
    tmp_path: Path, isolated_home: Path
) -> None:
    name = _suite(tmp_path)
    outcomes = annotate_suite(name, "qtm", tables="small", workers=2)
    assert sorted((o.instance, o.optimum) for o in outcomes) == list(enumerate(OPTIMA["qtm"]))
    cache = isolated_home / "cache" / "optimal"
    assert not [p.name for p in cache.iterdir() if p.name.endswith(".partial")]


def test_a_second_annotation_resumes_and_a_limit_stops_early(tmp_path: Path) -> None:
    name = _suite(tmp_path)
    assert len(annotate_suite(name, "qtm", limit=2, tables="small")) == 2
    rest = annotate_suite(name, "qtm", tables="small")
    assert [o.instance for o in rest] == [2, 3, 4]
    assert annotate_suite(name, "qtm", tables="small") == []
    assert [i.optimal_qtm for i in load_suite(name).instances] == OPTIMA["qtm"]


def test_a_search_out_of_time_keeps_a_lower_bound_only(tmp_path: Path) -> None:
    text = tmp_path / "deep.txt"
    text.write_text("R U F' L2 D B R' F2 U' L B2 D' R F U2 B'\n")
    register_user_suite("deep", IMPORTERS["text"](text), {"kind": "imported"})
    (outcome,) = annotate_suite("deep", "htm", tables="small", time_limit_s=1e-6)
    instance = load_suite("deep").instances[0]
    assert outcome.optimum is None and instance.optimal_htm is None
    assert instance.optimal_htm_min == outcome.lower_bound >= 1


def test_instances_that_ran_out_of_time_are_retried_after_the_rest(tmp_path: Path) -> None:
    name = _suite(tmp_path)

    bounds = iter([3, 2, 1, 1, 1])  # 0 and 1 run out after a long search; 2-4 at once

    class OutOfTime:
        def solve(
            self, state: np.ndarray, budget: Budget, known: list[int] | None = None, proved=0
        ):
            return Attempt(moves=(), info={"optimal_htm_min": next(bounds)})

    first = annotate_suite(name, "htm", solver=OutOfTime())
    assert [(o.instance, o.lower_bound) for o in first] == [(0, 3), (1, 2), (2, 1), (3, 1), (4, 1)]
    assert [i.optimal_htm_min for i in load_suite(name).instances] == [3, 2, 1, 1, 1]
    rest = annotate_suite(name, "htm", tables="small")
    assert [o.instance for o in rest] == [2, 3, 4, 1, 0]
    assert [i.optimal_htm for i in load_suite(name).instances] == OPTIMA["htm"]


def test_a_retry_goes_on_from_the_bound_the_last_try_proved(tmp_path: Path) -> None:
    name = _suite(tmp_path)
    real = make_solver("optimal", {"metric": "htm", "tables": "small"})
    budgets = iter([Budget(max_nodes=1), Budget(max_nodes=1)] + [Budget()] * 5)
    handed: list[int] = []

    class Spy:
        def solve(self, state: np.ndarray, budget: Budget, known=None, proved: int = 0):
            handed.append(proved)
            return real.solve(state, next(budgets), known=None, proved=proved)

    first = annotate_suite(name, "htm", limit=2, solver=Spy())
    bounds = [o.lower_bound for o in first]
    assert [o.optimum for o in first] == [None, None] and min(bounds) >= 1
    annotate_suite(name, "htm", solver=Spy())
    # the two tried again last, each from the bound its first try proved
    assert handed[:2] == [0, 0] and sorted(handed[-2:]) == sorted(bounds)
    assert [i.optimal_htm for i in load_suite(name).instances] == OPTIMA["htm"]


def test_a_scramble_that_solves_the_cube_is_handed_on_as_a_known_solution(tmp_path: Path) -> None:
    name = _suite(tmp_path)
    real = make_solver("optimal", {"metric": "qtm", "tables": "small"})
    seen: list[list[int] | None] = []

    class Spy:
        def solve(
            self, state: np.ndarray, budget: Budget, known: list[int] | None = None, proved=0
        ):
            seen.append(known)
            return real.solve(state, budget, known=known, proved=proved)

    outcomes = annotate_suite(name, "qtm", solver=Spy())
    assert [o.optimum for o in outcomes] == OPTIMA["qtm"]
    assert seen == [invert_sequence(parse_moves(s)) for s in SCRAMBLES]


def test_a_scramble_that_does_not_give_the_cube_is_not_used() -> None:
    state = apply_sequence(SOLVED, parse_moves("R U"))
    cube = state_to_facelets(state)
    assert _unscramble(Instance(0, cube, scramble="F"), state) is None
    assert _unscramble(Instance(0, cube, scramble="R Q"), state) is None  # not notation
    assert _unscramble(Instance(0, cube), state) is None
    assert _unscramble(Instance(0, cube, scramble="R U"), state) == parse_moves("U' R'")


def test_a_file_given_by_path_is_never_rewritten(tmp_path: Path) -> None:
    path = tmp_path / "users.jsonl"
    path.write_text(
        '{"id": 0, "facelets": "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"}\n'
    )
    with pytest.raises(SuiteError, match="annotate a registered suite"):
        annotate_suite(str(path), "htm", tables="small")
    with pytest.raises(SuiteError, match="use htm, qtm or both"):
        annotate_suite("mine", "stm")


def test_two_processes_annotating_one_suite_lose_nothing(tmp_path: Path) -> None:
    """Each metric in its own process at once: every write is a read-modify-write under the
    registry's lock, so neither overwrites what the other proved."""
    name = _suite(tmp_path)
    env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE"}
    command = [sys.executable, "-m", "cubebench.harness.cli.main", "suites", "annotate", name]
    procs = [
        subprocess.Popen(
            [*command, "--optimal", "--metric", metric, "--tables", "small"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for metric in ("htm", "qtm")
    ]
    for proc in procs:
        out, _ = proc.communicate(timeout=600)
        assert proc.returncode == 0, out
    instances = load_suite(name).instances
    assert [i.optimal_htm for i in instances] == OPTIMA["htm"]
    assert [i.optimal_qtm for i in instances] == OPTIMA["qtm"]


def test_merging_proved_optima_keeps_the_strongest_claim() -> None:
    """What the suite build and the merge of another machine's annotation both use."""
    bound = Instance(0, "x", optimal_htm_min=11)
    exact = Instance(0, "x", optimal_htm=15, optimal_qtm_min=17)
    assert with_proved(bound, exact) == exact  # an exact optimum replaces a bound
    assert with_proved(exact, bound) == exact  # and is never replaced by one
    higher = with_proved(bound, Instance(0, "x", optimal_htm_min=13))
    assert higher.optimal_htm_min == 13 and higher.optimal_htm is None
