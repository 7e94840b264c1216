"""The optimal solver against the breadth-first oracle, and what it may and may not claim.

The solver runs on its small tables here (built in about a second into the test's home); the
large tables give the same answers faster, and the benchmark measures them.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cubebench.harness import Budget
from cubebench.harness.cube import (
    SOLVED,
    apply_sequence,
    invert_sequence,
    is_solved,
    length_qtm,
    parse_moves,
    random_states,
    reduce_moves,
)
from cubebench.harness.registry import make_solver, prepare_solver
from cubebench.harness.settings import SettingsError
from cubebench.harness.suites.hard import SUPERFLIP
from cubebench.solvers.optimal import ida
from cubebench.solvers.optimal.solver import OptimalSettings, OptimalSolver
from cubebench.solvers.patterns import tables
from cubebench.solvers.patterns.coords import corner_parity, cperm_parity, move_tables, with_parity
from cubebench.solvers.patterns.flipslice import conjugation_tables

from .small import oracle, small_solver

SHALLOW = 8  # the oracle below is exact up to radius 4 + 4 levels


def _length(moves: tuple[int, ...], metric: str) -> int:
    return len(moves) if metric == "htm" else length_qtm(list(moves))


@pytest.mark.parametrize("metric", ["htm", "qtm"])
@given(data=st.data())
def test_shallow_cubes_get_the_oracles_distance(metric: str, table_folder: str, data) -> None:
    moves = data.draw(st.lists(st.integers(0, 17), max_size=SHALLOW))
    state = apply_sequence(SOLVED, moves)
    distance, exact = oracle(metric).distances(state.reshape(54, 1), 4)
    if not exact[0]:  # a scramble of 8 face turns can be 9 or more quarter turns away
        return
    attempt = small_solver(metric, table_folder).solve(state, Budget(wall_seconds=3600))
    assert is_solved(apply_sequence(state, list(attempt.moves)))
    assert _length(attempt.moves, metric) == distance[0]
    assert attempt.info["optimal"] is True
    assert attempt.info[f"optimal_{metric}"] == distance[0]


@pytest.mark.parametrize("metric", ["htm", "qtm"])
@given(data=st.data())
def test_a_known_solution_bounds_the_search_and_changes_no_optimum(
    metric: str, table_folder: str, data
) -> None:
    moves = data.draw(st.lists(st.integers(0, 17), min_size=1, max_size=SHALLOW))
    state = apply_sequence(SOLVED, moves)
    distance, exact = oracle(metric).distances(state.reshape(54, 1), 4)
    if not exact[0] or is_solved(state):
        return
    solver, budget = small_solver(metric, table_folder), Budget(wall_seconds=3600)
    known = invert_sequence(moves)
    plain, bounded = solver.solve(state, budget), solver.solve(state, budget, known=known)
    assert is_solved(apply_sequence(state, list(bounded.moves)))
    assert _length(bounded.moves, metric) == bounded.info[f"optimal_{metric}"] == distance[0]
    if _length(tuple(reduce_moves(known)), metric) == distance[0]:
        # the known solution is optimal: the search of its own length is skipped
        assert bounded.nodes_expanded < plain.nodes_expanded
        assert "known solution" in bounded.info["proof"]
    else:
        assert bounded.nodes_expanded == plain.nodes_expanded  # the same search finds it


@pytest.mark.parametrize("metric", ["htm", "qtm"])
@given(data=st.data())
def test_a_retry_goes_on_from_the_bound_an_earlier_search_proved(
    metric: str, table_folder: str, data
) -> None:
    moves = data.draw(st.lists(st.integers(0, 17), min_size=3, max_size=SHALLOW))
    state = apply_sequence(SOLVED, moves)
    distance, exact = oracle(metric).distances(state.reshape(54, 1), 4)
    if not exact[0] or is_solved(state):
        return
    solver = small_solver(metric, table_folder)
    stopped = solver.solve(state, Budget(max_nodes=data.draw(st.integers(1, 2000))))
    fresh = solver.solve(state, Budget())
    if stopped.moves:  # the budget sufficed: nothing to go on from
        return
    proved = stopped.info[f"optimal_{metric}_min"]
    retry = solver.solve(state, Budget(), proved=proved)
    assert is_solved(apply_sequence(state, list(retry.moves)))
    assert _length(retry.moves, metric) == retry.info[f"optimal_{metric}"] == distance[0]
    assert retry.nodes_expanded <= fresh.nodes_expanded
    first = solver.lower_bound(state)  # the first bound a fresh search walks
    if metric == "qtm" and first % 2 != corner_parity(state):
        first += 1
    if proved > first:
        assert retry.nodes_expanded < fresh.nodes_expanded  # the shorter bounds were skipped
        assert f"bounds below {proved} searched by an earlier attempt" in retry.info["proof"]


def test_the_parity_tables_are_refused_in_quarter_turns_before_any_build() -> None:
    with pytest.raises(SettingsError, match="tables='xlarge' is for metric='htm'"):
        OptimalSettings(metric="qtm", tables="xlarge")


def test_the_parity_beside_the_twist_follows_the_cubes_corner_parity() -> None:
    mv = move_tables()
    moves, conj = with_parity(mv["twist"], conjugation_tables().twist)
    parity = cperm_parity()
    rng = np.random.default_rng(0)
    for _ in range(50):
        seq = [int(m) for m in rng.integers(0, 18, 12)]
        twist, cperm, value = 0, 0, 0
        for m in seq:
            twist, cperm, value = mv["twist"][twist, m], mv["cperm"][cperm, m], moves[value, m]
        cube = apply_sequence(SOLVED, seq)
        assert value == 2 * twist + parity[cperm] and parity[cperm] == corner_parity(cube)
        assert (conj[value] % 2 == value % 2).all()  # a symmetry keeps the parity
        assert (conj[value] // 2 == conjugation_tables().twist[twist]).all()


def test_a_known_solution_that_does_not_solve_the_cube_is_refused(table_folder: str) -> None:
    state = apply_sequence(SOLVED, parse_moves("R U F"))
    with pytest.raises(ValueError, match="known='F U R'"):
        small_solver("htm", table_folder).solve(state, Budget(), known=parse_moves("F U R"))


@given(data=st.data())
def test_quarter_turn_optima_have_the_corner_permutations_parity(table_folder: str, data) -> None:
    moves = data.draw(st.lists(st.integers(0, 17), max_size=6))
    state = apply_sequence(SOLVED, moves)
    attempt = small_solver("qtm", table_folder).solve(state, Budget(wall_seconds=3600))
    assert length_qtm(list(attempt.moves)) % 2 == corner_parity(state)


@pytest.mark.parametrize("metric", ["htm", "qtm"])
def test_a_search_stopped_by_its_budget_claims_only_what_it_searched(
    metric: str, table_folder: str
) -> None:
    state = random_states(1, np.random.default_rng(0))[:, 0]  # far beyond a few nodes
    solver = small_solver(metric, table_folder)
    attempt = solver.solve(state, Budget(max_nodes=1000))
    assert attempt.moves == ()
    assert "optimal" not in attempt.info
    assert attempt.info[f"optimal_{metric}_min"] >= solver.lower_bound(state)
    assert attempt.nodes_expanded <= 1000 + 18  # one expansion may finish past the budget


def test_a_lower_bound_never_exceeds_the_distance(table_folder: str) -> None:
    solver = small_solver("htm", table_folder)
    for moves in ([0], [0, 3], [3, 6, 9, 12], list(range(0, 18, 2))):
        state = apply_sequence(SOLVED, moves)
        distance, exact = oracle("htm").distances(state.reshape(54, 1), 4)
        assert exact[0] and solver.lower_bound(state) <= distance[0]


def test_the_solved_cube_needs_no_moves(table_folder: str) -> None:
    attempt = small_solver("htm", table_folder).solve(SOLVED.copy(), Budget())
    assert attempt.moves == () and attempt.info["optimal"] is True


def test_a_damaged_table_is_refused_with_its_path(tmp_path: Path) -> None:
    tables.load("small", "htm", tmp_path)
    path = tmp_path / "twist-slice-htm.npy"
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(tables.TableError, match="twist-slice-htm.npy"):
        tables.load("small", "htm", tmp_path)


@pytest.mark.parametrize("metric", ["htm", "qtm"])
def test_small_tables_are_the_ones_a_correct_build_writes(metric: str, tmp_path: Path) -> None:
    loaded = tables.load("small", metric, tmp_path)
    for spec, table in zip(tables.SPECS["small"], loaded, strict=True):
        expected = tables.KNOWN_SHA256[tables.file_name(spec, metric)]
        assert hashlib.sha256(table).hexdigest() == expected


def test_a_build_shows_its_progress_and_a_cached_table_loads_silently(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tables.load("small", "htm", tmp_path)
    shown = capsys.readouterr().err
    for spec in tables.SPECS["small"]:
        last = shown.split(f"building {spec.name}-htm")[-1].splitlines()[0]
        assert "100.0% of" in last and f"{spec.size:,} entries" in last  # its last level
    tables.load("small", "htm", tmp_path)
    assert capsys.readouterr().err == ""  # read from the cache: nothing is built


def test_prepare_builds_into_the_cache_what_a_load_then_only_reads(
    isolated_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prepare_solver("optimal", {"tables": "small", "metric": "qtm"})
    built = sorted(p.name for p in (isolated_home / "cache" / "optimal").iterdir())
    assert built == sorted(tables.file_name(spec, "qtm") for spec in tables.SPECS["small"])
    assert "building" in capsys.readouterr().err
    OptimalSolver(OptimalSettings(metric="qtm", tables="small"))
    assert "building" not in capsys.readouterr().err


def test_packing_keeps_every_entry() -> None:
    values = np.random.default_rng(1).integers(0, 16, 1001).astype(np.uint8)
    assert (tables.unpack(tables._pack(values), values.size) == values).all()


def test_the_coordinates_are_solved_only_on_the_subgroup() -> None:
    moves = move_tables()
    for name in ("twist", "flip", "slice"):
        solved = 0 if name != "slice" else tables.SOLVED_COORDINATE["slice"]
        # U, D and the half turns keep the subgroup; a quarter turn of R leaves it
        kept = [moves[name][solved, m] == solved for m in (0, 1, 2, 9, 10, 11, 4, 7, 13, 16)]
        assert all(kept)
    assert any(
        moves[name][0 if name != "slice" else 494, 3] != (0 if name != "slice" else 494)
        for name in ("flip", "slice", "twist")
    )


def test_the_registry_builds_it_by_name() -> None:
    solver = make_solver("optimal", {"tables": "small", "metric": "qtm"})
    assert solver.settings.metric == "qtm"


def test_a_run_of_false_candidates_still_stops_at_the_budget(
    table_folder: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Near the superflip the tables call many unsolved states solved (they do not see how
    edges sit within their slice): each such candidate is checked on the cube, and the
    budget is looked at after each one, not only when a chunk of nodes runs out."""
    solver = small_solver("htm", table_folder)
    calls = []

    def only_false_candidates(bound, budget, root, walk):  # type: ignore[no-untyped-def]
        calls.append(bound)
        if len(calls) > 1000:
            raise AssertionError("the search never looked at its budget")
        walk[2][:bound] = 0  # U U U ...: not a solution of the superflip
        return ida.CANDIDATE, 10

    monkeypatch.setattr(solver, "_walk", only_false_candidates)
    superflip = apply_sequence(SOLVED, parse_moves(SUPERFLIP))
    attempt = solver.solve(superflip, Budget(wall_seconds=1e-6))  # spent at the first look
    assert attempt.moves == () and "optimal" not in attempt.info
    assert len(calls) == 1


