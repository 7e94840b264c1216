"""random on every size: the floor's walks solve shallow cubes of each puzzle, verified."""

from __future__ import annotations

import pytest

from cubebench.harness import Budget
from cubebench.harness.cube.puzzle import puzzle
from cubebench.harness.registry import make_solver
from cubebench.harness.verify import judge, to_raw


@pytest.mark.parametrize(("name", "scramble"), [("cube2", "R U"), ("cube4", "Rw U"),
                                                ("cube4", "2F"), ("cube3", "R U")])  # fmt: skip
def test_a_two_move_cube_of_each_size_is_solved_and_verified(name, scramble):
    cube = puzzle(name)
    state = cube.apply(cube.solved, cube.parse_moves(scramble))
    attempt = make_solver("random").solve(state, Budget(wall_seconds=60))
    record = judge(state, to_raw(attempt, 0.0), Budget(), solver="random", suite="s",
                   instance=0, puzzle_name=name)  # fmt: skip
    assert record.status == "solved" and record.length_htm is not None


def test_the_same_cube_gets_the_same_walk_and_a_solved_one_none():
    cube = puzzle("cube4")
    state = cube.apply(cube.solved, cube.parse_moves("Uw R"))
    solver = make_solver("random")
    assert solver.solve(state, Budget()).moves == solver.solve(state, Budget()).moves
    assert solver.solve(cube.solved, Budget()).moves == ()


def test_walks_stop_at_the_node_budget():
    cube = puzzle("cube2")
    deep = cube.apply(cube.solved, cube.parse_moves("R U F R' U F' R2 U' F2"))
    attempt = make_solver("random", {"walks_per_batch": 10}).solve(deep, Budget(max_nodes=200))
    assert attempt.moves == () and attempt.nodes_expanded <= 200
