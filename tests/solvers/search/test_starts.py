"""Searches from several starts (every start's answer maps back to a solution of the cube,
the shortest one is kept, budgets hold across the starts together), and searches on a value
averaged over symmetric images."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cubebench.harness import Budget, SettingsError, move_set
from cubebench.harness.cube import (
    apply_sequence,
    facelets_to_state,
    is_solved,
    solved_batch,
    state_hash,
)
from cubebench.harness.cube.symmetry import symmetric_values
from cubebench.harness.registry import make_solver
from cubebench.harness.suites.catalog import load_suite
from cubebench.harness.suites.oracle import DistanceOracle
from cubebench.solvers.patterns.bounds import corner_bound
from cubebench.solvers.search import CheckedModel, beam_search
from cubebench.solvers.search.settings import SearchSettings, run_search
from cubebench.solvers.search.starts import (
    MAX_STARTS,
    STARTS,
    SYMMETRY_ORDER,
    map_back,
    start_state,
)
from tests.harness.cube.strategies import move_sequences


@pytest.fixture(scope="module")
def oracle() -> DistanceOracle:
    return DistanceOracle.build(5)


def test_starts_are_distinct_and_begin_with_the_cube_and_its_inverse():
    assert len(set(STARTS)) == MAX_STARTS == 96
    assert STARTS[:2] == ((0, False), (0, True))


@given(move_sequences, st.integers(min_value=0, max_value=MAX_STARTS - 1))
def test_every_start_is_as_far_from_solved_and_its_solutions_map_back(oracle, scramble, i):
    """An exact search from the start (not the symmetry tables) finds an optimal path of the
    start's state; mapped back, it solves the cube in as many moves."""
    cube = apply_sequence(solved_batch(1)[:, 0], scramble[:5])
    begin = start_state(cube, STARTS[i])
    exact = lambda s: oracle.table_distance(s).astype(np.float32)  # noqa: E731
    found = beam_search(begin, CheckedModel(exact, "value"), 8, "value").moves
    assert found is not None
    assert len(found) == oracle.table_distance(cube[:, None])[0]
    back = map_back(found, STARTS[i])
    assert len(back) == len(found) and is_solved(apply_sequence(cube, back))


def _noisy(oracle):
    """The exact distance plus up to 3 moves of noise fixed per state: beams from different
    starts take different paths, some longer than others."""

    def value(states):
        noise = (state_hash(states) % np.uint64(7)).astype(np.float32) / 2
        return oracle.table_distance(states).astype(np.float32) + noise

    return value


def test_the_shortest_answer_over_the_starts_is_kept(oracle):
    value = _noisy(oracle)
    cubes = [facelets_to_state(i.facelets) for i in load_suite("depth-05-v1").instances[:12]]
    gained = 0
    for cube in cubes:
        alone = [
            beam_search(start_state(cube, s), CheckedModel(value, "value"), 4, "value").moves
            for s in STARTS[:6]
        ]
        lengths = [len(m) for m in alone if m is not None]
        settings = SearchSettings(beam_width=4, starts=6)
        attempt = run_search(cube, Budget(wall_seconds=None), settings, value=value)
        assert is_solved(apply_sequence(cube, attempt.moves))
        assert len(attempt.moves) == min(lengths)
        first = None if alone[0] is None else len(alone[0])
        assert attempt.info["start_lengths"][0] == first
        gained += first is None or min(lengths) < first
    assert gained  # the check above would pass with one start if no start ever helped


def test_in_quarter_turns_later_starts_look_two_moves_shorter_and_miss_nothing():
    """A cube's quarter-turn solutions all share one parity, so a later start searches only
    for paths two moves shorter than the best so far, and still finds every one a start
    would find alone."""
    qtm = move_set("qtm")
    oracle = DistanceOracle.build(5, metric="qtm")

    def value(states):
        noise = (state_hash(states) % np.uint64(7)).astype(np.float32) / 2
        return oracle.table_distance(states).astype(np.float32) + noise

    gained = 0
    for seed in range(12):
        scramble = np.random.default_rng(seed).choice(qtm.moves, size=5).tolist()
        cube = apply_sequence(solved_batch(1)[:, 0], scramble)
        alone = [
            beam_search(start_state(cube, s), CheckedModel(value, "value"), 4, "value", qtm).moves
            for s in STARTS[:6]
        ]
        lengths = [len(m) for m in alone if m is not None]
        assert all(n % 2 == lengths[0] % 2 for n in lengths)
        settings = SearchSettings(beam_width=4, starts=6, metric="qtm")
        attempt = run_search(cube, Budget(wall_seconds=None), settings, value=value)
        assert is_solved(apply_sequence(cube, attempt.moves))
        assert len(attempt.moves) == min(lengths)
        gained += alone[0] is None or min(lengths) < len(alone[0])
    assert gained


def test_each_start_reports_what_it_cost(oracle):
    """``start_nodes`` and ``start_seconds`` split the attempt's work over its starts: the
    first start's nodes are those of the same search alone, and the nodes add up."""
    value = _noisy(oracle)
    cube = facelets_to_state(load_suite("depth-05-v1").instances[0].facelets)
    alone = beam_search(cube, CheckedModel(value, "value"), 4, "value")
    settings = SearchSettings(beam_width=4, starts=4)
    attempt = run_search(cube, Budget(wall_seconds=None), settings, value=value)
    info = attempt.info
    assert len(info["start_nodes"]) == len(info["start_seconds"]) == len(info["start_lengths"])
    assert len(info["start_nodes"]) >= 2  # a later start that ran, not only the first
    assert info["start_nodes"][0] == alone.nodes_expanded
    assert sum(info["start_nodes"]) == attempt.nodes_expanded
    assert all(s >= 0 for s in info["start_seconds"])