def _damaged_home(isolated_home: Path, how: str) -> None:
    """The home's small face-turn tables, one of them damaged ``how``."""
    folder = isolated_home / "cache" / "optimal"
    tables.ensure("small", "htm", folder)
    path = folder / "twist-slice-htm.npy"
    data = bytearray(path.read_bytes())
    if how == "flipped":
        data[-1] ^= 1
    elif how == "cut":
        data = data[: len(data) // 2]
    elif how == "huge header":  # a header that claims 2^52 entries
        header = data[:128].decode("latin1")
        claim = f"({2**52},)"
        grown = header.replace("(1082565,)", claim).replace(" " * (len(claim) - 10), "", 1)
        assert len(grown) == 128  # the same header length, padding given up
        data[:128] = grown.encode("latin1")
    else:
        data = bytearray(b"not a table at all")
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("how", ["flipped", "cut", "huge header", "garbage"])
def test_every_command_refuses_a_damaged_table_in_one_line(isolated_home, tmp_path, how):
    from tests.harness.bench_process import bench

    _damaged_home(isolated_home, how)
    (tmp_path / "c.txt").write_text("R U F\n")
    assert bench("suites", "import", "text", str(tmp_path / "c.txt"), "--name", "c").returncode == 0
    for args in (
        ["suites", "annotate", "c", "--optimal", "--tables", "small"],
        ["suites", "annotate", "c", "--optimal", "--tables", "small", "--workers", "2"],
        ["solve", "R U F", "-s", "optimal", "--set", "tables=small"],
        ["run", "-s", "optimal", "--set", "tables=small", "--suite", "c", "--out", str(tmp_path),
         "--quiet", "--no-report"],
    ):  # fmt: skip
        result = bench(*args)
        assert result.returncode == 2, (args, result.stderr)
        lines = result.stderr.strip().splitlines()
        assert "twist-slice-htm.npy" in lines[-1] and "Traceback" not in result.stderr, args


def test_a_table_that_cannot_be_written_leaves_nothing_behind(tmp_path, monkeypatch):
    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tables.np, "save", full)
    with pytest.raises(tables.TableError, match="No space left on device"):
        tables.ensure("small", "htm", tmp_path)
    assert list(tmp_path.iterdir()) == []
