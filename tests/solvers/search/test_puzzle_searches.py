"""The shared searches on the 2×2×2 and the 4×4×4: optimal with an exact value, solved
from any orientation, and the settings that only the 3×3×3 has refused by name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pytest

from cubebench.harness import Budget, SettingsError, cube2_distances
from cubebench.harness.cube.movesets import _rotations, move_set
from cubebench.harness.cube.puzzle import puzzle
from cubebench.harness.settings import parse_settings
from cubebench.solvers.search import CheckedModel, astar, beam_search, greedy_rollout
from cubebench.solvers.search.settings import SearchSettings, run_search


@pytest.fixture(scope="module")
def table():
    return cube2_distances()


def _cubes(metric: str, n: int = 10) -> list[np.ndarray]:
    cube, rng = puzzle("cube2"), np.random.default_rng(5)
    moves = move_set(metric, "cube2")
    return [cube.apply(cube.solved, rng.choice(moves.moves, size=14)) for _ in range(n)]


@pytest.mark.parametrize("metric", ["htm", "qtm"])
def test_every_search_is_optimal_with_the_exact_distance(table, metric):
    moves, cube = move_set(metric, "cube2"), puzzle("cube2")

    def value(states):
        return table.distances(states, metric).astype(np.float32)

    def policy(states):  # log-probability 0 on a move one nearer, -5 elsewhere
        children = moves.expand(states)  # (24, k n)
        nearer = value(children).reshape(moves.size, -1) < value(states)[None, :]
        out = np.full((states.shape[1], cube.num_moves), -5.0, np.float32)
        out[:, moves.moves] = np.where(nearer.T, 0.0, -5.0)
        return out

    for state in _cubes(metric):
        optimum = int(value(state[:, None])[0])
        found = [
            astar(state, CheckedModel(value, "value"), 1, 1.0, moves),
            beam_search(state, CheckedModel(value, "value"), 4, "value", moves),
            beam_search(state, CheckedModel(policy, "policy"), 4, "policy", moves),
            greedy_rollout(state, CheckedModel(policy, "policy"), "policy", True, moves),
        ]
        for result in found:
            assert result.moves is not None
            assert cube.is_solved(cube.apply(state, result.moves))
            assert cube.length(result.moves, metric) == optimum


def test_a_wrong_policy_width_is_named():
    moves = move_set("htm", "cube2")
    state = puzzle("cube2").apply(puzzle("cube2").solved, [3, 0])
    model = CheckedModel(lambda s: np.zeros((s.shape[1], 18), np.float32), "policy", width=9)
    with pytest.raises(Exception, match=r"shape \(1, 18\).*expected \(1, 9\)"):
        beam_search(state, model, 4, "policy", moves)


@dataclass(frozen=True)
class _Cube2Settings(SearchSettings):
    PUZZLE: ClassVar[str] = "cube2"
    search: str = "beam"
    beam_width: int = 64


@dataclass(frozen=True)
class _Cube4Settings(SearchSettings):
    PUZZLE: ClassVar[str] = "cube4"
    search: str = "beam"
    beam_width: int = 4000
    max_depth: int = 3


def test_a_cube_in_another_orientation_is_turned_home_for_free(table):
    cube = puzzle("cube2")
    scrambled = cube.apply(cube.solved, cube.parse_moves("R U F' U2 R'"))

    def value(states):
        return table.distances(states, "htm").astype(np.float32)

    for rotation in _rotations("cube2"):
        state = cube.apply(scrambled, rotation)
        attempt = run_search(state, Budget(), _Cube2Settings(), value=value)
        assert attempt.info["turned"] and len(attempt.moves) == 5
        assert cube.is_solved(cube.apply(state, attempt.moves))
        assert cube.length(attempt.moves, "htm") == 5


def test_the_4x4x4_is_solved_in_any_orientation_by_a_beam():
    cube = puzzle("cube4")
    for rotation in _rotations("cube4")[::5]:
        state = cube.apply(cube.apply(cube.solved, cube.parse_moves("R Uw'")), rotation)
        _solve_in_two(cube, state)


def _solve_in_two(cube, state):
    uniform = lambda s: np.zeros((s.shape[1], cube.num_moves), np.float32)  # noqa: E731
    attempt = run_search(state, Budget(), _Cube4Settings(), policy=uniform)
    assert attempt.moves and cube.is_solved(cube.apply(state, attempt.moves))
    assert cube.length(attempt.moves, "htm") == 2


@pytest.mark.parametrize(
    "setting", [{"starts": 2}, {"mitm_radius": 3}, {"value_symmetries": 2}, {"value_bound": 1.0}]
)
def test_what_only_the_3x3x3_has_is_refused_on_another_puzzle(setting):
    with pytest.raises(SettingsError, match=f"setting {next(iter(setting))}=.*does nothing"):
        parse_settings(_Cube2Settings, setting)
