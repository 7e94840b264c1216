"""Meet in the middle: a beam, an A* or a rollout that touches the table of states near
solved ends there with the table's optimal finish, whatever its model says."""

from __future__ import annotations

import numpy as np
import pytest

from cubebench.harness import SOLVED, SettingsError, facelets_to_state, load_suite, move_set
from cubebench.harness.cube import apply_sequence, is_solved, state_hash
from cubebench.harness.suites.oracle import DistanceOracle
from cubebench.solvers.search import CheckedModel, astar, beam_search, greedy_rollout
from cubebench.solvers.search.meet import meet_table
from cubebench.solvers.search.models import SearchLimits
from cubebench.solvers.search.settings import SearchSettings, prepare_search


@pytest.fixture(scope="module")
def table() -> DistanceOracle:
    return DistanceOracle.build(3)


def _random_model(kind: str, seed: int = 0):
    rng = np.random.default_rng(seed)
    if kind == "value":
        return lambda states: rng.random(states.shape[1]).astype(np.float32) * 20
    return lambda states: np.log(rng.dirichlet(np.ones(18), size=states.shape[1]))


@pytest.mark.parametrize("scoring", ["value", "policy"])
def test_a_beam_that_ranks_at_random_finishes_optimally_through_the_table(table, scoring):
    """Width 324 holds every state two moves out, so a depth-5 cube meets a radius-3 table
    at depth 2 and the table finishes it: optimal, with nothing learnt."""
    for inst in load_suite("depth-05-v1").instances[:8]:
        state = facelets_to_state(inst.facelets)
        model = CheckedModel(_random_model(scoring, inst.id), scoring)
        result = beam_search(state, model, 18 * 18, scoring, meet=table)
        assert result.moves is not None, result.info
        assert is_solved(apply_sequence(state, result.moves))
        assert len(result.moves) == inst.optimal_htm == 5
        assert result.info["met_at_depth"] == 2 and result.info["mitm_radius"] == 3


def test_the_model_is_not_called_on_the_step_that_meets(table):
    state = facelets_to_state(load_suite("depth-04-v1").instances[0].facelets)
    model = CheckedModel(_random_model("value"), "value")
    result = beam_search(state, model, 18, "value", meet=table)
    assert len(result.moves) == 4 and result.info["met_at_depth"] == 1
    assert result.model_calls == 0  # the 18 children were looked up, never scored


def test_a_cube_inside_the_table_is_solved_by_it_alone(table):
    state = facelets_to_state(load_suite("depth-03-v1").instances[0].facelets)
    model = CheckedModel(_random_model("value"), "value")
    result = beam_search(state, model, 4, "value", meet=table)
    assert is_solved(apply_sequence(state, result.moves)) and len(result.moves) == 3
    assert result.model_calls == 0 and result.info["met_at_depth"] == 0


def _noise_below_one(seed: int):
    rng = np.random.default_rng(seed)
    return lambda states: rng.random(states.shape[1]).astype(np.float32)


@pytest.mark.parametrize("depth", [4, 6])
def test_an_astar_without_knowledge_meets_the_table_and_finishes_optimally(table, depth):
    """A heuristic of noise below one move makes A* (weight 1) expand level by level, so the
    first batch that touches a radius-3 table holds children exactly ``optimum - 3`` moves
    out: the answer through the table is optimal though the model knows nothing."""
    for inst in load_suite(f"depth-0{depth}-v1").instances[:5]:
        state = facelets_to_state(inst.facelets)
        noise = CheckedModel(_noise_below_one(inst.id), "value")
        result = astar(state, noise, batch=50, weight=1.0, meet=table)
        assert result.moves is not None, result.info
        assert is_solved(apply_sequence(state, result.moves))
        assert len(result.moves) == inst.optimal_htm
        met = result.info["met_at_depth"]
        assert result.info["mitm_radius"] == 3 and met == inst.optimal_htm - 3
        if inst.optimal_htm == 4:
            assert result.model_calls == 1  # the start's value only: its children met


def test_astar_inside_the_table_calls_no_model(table):
    state = facelets_to_state(load_suite("depth-02-v1").instances[0].facelets)
    model = CheckedModel(_random_model("value"), "value")
    result = astar(state, model, meet=table)
    assert len(result.moves) == 2 and result.model_calls == 0
    assert result.info["met_at_depth"] == 0


def test_a_rollout_ends_where_it_enters_the_table(table):
    """A cube already inside needs no model; one a move outside takes the move a value model
    ranks first and is finished by the table from there."""
    distance = CheckedModel(lambda s: table.table_distance(s).astype(np.float32), "value")
    for depth in (3, 4):
        for inst in load_suite(f"depth-0{depth}-v1").instances[:5]:
            if inst.optimal_htm != depth:
                continue
            state = facelets_to_state(inst.facelets)
            before = distance.calls
            result = greedy_rollout(state, distance, "value", meet=table)
            assert is_solved(apply_sequence(state, result.moves)) and len(result.moves) == depth
            assert result.info == {"mitm_radius": 3, "met_at_depth": depth - 3}
            assert distance.calls - before == depth - 3


