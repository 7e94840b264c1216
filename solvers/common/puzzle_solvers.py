"""What a learned solver of another cube size is: a :class:`PuzzleNet` behind the shared
searches (beam, A*, greedy), on one puzzle.

A solver folder (``solvers/cube2_policy`` …) binds a puzzle, a head and its shipped
checkpoints; everything else is here. The searches see the puzzle through its move set
(:func:`~cubebench.harness.move_set`): its solved states, children and pruning.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ...harness import Attempt, Budget, move_set
from ..search.settings import run_search
from .checkpoint import ShippedModel
from .inference import TorchModelSolver, TorchSearchSettings
from .puzzle_nets import encode, masked_log_policy


@dataclass(frozen=True)
class PuzzleSearchSettings(TorchSearchSettings):
    """A 2×2×2 or 4×4×4 network's settings: a solver's class binds ``PUZZLE`` and
    ``MODEL``; the 3×3×3's symmetries, tables and meet in the middle do not act here."""

    OFFERED: ClassVar[tuple[str, ...]] = ("fp32", "bf16")

    @classmethod
    def choices(cls) -> dict[str, tuple[str, ...]]:
        return {**super().choices(), "precision": ("auto", *cls.OFFERED)}

    @classmethod
    def option_help(cls) -> dict[str, str]:
        """The 3×3×3's wording of ``metric`` and ``precision`` does not hold here."""
        return {
            **super().option_help(),
            "metric": f"{METRIC_MOVES[cls.PUZZLE]}: the move set searched, and the "
            "checkpoint trained for it",
            "precision": "auto (bf16 where the hardware has it natively), fp32 or bf16",
        }


METRIC_MOVES = {
    "cube2": "htm (the 9 face turns of U, R and F, the DBL corner kept home) or qtm (their "
    "6 quarter turns)",
    "cube4": "htm (the 36 face and wide turns) or qtm (the 24 quarter turns of one layer)",
}
"""What each metric's move set is on the sizes these solvers learn."""


class PuzzleNetSolver(TorchModelSolver):
    """Loads the shipped (or given) checkpoint for the metric and searches with it."""

    OFFERED = ("fp32", "bf16")
    METRICS = ("htm", "qtm")
    SHIPPED: ClassVar[ShippedModel]
    Settings: ClassVar[type[PuzzleSearchSettings]]

    def __init__(self, settings: PuzzleSearchSettings | None = None) -> None:
        chosen = settings or self.Settings()
        super().__init__(chosen, self.SHIPPED.load, self.SHIPPED.folder)
        self.moves = move_set(chosen.metric, chosen.PUZZLE)

    def policy(self, states: np.ndarray) -> np.ndarray:
        """(S, N) -> (N, P) log-probabilities of the move that solves next."""
        with self.inference():
            return masked_log_policy(self.model(encode(states, self.settings.device)), self.moves)

    def value(self, states: np.ndarray) -> np.ndarray:
        """(S, N) -> (N,) estimated moves to solved, 0 at solved."""
        with self.inference():
            cost = self.model(encode(states, self.settings.device))[:, 0].float().clamp_min(0)
        out = cost.cpu().numpy()
        out[self.moves.is_solved(states)] = 0.0
        return out

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        if self.settings.MODEL == "policy":
            return run_search(cube, budget, self.settings, policy=self.policy, clock=self.clock)
        return run_search(cube, budget, self.settings, value=self.value, clock=self.clock)