def _offset_noise(oracle, salt: int):
    """Like :func:`_noisy`, with noise drawn differently per ``salt``: another model."""

    def value(states):
        noise = ((state_hash(states) >> np.uint64(salt)) % np.uint64(7)).astype(np.float32) / 2
        return oracle.table_distance(states).astype(np.float32) + noise

    return value


def test_an_ensemble_searches_with_every_model_and_keeps_the_shortest(oracle):
    models = [_offset_noise(oracle, salt) for salt in (0, 11, 23)]
    cubes = [facelets_to_state(i.facelets) for i in load_suite("depth-05-v1").instances[:12]]
    gained = 0
    for cube in cubes:
        alone = [beam_search(cube, CheckedModel(m, "value"), 4, "value").moves for m in models]
        lengths = [len(m) for m in alone if m is not None]
        settings = SearchSettings(beam_width=4)
        attempt = run_search(
            cube, Budget(wall_seconds=None), settings, value=models[0], ensemble=models[1:]
        )
        # later members look only for shorter paths, so only the first's length is its own
        assert attempt.info["start_lengths"][0] == (None if alone[0] is None else len(alone[0]))
        if not lengths:  # no model solves it: neither does the ensemble
            assert attempt.moves == () and not is_solved(cube)
            continue
        assert is_solved(apply_sequence(cube, attempt.moves))
        assert len(attempt.moves) == min(lengths)
        first = None if alone[0] is None else len(alone[0])
        if first is None or min(lengths) < first:
            gained += 1
            assert attempt.info["member"] > 0
    assert gained  # some member beat the first model, so the checks above mean something


def test_node_and_call_budgets_hold_across_the_starts(oracle):
    cube = facelets_to_state(load_suite("depth-05-v1").instances[0].facelets)
    settings = SearchSettings(beam_width=4, starts=8, batch_size=16)
    attempt = run_search(
        cube, Budget(wall_seconds=None, max_nodes=40), settings, value=_noisy(oracle)
    )
    assert attempt.nodes_expanded <= 40 + 4 * 8
    attempt = run_search(
        cube, Budget(wall_seconds=None, max_model_calls=5), settings, value=_noisy(oracle)
    )
    assert attempt.model_calls <= 5


def test_a_value_averaged_over_symmetries_steers_the_search(oracle):
    value = _noisy(oracle)
    ks = SYMMETRY_ORDER[:4]
    averaged = lambda s: symmetric_values(s, value, ks)  # noqa: E731
    settings = SearchSettings(beam_width=4, value_symmetries=4)
    differ = 0
    for inst in load_suite("depth-05-v1").instances[:12]:
        cube = facelets_to_state(inst.facelets)
        by_hand = beam_search(cube, CheckedModel(averaged, "value"), 4, "value")
        attempt = run_search(cube, Budget(wall_seconds=None), settings, value=value)
        assert attempt.moves == by_hand.moves and is_solved(apply_sequence(cube, attempt.moves))
        plain = beam_search(cube, CheckedModel(value, "value"), 4, "value").moves
        differ += plain != by_hand.moves
    assert differ  # the averaging changed some searches, so the check above means something


def test_a_value_with_the_corner_bound_steers_the_search(oracle):
    """``value_bound=w`` searches with the value plus w times the corner bound, exactly as a
    beam given that sum by hand."""
    value = _noisy(oracle)
    bounded = lambda s: value(s) + 0.5 * corner_bound(s, "htm")  # noqa: E731
    settings = SearchSettings(beam_width=4, value_bound=0.5)
    differ = solved = 0
    for inst in load_suite("depth-05-v1").instances[:12]:
        cube = facelets_to_state(inst.facelets)
        by_hand = beam_search(cube, CheckedModel(bounded, "value"), 4, "value").moves
        attempt = run_search(cube, Budget(wall_seconds=None), settings, value=value)
        assert attempt.moves == (by_hand or ())
        solved += is_solved(apply_sequence(cube, attempt.moves))
        plain = beam_search(cube, CheckedModel(value, "value"), 4, "value").moves
        differ += plain != by_hand
    assert differ and solved >= 6  # the bound changed some searches and solved most cubes


@pytest.mark.parametrize("solver", ["policy-mlp", "seq2seq-transformer"])
def test_a_policy_solver_refuses_a_value_bound_by_name(solver):
    with pytest.raises(SettingsError, match="value_bound"):
        make_solver(solver, {"value_bound": 0.5})


@pytest.mark.parametrize("solver", ["policy-mlp", "seq2seq-transformer"])
def test_a_policy_solver_refuses_value_symmetries_by_name(solver):
    with pytest.raises(SettingsError, match="value_symmetries=3"):
        make_solver(solver, {"value_symmetries": 3})


@pytest.mark.parametrize("solver", ["policy-mlp", "deepcubea"])
def test_a_solver_that_searches_with_one_model_refuses_an_ensemble_by_name(solver, tmp_path):
    wanted = f"solver {solver}: setting ensemble='{tmp_path}': does nothing for this solver"
    with pytest.raises(SettingsError, match=wanted):
        make_solver(solver, {"ensemble": str(tmp_path)})
