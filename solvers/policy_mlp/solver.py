"""``policy-mlp``: the EfficientCube-style policy network with greedy or beam search."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import torch

from ...harness import Attempt, Budget, move_set
from ..common.inference import TorchModelSolver, TorchSearchSettings
from ..search.settings import run_search
from .checkpoint import CHECKPOINT_DIR, load_checkpoint
from .model import encode


@dataclass(frozen=True)
class PolicyMLPSettings(TorchSearchSettings):
    MODEL: ClassVar[str] = "policy"
    search: str = "beam"  # the default of what its model kind offers


class PolicyMLPSolver(TorchModelSolver):
    Settings = PolicyMLPSettings
    name = "policy-mlp"
    METRICS = ("htm", "qtm")

    def __init__(self, settings: PolicyMLPSettings | None = None) -> None:
        super().__init__(settings or PolicyMLPSettings(), load_checkpoint, CHECKPOINT_DIR)
        self._half_turns = torch.from_numpy(np.flatnonzero(move_set("qtm").local < 0))

    def policy(self, states: np.ndarray) -> np.ndarray:
        """(54, N) states -> (N, 18) log-probabilities of the move that solves next.

        A quarter-turn model's half-turn outputs are never trained targets: they are masked
        before the softmax, so the quarter turns' probabilities sum to one.
        """
        with self.inference():
            logits = self.model(encode(states, self.settings.device)).float()
            if self.settings.metric == "qtm":
                logits[:, self._half_turns] = -torch.inf
            return torch.log_softmax(logits, dim=1).cpu().numpy()

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        return run_search(cube, budget, self.settings, policy=self.policy, clock=self.clock)