def test_quarter_turn_meeting_returns_quarter_turns():
    qtm = move_set("qtm")
    table = DistanceOracle.build(3, metric="qtm")
    for seed in range(5):
        scramble = np.random.default_rng(seed).choice(qtm.moves, size=5).tolist()
        cube = apply_sequence(SOLVED, scramble)
        model = CheckedModel(_random_model("value", seed), "value")
        result = beam_search(cube, model, 144, "value", qtm, table)
        assert result.moves is not None and set(result.moves) <= set(qtm.moves.tolist())
        assert is_solved(apply_sequence(cube, result.moves)) and len(result.moves) <= 5


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"mitm_radius": 7, "metric": "htm"}, "mitm_radius=7 exceeds 6, the largest htm table"),
        ({"mitm_radius": 8, "metric": "qtm"}, "mitm_radius=8"),
    ],
)
def test_settings_refuse_a_table_that_cannot_be_used(values, message):
    with pytest.raises(SettingsError, match=message):
        SearchSettings(**values)


def test_the_table_is_made_at_load_and_kept_on_disk(isolated_home):
    meet_table.cache_clear()
    prepare_search(SearchSettings(mitm_radius=2, metric="qtm"))
    assert (isolated_home / "cache" / "oracle" / "distance-table-qtm-r2.npz").exists()
    assert meet_table.cache_info().currsize == 1
    prepare_search(SearchSettings(mitm_radius=2, metric="qtm"))
    assert meet_table.cache_info().hits == 1
    meet_table.cache_clear()


def test_a_beam_through_the_table_returns_no_path_longer_than_max_depth(table):
    """A path met after step d has d + radius moves, so the beam stops where no meeting can
    be short enough: the same answer where it fits ``max_depth``, none where it does not."""
    oracle = DistanceOracle.build(5)

    def value(states):  # exact up to 5, with up to 3 moves of noise fixed per state
        noise = (state_hash(states) % np.uint64(7)).astype(np.float32) / 2
        return oracle.table_distance(states).astype(np.float32) + noise

    lengths = []
    for inst in load_suite("depth-05-v1").instances[:20]:
        state = facelets_to_state(inst.facelets)
        free = beam_search(state, CheckedModel(value, "value"), 3, "value", meet=table)
        if free.moves is None:  # so noisy a beam can lose its way: nothing to cut
            continue
        lengths.append(length := len(free.moves))
        for longest in (length, length - 1):
            model = CheckedModel(value, "value", limits=SearchLimits(max_depth=longest))
            result = beam_search(state, model, 3, "value", meet=table)
            if longest == length:
                assert result.moves == free.moves
            else:
                assert result.moves is None and result.info["gave_up"] == "max depth"
                assert result.nodes_expanded < free.nodes_expanded  # it stopped early
    assert len(lengths) >= 8 and max(lengths) > 5  # some took a detour, and were cut short


def test_a_cube_inside_the_table_but_beyond_max_depth_is_unsolved(table):
    state = facelets_to_state(load_suite("depth-03-v1").instances[0].facelets)
    model = CheckedModel(_random_model("value"), "value", limits=SearchLimits(max_depth=2))
    result = beam_search(state, model, 4, "value", meet=table)
    assert result.moves is None and result.info["gave_up"] == "max depth"


def test_an_astar_through_the_table_returns_no_path_longer_than_max_depth(table):
    """Every path through a child in the table counts its finish: a cube four moves out
    is solved in four where ``max_depth`` allows four, and left unsolved where it allows
    three, though its first children already touch a radius-3 table."""
    for inst in load_suite("depth-04-v1").instances[:3]:
        state = facelets_to_state(inst.facelets)
        for longest in (4, 3):
            limits = SearchLimits(max_depth=longest)
            noise = CheckedModel(_noise_below_one(inst.id), "value", limits=limits)
            result = astar(state, noise, batch=50, weight=1.0, meet=table)
            if longest == 4:
                assert len(result.moves) == 4 and is_solved(apply_sequence(state, result.moves))
            else:
                assert result.moves is None, result.moves


def test_a_rollout_gives_up_where_the_table_finish_would_pass_max_depth(table):
    distance = CheckedModel(lambda s: table.table_distance(s).astype(np.float32), "value")
    for depth, longest in ((3, 2), (4, 3)):
        inst = next(i for i in load_suite(f"depth-0{depth}-v1").instances if i.optimal_htm == depth)
        state = facelets_to_state(inst.facelets)
        capped = CheckedModel(distance.fn, "value", limits=SearchLimits(max_depth=longest))
        result = greedy_rollout(state, capped, "value", meet=table)
        assert result.moves is None and result.info["gave_up"] == "max depth"
        free = greedy_rollout(state, distance, "value", meet=table)
        assert len(free.moves) == depth
