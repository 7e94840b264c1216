"""Random walks from the given state until one passes the solved state or the budget ends.

Every learned solver must clear this floor. Walks are canonical (no face twice in a row),
generated and replayed as one engine batch, and seeded from the settings and the state, so
the same cube and seed give the same answer.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Annotated, ClassVar

import numpy as np

from ...harness import (
    Attempt,
    Budget,
    Puzzle,
    Range,
    SolverSettings,
    apply_moves,
    canonical_scrambles,
    is_solved,
    puzzle,
    puzzle_of_stickers,
)


@dataclass(frozen=True)
class RandomSettings(SolverSettings):
    walk_length: Annotated[int, Range(min=1, max=1000)] = 20
    max_walks: Annotated[int, Range(min=1, max=10**9)] = 20_000
    walks_per_batch: Annotated[int, Range(min=1, max=10**6)] = 2_000
    OPTION_HELP: ClassVar = {
        "walk_length": "moves per random walk",
        "max_walks": "walks to try before giving up",
        "walks_per_batch": "walks replayed together in one engine batch",
    }


class RandomSolver:
    Settings = RandomSettings
    puzzles: ClassVar = ("cube2", "cube3", "cube4")

    def __init__(self, settings: RandomSettings | None = None) -> None:
        self.settings = settings or RandomSettings()
        self.name = "random"

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        size = puzzle(puzzle_of_stickers(cube.shape[0]))
        if size.name != "cube3":
            return self._solve_other(cube, budget, size)
        if is_solved(cube):
            return Attempt(moves=())
        s = self.settings
        length = min(s.walk_length, budget.max_length or s.walk_length)
        digest = hashlib.sha256(np.asarray(cube, np.uint8).tobytes()).digest()
        rng = np.random.default_rng([s.seed, int.from_bytes(digest[:8], "little")])
        deadline = budget.deadline()
        max_walks = (
            s.max_walks
            if budget.max_nodes is None
            else min(s.max_walks, budget.max_nodes // max(length, 1))
        )
        nodes = 0
        walks_done = 0
        while walks_done < max_walks and budget.now() < deadline and length > 0:
            count = min(s.walks_per_batch, max_walks - walks_done)
            walks = canonical_scrambles(count, length, rng)  # (count, length)
            states = np.repeat(np.asarray(cube, np.uint8)[:, None], count, axis=1)
            for step in range(length):
                states = apply_moves(states, walks[:, step])
                nodes += count
                hits = np.flatnonzero(is_solved(states))
                if hits.size:
                    moves = tuple(int(m) for m in walks[hits[0], : step + 1])
                    return Attempt(moves=moves, nodes_expanded=nodes)
            walks_done += count
        return Attempt(moves=(), nodes_expanded=nodes, info={"gave_up": f"{walks_done} walks"})

    def _solve_other(self, cube: np.ndarray, budget: Budget, size: Puzzle) -> Attempt:
        """The same walks on the 2×2×2 or 4×4×4: turns of its face-turn metric, never two of
        one face and layers in a row, replayed on its own tables."""
        if size.is_solved(cube):
            return Attempt(moves=())
        s = self.settings
        length = min(s.walk_length, budget.max_length or s.walk_length)
        digest = hashlib.sha256(np.asarray(cube, np.uint8).tobytes()).digest()
        rng = np.random.default_rng([s.seed, int.from_bytes(digest[:8], "little")])
        moves = np.array(size.metrics["htm"])  # (k,)
        deadline, nodes, walks_done = budget.deadline(), 0, 0
        max_walks = (
            s.max_walks
            if budget.max_nodes is None
            else min(s.max_walks, budget.max_nodes // max(length, 1))
        )
        while walks_done < max_walks and budget.now() < deadline and length > 0:
            count = min(s.walks_per_batch, max_walks - walks_done)
            walks = np.empty((count, length), dtype=np.int64)
            walks[:, 0] = rng.choice(moves, count)
            for step in range(1, length):  # a move of another face or layers than the last
                pick = rng.choice(moves, count)
                while (same := pick // 3 == walks[:, step - 1] // 3).any():
                    pick[same] = rng.choice(moves, int(same.sum()))
                walks[:, step] = pick
            states = np.repeat(np.asarray(cube, np.uint8)[:, None], count, axis=1)  # (S, count)
            for step in range(length):
                states = np.take_along_axis(states, size.tables[walks[:, step]].T, axis=0)
                nodes += count
                hits = np.flatnonzero(size.is_solved(states))
                if hits.size:
                    found = tuple(int(m) for m in walks[hits[0], : step + 1])
                    return Attempt(moves=found, nodes_expanded=nodes)
            walks_done += count
        return Attempt(moves=(), nodes_expanded=nodes, info={"gave_up": f"{walks_done} walks"})
