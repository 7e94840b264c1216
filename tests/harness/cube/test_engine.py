"""Batched engine operations agree with applying moves one state at a time."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given

from cubebench.harness.cube import (
    apply_move,
    apply_moves,
    apply_sequence,
    children_of,
    expand,
    is_solved,
    random_states,
    scrambled_batch,
    solved_batch,
    state_hash,
    state_keys,
)

from .strategies import seeds


@pytest.mark.parametrize("n", [5, 3000])  # both the fancy-index and the row-copy paths
def test_apply_move_batch_matches_single_states(n):
    states = random_states(n, np.random.default_rng(n))
    for move in range(18):
        batch = apply_move(states, move)
        for j in (0, n // 2, n - 1):
            assert np.array_equal(batch[:, j], apply_move(states[:, j], move))
        out = np.empty_like(states)
        assert np.array_equal(apply_move(states, move, out=out), batch)


@given(seeds)
def test_apply_moves_per_state_matches_single_moves(seed):
    rng = np.random.default_rng(seed)
    states = random_states(64, rng)
    moves = rng.integers(0, 18, size=64)
    result = apply_moves(states, moves)
    for j in range(64):
        assert np.array_equal(result[:, j], apply_move(states[:, j], int(moves[j])))


def test_apply_moves_accepts_a_column_selection():
    """``states[:, idx]`` is Fortran-ordered; the kernel must not read it as C order."""
    states = random_states(7, np.random.default_rng(2))
    selection = states[:, [0, 3, 6, 2]]
    moves = np.array([0, 5, 17, 9])
    result = apply_moves(selection, moves)
    for j in range(4):
        assert np.array_equal(result[:, j], apply_move(selection[:, j], int(moves[j])))


def test_apply_moves_rejects_bad_input():
    states = solved_batch(4)
    with pytest.raises(ValueError, match="move ids must be in 0..17"):
        apply_moves(states, np.array([0, 1, 18, 2]))
    with pytest.raises(ValueError, match="one move per state"):
        apply_moves(states, np.array([0, 1]))
    with pytest.raises(ValueError, match="out must be a separate"):
        apply_moves(states, np.zeros(4, int), out=states)


def test_expand_orders_children_move_major():
    states = random_states(7, np.random.default_rng(1))
    children = expand(states)
    assert children.shape == (54, 18 * 7)
    for move in range(18):
        assert np.array_equal(children[:, move * 7 : move * 7 + 7], apply_move(states, move))


@given(seeds)
def test_children_of_builds_the_chosen_columns_of_expand(seed):
    rng = np.random.default_rng(seed)
    states = random_states(9, rng)
    parents, moves = rng.integers(0, 9, size=40), rng.integers(0, 18, size=40)
    chosen = children_of(states, parents, moves)
    assert np.array_equal(chosen, expand(states)[:, moves * 9 + parents])


def test_children_of_rejects_bad_indices():
    states = solved_batch(3)
    with pytest.raises(ValueError, match=r"parent indices must be in 0..2"):
        children_of(states, np.array([0, 3]), np.array([1, 1]))
    with pytest.raises(ValueError, match="move ids must be in 0..17"):
        children_of(states, np.array([0, 1]), np.array([1, -1]))
    with pytest.raises(ValueError, match="must be equal 1-D"):
        children_of(states, np.array([0, 1]), np.array([1]))


def test_is_solved_batch_and_single():
    states = solved_batch(3)
    states[:, 1] = apply_sequence(states[:, 1], [4])
    assert is_solved(states).tolist() == [True, False, True]
    assert is_solved(states[:, 0]) is True


def test_keys_are_exact_and_hash_separates_states():
    rng = np.random.default_rng(2)
    states = random_states(20000, rng)
    keys = state_keys(states)
    assert len(np.unique(keys, axis=0)) == len(np.unique(states.T, axis=0))
    assert len(np.unique(state_hash(states))) == len(np.unique(keys, axis=0))
    same = np.concatenate([states[:, :5], states[:, :5]], axis=1)
    hashes = state_hash(same)
    assert np.array_equal(hashes[:5], hashes[5:])


@given(seeds)
def test_scrambled_batch_matches_each_scramble_applied_alone(seed):
    scrambles = np.random.default_rng(seed).integers(0, 18, size=(6, 7))  # (N, L)
    batch = scrambled_batch(scrambles)
    for j, scramble in enumerate(scrambles):
        assert np.array_equal(batch[:, j], apply_sequence(solved_batch(1)[:, 0], scramble.tolist()))
    with pytest.raises(ValueError, match=r"shape \(N, L\)"):
        scrambled_batch(scrambles[0])
