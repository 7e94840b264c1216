"""Move sets on the 2×2×2 and 4×4×4: pruning that loses no state, walks that never undo,
free rotations that bring the fixed corner home, and the solved states a search must see."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubebench.harness.cube.movesets import MOVE_SETS, _rotations, move_set
from cubebench.harness.cube.puzzle import puzzle

SETS = [("cube2", "htm", 5), ("cube2", "qtm", 6), ("cube4", "htm", 3), ("cube4", "qtm", 3)]


def _levels(moves, depth: int, pruned: bool) -> list[set[bytes]]:
    """States first reached at each depth, by every sequence or only canonical ones."""
    start = moves.cube.solved[:, None]
    frontier, last = start, np.array([-1])
    seen = {start[:, 0].tobytes()}
    levels = [set(seen)]
    for _ in range(depth):
        allowed = (
            moves.allowed_after(last) if pruned else np.ones((last.size, moves.size), bool)
        )  # (n, k)
        children = moves.expand(frontier)  # (S, k n)
        keep = np.flatnonzero(allowed.T.reshape(-1))
        level, columns, moved = set(), [], []
        for i in keep:
            key = children[:, i].tobytes()
            if key not in seen:
                seen.add(key)
                level.add(key)
                columns.append(i)
                moved.append(i // frontier.shape[1])
        if pruned:  # keep every canonical path, not one per state
            columns, moved = list(keep), [i // frontier.shape[1] for i in keep]
        frontier, last = children[:, columns], np.array(moved)
        levels.append(level)
    return levels


@pytest.mark.parametrize(("name", "metric", "depth"), SETS)
def test_canonical_pruning_reaches_every_state_at_its_depth(name, metric, depth):
    moves = move_set(metric, name)
    assert _levels(moves, depth, pruned=True) == _levels(moves, depth, pruned=False)


@pytest.mark.parametrize(
    ("name", "metric", "size"),
    [("cube2", "htm", 9), ("cube2", "qtm", 6), ("cube4", "htm", 36), ("cube4", "qtm", 24)],
)
def test_each_set_holds_the_metrics_moves_and_a_walk_never_undoes(name, metric, size):
    moves = move_set(metric, name)
    cube = puzzle(name)
    assert moves.size == size and moves.puzzle == name
    assert set(moves.moves) <= set(cube.metrics[metric])
    for local, after in enumerate(moves.walk_next):
        assert cube.inverse[moves.moves[local]] not in set(moves.moves[after])
    assert move_set(metric) is MOVE_SETS[metric]  # the 3×3×3's, as before


def test_the_2x2x2_sets_never_move_the_dbl_corner_so_one_state_is_solved():
    moves = move_set("htm", "cube2")
    assert [moves.cube.move_names[m] for m in moves.moves][::3] == ["U", "R", "F"]
    assert moves.solved_states.shape == (24, 1)
    assert move_set("htm", "cube4").solved_states.shape == (96, 24)  # every orientation


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 17), max_size=12), st.integers(0, 23))
def test_orient_brings_the_corner_home_with_a_free_rotation(sequence, which):
    moves = move_set("qtm", "cube2")
    cube = moves.cube
    rotations = [(), *_rotations("cube2")]
    state = cube.apply(cube.apply(cube.solved, sequence), rotations[which])
    relabel, turned = moves.orient(state)
    untouched = np.flatnonzero((cube.tables[moves.moves] == np.arange(24)).all(axis=0))
    assert np.array_equal(turned[untouched], cube.solved[untouched])
    home = np.array_equal(state[untouched], cube.solved[untouched])
    assert (relabel is None) == home and (not home or turned is state)
    if relabel is not None:  # a path from the turned cube, read back, does the same
        path = [int(m) for m in moves.moves[: len(sequence) % 9 + 1]]
        after = cube.apply(state, [int(relabel[m]) for m in path])
        turned_after = cube.apply(turned, path)
        assert moves.orient(after)[1].tobytes() == turned_after.tobytes()
        assert cube.length([int(relabel[m]) for m in path], "qtm") == cube.length(path, "qtm")


def test_there_are_24_rotations_each_a_solved_cube():
    for name in ("cube2", "cube4"):
        cube = puzzle(name)
        turned = {cube.apply(cube.solved, r).tobytes() for r in _rotations(name)}
        assert len(turned) == 23 and all(cube.is_solved(np.frombuffer(t, np.uint8)) for t in turned)


def test_hashes_separate_states_and_children_match_expand():
    moves = move_set("htm", "cube4")
    rng = np.random.default_rng(0)
    states = np.stack(
        [moves.cube.apply(moves.cube.solved, rng.integers(0, 36, 8)) for _ in range(50)], axis=1
    )
    children = moves.expand(states)
    hashes = moves.hash(children)
    distinct = len({children[:, i].tobytes() for i in range(children.shape[1])})
    assert len(set(hashes.tolist())) == distinct
    parents = rng.integers(0, 50, 30)
    local = rng.integers(0, moves.size, 30)
    picked = moves.children(states, parents, moves.moves[local])
    assert np.array_equal(picked, children[:, local * 50 + parents])
