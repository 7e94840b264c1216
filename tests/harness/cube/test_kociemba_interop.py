"""The proof that our layout is kociemba's: its solutions solve our states in our engine."""

from __future__ import annotations

import kociemba
import numpy as np

from cubebench.harness.cube import (
    SOLVED,
    apply_sequence,
    format_moves,
    invert_sequence,
    is_solved,
    parse_moves,
    random_states,
    state_to_facelets,
)


def test_kociemba_solutions_solve_random_states():
    states = random_states(300, np.random.default_rng(2026))
    for j in range(states.shape[1]):
        solution = parse_moves(kociemba.solve(state_to_facelets(states[:, j])))
        assert is_solved(apply_sequence(states[:, j], solution)), j


def test_kociemba_reaches_a_pattern_given_as_our_facelets():
    # kociemba.solve(start, goal) finds moves from start to goal; with goal = our state of a
    # scramble, the moves from solved must rebuild exactly our facelets
    scramble = parse_moves("R U2 F' L D B2 R' U F2 D'")
    goal = state_to_facelets(apply_sequence(SOLVED, scramble))
    moves = parse_moves(kociemba.solve(state_to_facelets(SOLVED), goal))
    assert state_to_facelets(apply_sequence(SOLVED, moves)) == goal
    assert is_solved(apply_sequence(apply_sequence(SOLVED, moves), invert_sequence(scramble)))
    assert format_moves(scramble) == "R U2 F' L D B2 R' U F2 D'"
