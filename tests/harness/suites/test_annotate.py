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
    # the seconds add up every search's, however short (milliseconds each, here)
    spent = suite_info(name).meta["optimal_htm_seconds"]
    assert spent > 0 and spent == pytest.approx(sum(o.seconds for o in outcomes), abs=0.01)


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


# -- built-in suites are never written in the package; annotations share the work -------

from cubebench.harness.suites.catalog import BUILTIN_DIR  # noqa: E402
from cubebench.harness.suites.claims import live_claims, write_claims  # noqa: E402
from cubebench.harness.suites.overlay import overlay_path  # noqa: E402
from tests.harness.bench_process import alive, children, start_bench, wait_for  # noqa: E402


def _package_files() -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in BUILTIN_DIR.iterdir() if p.is_file()}


def test_a_builtin_suite_is_annotated_beside_the_users_suites_and_read_through(isolated_home):
    before = _package_files()
    shipped = load_suite("depth-11-v1")
    target = next(i for i in shipped.instances if i.optimal_qtm is None)
    outcomes = []
    annotate_suite("depth-11-v1", "qtm", tables="small", limit=target.id + 1,
                   time_limit_s=1e-6, on_result=outcomes.append)  # fmt: skip
    assert outcomes and _package_files() == before  # the package is as installed
    assert overlay_path("depth-11-v1").is_file()
    now = {i.id: i for i in load_suite("depth-11-v1").instances}
    assert now[target.id].optimal_qtm_min == outcomes[-1].lower_bound
    assert load_suite("depth-11-v1").states_sha256 == shipped.states_sha256


def test_a_claim_by_a_live_process_is_left_to_it_and_a_dead_ones_is_taken(tmp_path):
    name = _suite(tmp_path)
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        write_claims(name, "htm", {0: holder.pid, 1: holder.pid})
        first = annotate_suite(name, "htm", tables="small")
        assert sorted(o.instance for o in first) == [2, 3, 4]  # 0 and 1 are the other's
        assert live_claims(name, "htm") == {0: holder.pid, 1: holder.pid}
    finally:
        holder.kill()
        holder.wait()
    rest = annotate_suite(name, "htm", tables="small")  # its claims died with it
    assert sorted(o.instance for o in rest) == [0, 1]
    assert [i.optimal_htm for i in load_suite(name).instances] == OPTIMA["htm"]
    assert live_claims(name, "htm") == {}


def test_two_annotations_of_one_suite_and_metric_prove_each_cube_once(tmp_path):
    name = _suite(tmp_path)
    command = ["suites", "annotate", name, "--optimal", "--metric", "qtm", "--tables", "small"]
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "cubebench.harness.cli.main", *command],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for _ in range(2)
    ]
    proved: list[int] = []
    for proc in procs:
        out, _ = proc.communicate(timeout=600)
        assert proc.returncode == 0, out
        proved += [int(line.split("#")[1].split()[0]) for line in out.splitlines() if " #" in line]
    assert sorted(proved) == list(range(len(SCRAMBLES)))  # each once, between the two
    assert [i.optimal_qtm for i in load_suite(name).instances] == OPTIMA["qtm"]


def _deep_suite(tmp_path: Path) -> str:
    """Cubes the small tables take minutes each to prove: the workers stay busy."""
    cubes = [Instance(i.id, i.facelets) for i in load_suite("random-state-v1", limit=4).instances]
    register_user_suite("deep", cubes, {"kind": "imported"})  # their optima left out
    return "deep"


@pytest.mark.parametrize("signal_name", ["SIGKILL", "SIGTERM"])
def test_the_annotations_workers_die_with_it(tmp_path, signal_name):
    import signal

    name = _deep_suite(tmp_path)
    proc = start_bench("suites", "annotate", name, "--optimal", "--tables", "small",
                       "--workers", "2", "--time-limit", "600")  # fmt: skip
    try:
        # two workers with their tables loaded (the resource tracker is a child too)
        wait_for(lambda: sum(map(_busy, children(proc.pid))) >= 2, "two workers", 300)
        workers = children(proc.pid)  # the workers and the resource tracker
        proc.send_signal(getattr(signal, signal_name))
        code = proc.wait(timeout=60)
        if signal_name == "SIGTERM":
            assert code == 128 + signal.SIGTERM, proc.stderr.read() if proc.stderr else ""
        wait_for(lambda: not any(alive(pid) for pid in workers), "the workers to end", 60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert live_claims(name, "htm") == {}  # claims of the dead are void


def _busy(pid: int) -> bool:
    """A worker that has loaded its tables (more than 100 MB resident)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    rss = next(
        (int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS")), 0
    )
    return rss > 100_000
