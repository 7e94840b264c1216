"""Shared check for shipped checkpoints: a solver answers every listed cube correctly."""

from __future__ import annotations

from cubebench.harness.cube import apply_sequence, facelets_to_state, is_solved
from cubebench.harness.solver import Budget
from cubebench.harness.suites.catalog import load_suite


def assert_solves_first(solver, suite: str, count: int, wall_seconds: float = 30) -> None:
    """Every one of the first ``count`` cubes of ``suite`` is solved, verified by replay."""
    for inst in load_suite(suite).instances[:count]:
        state = facelets_to_state(inst.facelets)
        attempt = solver.solve(state, Budget(wall_seconds=wall_seconds))
        assert attempt.moves and is_solved(apply_sequence(state, attempt.moves)), inst.id
